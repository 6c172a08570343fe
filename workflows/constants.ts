/** Names shared by the worker, the API and operators. */
export const TASK_QUEUE = 'offerops';

/** The Temporal Schedule that runs `retentionSweep`. */
export const RETENTION_SCHEDULE_ID = 'offerops-retention-sweep';
export const RETENTION_EVERY = '5 minutes';
