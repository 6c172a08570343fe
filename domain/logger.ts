import { AsyncLocalStorage } from 'node:async_hooks';
import { isSpanContextValid, trace } from '@opentelemetry/api';
import pino, { DestinationStream, Logger } from 'pino';

/** The request a line is logged for (the API's front step runs each request inside it). */
const requestScope = new AsyncLocalStorage<string>();

/** Runs `fn` as the work of request `requestId`: every line logged inside it, awaits included, carries `request_id`. */
export function inRequest<T>(requestId: string, fn: () => T): T {
  return requestScope.run(requestId, fn);
}

/** What each line gets from where it is logged: its request's id, and the active span's trace and span ids when tracing is on. */
function logContext(): Record<string, string> {
  const fields: Record<string, string> = {};
  const requestId = requestScope.getStore();
  if (requestId) fields.request_id = requestId;
  const span = trace.getActiveSpan()?.spanContext();
  if (span && isSpanContextValid(span)) {
    fields.trace_id = span.traceId;
    fields.span_id = span.spanId;
  }
  return fields;
}

/**
 * JSON lines on stdout (pino: structured, fast, with redaction). Request logs
 * carry ids, routes, statuses and durations only; any field that could hold
 * a secret is censored as a second line of defence. A line's own fields
 * win over those of its context (logContext).
 */
export function createLogger(name: string, level = process.env.LOG_LEVEL ?? 'info', destination?: DestinationStream): Logger {
  return pino(
    {
      name,
      level,
      mixin: logContext,
      redact: {
        paths: ['authorization', '*.authorization', 'api_key', '*.api_key', 'secret', '*.secret', 'headers', '*.headers', 'body', '*.body'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
