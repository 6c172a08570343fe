import { Logger } from 'pino';
import { RequestLogEntry } from '../../domain/developer/request-logs';
import { lineWriter } from '../../domain/logger';

/** How often recorded request lines are written (a crash loses at most this much of the log). */
export const REQUEST_LOG_FLUSH_MS = 500;
const MAX_BATCH = 1_000;

/**
 * The access log and the stored request logs, written in batches off the
 * response path: `record` keeps a line's fields (and, for a v1 request of a
 * credential, its stored entry), and they are written together every
 * REQUEST_LOG_FLUSH_MS (or once MAX_BATCH lines wait): the lines to the
 * logger's destination in one write (lineWriter), the entries with one `store` call. `flush` writes what waits at
 * once (a clean stop awaits it, so nothing is lost then). A failed store is
 * logged, never thrown into a request.
 */
export class RequestLog {
  private pending: Record<string, unknown>[] = [];
  private entries: RequestLogEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writes = new Set<Promise<void>>();
  private readonly writeLines: (lines: Record<string, unknown>[]) => void;

  constructor(
    private readonly logger: Logger,
    private readonly store: (entries: RequestLogEntry[]) => Promise<void>,
    private readonly intervalMs = REQUEST_LOG_FLUSH_MS,
  ) {
    this.writeLines = lineWriter(logger, 'request');
  }

  record(fields: Record<string, unknown>, entry?: RequestLogEntry): void {
    this.pending.push(fields);
    if (entry) this.entries.push(entry);
    if (this.pending.length >= MAX_BATCH) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.intervalMs).unref();
  }

  /** Writes the waiting lines now (synchronously) and stores the waiting entries; resolves once every store under way is done. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    const entries = this.entries;
    this.pending = [];
    this.entries = [];
    this.writeLines(batch);
    if (entries.length) {
      const write = this.store(entries).catch((err: unknown) => {
        this.logger.error({ err, entries: entries.length }, 'storing request logs failed');
      });
      this.writes.add(write);
      void write.finally(() => this.writes.delete(write));
    }
    return Promise.all(this.writes).then(() => undefined);
  }
}
