/** Names shared by the worker, the API and operators. */
export const TASK_QUEUE = 'offerops';

/** Temporal Schedules the worker keeps in place: id, workflow type, period. */
export const SCHEDULES = [
  { id: 'offerops-retention-sweep', workflowType: 'retentionSweep', every: '5 minutes' },
  { id: 'offerops-outbox-sweep', workflowType: 'outboxSweep', every: '1 minute' },
] as const;
