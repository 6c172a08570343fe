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

const { lsCacheSym, timeSym, chindingsSym, endSym, streamSym, needsMetadataGsym, hooksSym, formattersSym, nestedKeySym, messageKeySym } =
  pino.symbols;

/**
 * Writes batches of `info` lines with message `msg`, each as `logger.info(fields, msg)` would (pino's level, time and
 * bindings, the fields, the message), a batch in one write to the logger's destination. For the access log: its
 * fields are fixed and hold no secret, and the request id is among them, so the mixin and redaction, which cost pino
 * more than the line itself, are skipped. A logger that shapes its lines otherwise (formatters, hooks, a nested key,
 * a destination that wants each line's level) gets them through logger.info.
 */
export function lineWriter(logger: Logger, msg: string): (records: Record<string, unknown>[]) => void {
  // pino.symbols name the state pino keeps on a logger, exported for integrations.
  const at = <T>(sym: symbol): T | undefined => (logger as unknown as Record<symbol, T | undefined>)[sym];
  const stream = at<DestinationStream & Record<symbol, unknown>>(streamSym);
  const plain =
    stream !== undefined &&
    stream[needsMetadataGsym] !== true &&
    !at<{ streamWrite?: unknown }>(hooksSym)?.streamWrite &&
    !at<{ log?: unknown }>(formattersSym)?.log &&
    !at<string>(nestedKeySym) &&
    at<string>(messageKeySym) === 'msg';
  if (!plain) return (records) => records.forEach((fields) => logger.info(fields, msg));
  const level = at<Record<number, string>>(lsCacheSym)![logger.levels.values.info!]!;
  const time = at<() => string>(timeSym)!;
  const bindings = at<string>(chindingsSym)!;
  const tail = `,"msg":${JSON.stringify(msg)}${at<string>(endSym)!}`;
  return (records) => {
    if (!records.length || !logger.isLevelEnabled('info')) return;
    const head = level + time() + bindings;
    let out = '';
    for (const fields of records) {
      const json = JSON.stringify(fields);
      out += head + (json.length > 2 ? `,${json.slice(1, -1)}` : '') + tail;
    }
    stream.write(out);
  };
}
