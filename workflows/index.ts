/** Every workflow type the offerops worker runs. Deterministic code only. */
import type { OfferopsWorkflows } from '../temporal/workflows';
import { dispatchEvent } from './events';
import { journeyExecution } from './journey';
import { outboxSweep, retentionSweep } from './maintenance';
import { monitorRun } from './monitors';
import { pacedDeliveries, publication } from './publication';
import { reply } from './replies';
import { scheduleRun } from './schedules';
import { webhookCleanup, webhookDelivery } from './webhooks';

export {
  dispatchEvent,
  journeyExecution,
  monitorRun,
  outboxSweep,
  pacedDeliveries,
  publication,
  reply,
  retentionSweep,
  scheduleRun,
  webhookCleanup,
  webhookDelivery,
};

/** A compile-time check: every workflow has the signature its typed starts assume (temporal/workflows.ts). */
type Implements<T extends OfferopsWorkflows> = T;
export type Workflows = Implements<{
  dispatchEvent: typeof dispatchEvent;
  journeyExecution: typeof journeyExecution;
  monitorRun: typeof monitorRun;
  outboxSweep: typeof outboxSweep;
  pacedDeliveries: typeof pacedDeliveries;
  publication: typeof publication;
  reply: typeof reply;
  retentionSweep: typeof retentionSweep;
  scheduleRun: typeof scheduleRun;
  webhookCleanup: typeof webhookCleanup;
  webhookDelivery: typeof webhookDelivery;
}>;
