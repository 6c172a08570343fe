import pino, { DestinationStream, Logger } from 'pino';

/**
 * JSON lines on stdout (pino: structured, fast, with redaction). Request logs
 * carry ids, routes, statuses and durations only; any field that could hold
 * a secret is censored as a second line of defence.
 */
export function createLogger(name: string, level = process.env.LOG_LEVEL ?? 'info', destination?: DestinationStream): Logger {
  return pino(
    {
      name,
      level,
      redact: {
        paths: ['authorization', '*.authorization', 'api_key', '*.api_key', 'secret', '*.secret', 'headers', '*.headers', 'body', '*.body'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
