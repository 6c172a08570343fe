import { Logger } from 'pino';

/** How often recorded request lines are written (a crash loses at most this much of the log). */
export const REQUEST_LOG_FLUSH_MS = 500;
const MAX_BATCH = 1_000;

/**
 * The access log, written in batches off the response path: `record` keeps a
 * line's fields, and they are logged together every REQUEST_LOG_FLUSH_MS (or
 * once MAX_BATCH lines wait). `flush` writes what waits at once (a clean stop
 * calls it, so nothing is lost then).
 */
export class RequestLog {
  private pending: Record<string, unknown>[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly intervalMs = REQUEST_LOG_FLUSH_MS,
  ) {}

  record(fields: Record<string, unknown>): void {
    this.pending.push(fields);
    if (this.pending.length >= MAX_BATCH) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.intervalMs).unref();
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    for (const fields of batch) this.logger.info(fields, 'request');
  }
}
