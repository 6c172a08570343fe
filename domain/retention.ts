/**
 * How long platform records are kept past the time in their field: the rule
 * of the retention sweep (activities/events.ts) and, on engines with TTL
 * indexes, of those indexes (db.ts), so the two never disagree.
 */
export const RETENTION_MS = {
  /** A rate-limit window after its end (`window_end`): a grace for processes still counting in it. */
  rateLimitWindow: 60_000,
  /** A send slot after its time (`at`). */
  sendSlot: 3_600_000,
  /** A request log after its time (`time`): 90 days (spec 8). */
  requestLog: 90 * 86_400_000,
  /** An OAuth token after it expired (`expires_at`): meanwhile a use answers `expired_token`. */
  expiredToken: 24 * 3_600_000,
  /** An idempotency record after it expired (`expires_at`). */
  idempotencyKey: 0,
} as const;
