/**
 * The names offerops gives things in Temporal: the task queue, the workflow
 * ids and the custom search attributes.
 * Pure values (type-only imports), so workflows, activities and the domain
 * all import it.
 */
import type { defineSearchAttributeKey } from '@temporalio/common';

/** The task queue of the offerops worker (OFFEROPS_TASK_QUEUE overrides it). */
export const TASK_QUEUE = 'offerops';

/**
 * `outboxSweep` and `retentionSweep`: one long-lived execution each per task
 * queue (it continues as new now and then), started by the worker when
 * missing; `offerops-outbox-sweep` on the default queue.
 */
export const sweepWorkflowId = (sweep: 'outbox' | 'retention', taskQueue: string): string =>
  `offerops-${sweep}-sweep${taskQueue === TASK_QUEUE ? '' : `-${taskQueue}`}`;

/** The Temporal Schedules that ran the sweeps in earlier releases: the worker deletes them where they remain. */
export const RETIRED_SCHEDULES = ['offerops-outbox-sweep', 'offerops-retention-sweep'] as const;

// --- workflow ids ---------------------------------------------------------------

/** `publication`: sends one publication. */
export const publicationWorkflowId = (publicationId: string): string => `publication-${publicationId}`;
/** `pacedDeliveries`: batch `batch` (from 1) of a large publication's one-by-one sends, a child of its `publication`. */
export const pacedDeliveriesWorkflowId = (publicationId: string, batch: number): string => `publication-${publicationId}-batch-${batch}`;
/** `dispatchEvent`: hands one domain event to its webhooks. */
export const dispatchWorkflowId = (eventId: string): string => `event-dispatch-${eventId}`;
/** `webhookDelivery`: one per (event, webhook), so an event never goes out twice under the same `webhook-id`. */
export const deliveryWorkflowId = (webhookId: string, eventId: string): string => `webhook-delivery-${webhookId}-${eventId}`;
/** `webhookCleanup`: removes a deleted webhook's delivery executions. */
export const cleanupWorkflowId = (webhookId: string): string => `webhook-cleanup-${webhookId}`;
/** `journeyExecution`: one per (journey, event), so a redelivered event starts nothing new. */
export const journeyExecutionWorkflowId = (journeyId: string, eventId: string): string => `journey-${journeyId}-${eventId}`;
/** `reply`: delivers one outbound message of a conversation. */
export const replyWorkflowId = (messageId: string): string => `reply-${messageId}`;
/** The Temporal Schedule of a schedule record. */
export const temporalScheduleId = (scheduleId: string): string => `schedule-${scheduleId}`;
/** `scheduleRun`: Temporal appends the scheduled time (`…-2030-01-01T12:00:00Z`). */
export const runWorkflowId = (scheduleId: string): string => `schedule-run-${scheduleId}`;
/** The Temporal Schedule of a monitor. */
export const monitorScheduleId = (monitorId: string): string => `monitor-${monitorId}`;
/** `monitorRun`: Temporal appends the scheduled time (`monitor-run-mon_…-2030-01-01T12:00:00Z`). */
export const monitorRunWorkflowId = (monitorId: string): string => `monitor-run-${monitorId}`;

// --- search attributes ------------------------------------------------------------

/** A Keyword search attribute: what `defineSearchAttributeKey(name, 'KEYWORD')` returns, written out. */
const keyword = (name: string): ReturnType<typeof defineSearchAttributeKey<'KEYWORD'>> => ({ name, type: 'KEYWORD' });

/*
 * Registered on the namespace at start-up (tools/stack/temporal-setup.ts);
 * workflows set them with `typedSearchAttributes` and `upsertSearchAttributes`.
 */
export const OfferopsAccountId = keyword('OfferopsAccountId');
/** `live` or `test`. */
export const OfferopsEnvironment = keyword('OfferopsEnvironment');
export const OfferopsResourceId = keyword('OfferopsResourceId');
/** What the workflow is about, e.g. `publication` or `webhook_delivery`. */
export const OfferopsKind = keyword('OfferopsKind');
/** Where the workflow's subject stands, e.g. a publication's `sending`, `sent`, `partial` or `failed`. */
export const OfferopsState = keyword('OfferopsState');
/** What the workflow is about, for a list column: the offer's title, the journey's or monitor's name, the event kind. */
export const OfferopsSubject = keyword('OfferopsSubject');
/** The domain event kind a workflow is about (webhook deliveries), e.g. `offer.created`. */
export const OfferopsEventKind = keyword('OfferopsEventKind');

/** The block a journey execution is at (the last one it was at, once closed). */
export const OfferopsStep = keyword('OfferopsStep');
/** The conversation a workflow acts on (journey executions): how a reply finds the executions waiting for it. */
export const OfferopsConversationId = keyword('OfferopsConversationId');

export const OFFEROPS_SEARCH_ATTRIBUTES = [
  OfferopsAccountId,
  OfferopsEnvironment,
  OfferopsResourceId,
  OfferopsKind,
  OfferopsState,
  OfferopsEventKind,
  OfferopsStep,
  OfferopsConversationId,
  OfferopsSubject,
] as const;

/** The `OfferopsKind` of each kind of workflow. */
export type WorkflowKind =
  | 'publication'
  | 'paced_deliveries'
  | 'reply'
  | 'event_dispatch'
  | 'webhook_delivery'
  | 'webhook_cleanup'
  | 'schedule'
  | 'schedule_run'
  | 'journey_execution'
  | 'monitor'
  | 'monitor_run'
  | 'maintenance';

/** A subject as the list column shows it: one line, at most 80 characters. */
export function subjectLine(subject: string): string {
  const line = subject.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/**
 * The typed search attributes of an offerops workflow: whose it is, what it
 * is about, and (`subject`) what an operator reads of it in the list.
 */
export const offeropsSearchAttributes = (account: string, environment: string, resourceId: string, kind: WorkflowKind, subject?: string) => [
  { key: OfferopsAccountId, value: account },
  { key: OfferopsEnvironment, value: environment },
  { key: OfferopsResourceId, value: resourceId },
  { key: OfferopsKind, value: kind },
  ...(subject ? [{ key: OfferopsSubject, value: subjectLine(subject) }] : []),
];
