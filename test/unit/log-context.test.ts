/**
 * What a log line gets from where it is logged (domain/logger.ts): the
 * request's id inside a request, the active span's trace and span ids under
 * tracing, and the bookkeeping a request leaves for after its answer logged
 * as that request's, not as the request that happened to start the batch.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { AfterAnswer } from '../../domain/after-answer';
import { createLogger, inRequest } from '../../domain/logger';
import { TRACE_HEADER } from '../../workflows/tracing';
import { TRACE_HEADER as SDK_TRACE_HEADER } from '@temporalio/interceptors-opentelemetry/lib/instrumentation';

/** A logger whose lines are kept, parsed. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger('test', 'info', { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines, line: (msg: string) => lines.find((l) => l.msg === msg) };
}

test("a line logged inside a request carries the request's id, its own field winning; one outside carries none", () => {
  const { logger, line } = capture();
  inRequest('req_one', () => logger.info('inside'));
  inRequest('req_one', () => logger.info({ request_id: 'req_given' }, 'given'));
  logger.info('outside');
  assert.equal(line('inside')?.request_id, 'req_one');
  assert.equal(line('given')?.request_id, 'req_given');
  assert.equal(line('outside')?.request_id, undefined);
});

test('bookkeeping after an answer logs as the request that left it, its failure too', async () => {
  const { logger, line } = capture();
  const after = new AfterAnswer((err) => logger.error({ err }, 'bookkeeping failed'), 60_000);
  // The first request starts the batch's timer; each task still runs as its own request's.
  inRequest('req_first', () => after.add(async () => logger.info('first task')));
  inRequest('req_second', () =>
    after.add(async () => {
      await Promise.resolve();
      throw new Error('count failed');
    }),
  );
  await inRequest('req_flusher', () => after.flush());
  assert.equal(line('first task')?.request_id, 'req_first');
  assert.equal(line('bookkeeping failed')?.request_id, 'req_second');
});

test("under tracing a line carries the active span's trace and span ids; without a span, none", () => {
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new InMemorySpanExporter())] });
  provider.register({ contextManager: new AsyncLocalStorageContextManager() });
  const { logger, line } = capture();
  const ids = trace.getTracer('test').startActiveSpan('work', (span) => {
    logger.info('in a span');
    span.end();
    return span.spanContext();
  });
  logger.info('no span');
  assert.equal(line('in a span')?.trace_id, ids.traceId);
  assert.equal(line('in a span')?.span_id, ids.spanId);
  assert.equal(line('no span')?.trace_id, undefined);
  trace.disable();
});

test("the workflows' tracing reads the header the SDK's interceptors write", () => {
  assert.equal(TRACE_HEADER, SDK_TRACE_HEADER);
});
