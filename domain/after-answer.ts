import { AsyncResource } from 'node:async_hooks';

/**
 * Work a request leaves for after its answer: bookkeeping that nobody waits
 * for and that must not compete with what the answer started (a publication's
 * analytics count, the relay of its event, its move to `sending`, while its
 * workflow makes the send). A task waits at most AFTER_ANSWER_MS, then runs
 * with every other task waiting then, side by side. `close` (a clean stop)
 * runs what waits at once and resolves when every task has ended, so a clean
 * stop loses nothing; a task added after it runs at once. A crash loses the
 * tasks still waiting: each caller says what that costs (an event stays in
 * its document's outbox for the sweep; a count is lost, as a count cut short
 * by a crash always was). A task's failure is reported, never thrown.
 */

/** How long a task waits for its turn (the interval of the batches). */
export const AFTER_ANSWER_MS = 250;

export class AfterAnswer {
  private waiting: (() => Promise<void>)[] = [];
  private readonly running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly report: (err: unknown) => void,
    private readonly delayMs = AFTER_ANSWER_MS,
  ) {}

  /**
   * Runs `task` within AFTER_ANSWER_MS (at once after `close`), as the work of
   * the request or activity that adds it: its log lines (its failure's too)
   * carry that request's id and its spans join that trace.
   */
  add(task: () => Promise<unknown>): void {
    const run = AsyncResource.bind(() =>
      Promise.resolve()
        .then(task)
        .then(
          () => undefined,
          (err: unknown) => this.report(err),
        ),
    );
    if (this.closed) return this.start(run);
    this.waiting.push(run);
    this.timer ??= setTimeout(() => void this.flush(), this.delayMs);
  }

  /** Runs the waiting tasks now; resolves when every task started so far has ended. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const tasks = this.waiting;
    this.waiting = [];
    for (const task of tasks) this.start(task);
    return Promise.all(this.running).then(() => undefined);
  }

  /** A clean stop: what waits runs now (and whatever is added later, at once); resolves when all of it has ended. */
  close(): Promise<void> {
    this.closed = true;
    return this.flush();
  }

  private start(task: () => Promise<void>): void {
    const run = task();
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }
}
