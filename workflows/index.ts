/** Every workflow type the offerops worker runs. Deterministic code only. */
export { dispatchEvent, outboxSweep } from './events';
export { journeyExecution } from './journey';
export { monitorRun } from './monitors';
export { publication } from './publication';
export { retentionSweep } from './retention';
export { scheduleRun } from './schedules';
export { webhookCleanup, webhookDelivery } from './webhooks';
export { reply } from './replies';
