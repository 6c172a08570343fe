/**
 * The Temporal vocabulary of offerops, in one place: the task queue, the
 * housekeeping Schedules, the workflow ids, the custom search attributes and
 * how a webhook delivery is named and tagged at its start.
 *
 * Workflow-safe: it imports only `@temporalio/common` and does no I/O, so the
 * workflows import it too (the one file of `domain/` they may import; see
 * the import rules in docs/architecture/overview.md). Typed start helpers are in ./start.ts.
 */
import { defineSearchAttributeKey, SearchAttributeType, WorkflowIdReusePolicy } from '@temporalio/common';

/** The task queue of the offerops worker (OFFEROPS_TASK_QUEUE overrides it). */
export const TASK_QUEUE = 'offerops';

/** Temporal Schedules the worker keeps in place: id, workflow type, period. */
export const HOUSEKEEPING_SCHEDULES = [
  { id: 'offerops-retention-sweep', workflowType: 'retentionSweep', every: '5 minutes' },
  { id: 'offerops-outbox-sweep', workflowType: 'outboxSweep', every: '1 minute' },
] as const;

// --- workflow ids ---------------------------------------------------------------

/** `publication`: sends one publication. */
export const publicationWorkflowId = (publicationId: string): string => `publication-${publicationId}`;
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

/*
 * Registered on the namespace at start-up (tools/stack/temporal-setup.ts);
 * workflows set them with `typedSearchAttributes` and `upsertSearchAttributes`.
 */
export const OfferopsAccountId = defineSearchAttributeKey('OfferopsAccountId', SearchAttributeType.KEYWORD);
/** `live` or `test`. */
export const OfferopsEnvironment = defineSearchAttributeKey('OfferopsEnvironment', SearchAttributeType.KEYWORD);
export const OfferopsResourceId = defineSearchAttributeKey('OfferopsResourceId', SearchAttributeType.KEYWORD);
/** What the workflow is about, e.g. `publication` or `webhook_delivery`. */
export const OfferopsKind = defineSearchAttributeKey('OfferopsKind', SearchAttributeType.KEYWORD);
/** Where the workflow's subject stands, e.g. a webhook delivery's `pending`, `retrying`, `succeeded` or `failed`. */
export const OfferopsState = defineSearchAttributeKey('OfferopsState', SearchAttributeType.KEYWORD);
/** The domain event kind a workflow is about (webhook deliveries), e.g. `offer.created`. */
export const OfferopsEventKind = defineSearchAttributeKey('OfferopsEventKind', SearchAttributeType.KEYWORD);

/** The block a journey execution is at (the last one it was at, once closed). */
export const OfferopsStep = defineSearchAttributeKey('OfferopsStep', SearchAttributeType.KEYWORD);
/** The conversation a workflow acts on (journey executions): how a reply finds the executions waiting for it. */
export const OfferopsConversationId = defineSearchAttributeKey('OfferopsConversationId', SearchAttributeType.KEYWORD);

export const OFFEROPS_SEARCH_ATTRIBUTES = [
  OfferopsAccountId,
  OfferopsEnvironment,
  OfferopsResourceId,
  OfferopsKind,
  OfferopsState,
  OfferopsEventKind,
  OfferopsStep,
  OfferopsConversationId,
] as const;

/** The `OfferopsKind` of each kind of workflow. */
export type WorkflowKind =
  | 'publication'
  | 'reply'
  | 'event_dispatch'
  | 'webhook_delivery'
  | 'webhook_cleanup'
  | 'schedule'
  | 'schedule_run'
  | 'journey_execution'
  | 'monitor'
  | 'monitor_run';

/** The typed search attributes of an offerops workflow: whose it is and what it is about. */
export const offeropsSearchAttributes = (account: string, environment: string, resourceId: string, kind: WorkflowKind) => [
  { key: OfferopsAccountId, value: account },
  { key: OfferopsEnvironment, value: environment },
  { key: OfferopsResourceId, value: resourceId },
  { key: OfferopsKind, value: kind },
];

// --- webhook deliveries -----------------------------------------------------------

export type DeliveryState = 'pending' | 'retrying' | 'succeeded' | 'failed';

export interface DeliveryAttempt {
  attempt: number;
  at: string;
  http_status: number | null;
  duration_ms: number;
  error: string | null;
}

/** The memo key `delivery`: what GET /webhooks/{id}/deliveries shows of one delivery. */
export interface DeliveryMemo {
  webhook_id: string;
  event_id: string;
  event_kind: string;
  state: DeliveryState;
  attempts: DeliveryAttempt[];
  next_attempt_at: string | null;
  updated_at: string;
}

export interface DeliveryInput {
  webhook_id: string;
  event_id: string;
  account: string;
  environment: 'live' | 'test';
  /** The event's kind. */
  event_kind: string;
  /** The retry schedule (tests shorten it); the Standard Webhooks schedule by default. */
  delays_ms?: number[];
  /** The host of the webhook's URL when the event was dispatched (or redelivered), for summaries in Temporal UI. */
  host: string;
}

/** Start options of the delivery of `input`: its id, search attributes and first memo (pending, due now). */
export function deliveryStartOptions(input: DeliveryInput, now: Date) {
  const memo: DeliveryMemo = {
    webhook_id: input.webhook_id,
    event_id: input.event_id,
    event_kind: input.event_kind,
    state: 'pending',
    attempts: [],
    next_attempt_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  return {
    workflowId: deliveryWorkflowId(input.webhook_id, input.event_id),
    args: [input] as [DeliveryInput],
    typedSearchAttributes: [
      ...offeropsSearchAttributes(input.account, input.environment, input.webhook_id, 'webhook_delivery'),
      { key: OfferopsState, value: memo.state },
      { key: OfferopsEventKind, value: input.event_kind },
    ],
    memo: { delivery: memo },
    staticSummary: `Deliver ${input.event_kind} ${input.event_id} to webhook ${input.webhook_id} at ${input.host}`,
  };
}

// --- journey executions -----------------------------------------------------------

/** A block of a journey as the execution walks it (the contract's JourneyBlockInput, loosely typed for workflow code). */
export interface ExecutionBlock {
  id: string;
  type: string;
  config: Record<string, unknown>;
  next?: string[];
}

/** Where a journey execution stands (`OfferopsState`): running, or how it ended by itself. */
export type ExecutionState = 'running' | 'completed' | 'failed';

/** The input of `journeyExecution`: the definition travels with it, so an edit of the journey never changes a running execution. */
export interface JourneyExecutionInput {
  journey_id: string;
  /** The journey's version when the execution started. */
  version: number;
  account: string;
  environment: 'live' | 'test';
  event: { id: string; kind: string; data: Record<string, unknown> };
  /** The conversation and contact the event is about, when any. */
  conversation_id: string | null;
  contact_id: string | null;
  blocks: ExecutionBlock[];
}

/** The memo key `execution`: what GET /journeys/{id}/executions shows besides visibility's own fields. */
export interface ExecutionMemo {
  event_id: string;
  event_kind: string;
  conversation_id: string | null;
  version: number;
  error: string | null;
}

/** The signal the inbound path sends to the executions of a conversation when its contact writes. */
export const JOURNEY_REPLY_SIGNAL = 'journeyReply';

/** Start options of the execution of `input`: its id, search attributes (running, at the trigger) and memo. */
export function executionStartOptions(input: JourneyExecutionInput, journeyName: string) {
  const entry = input.blocks.find((b) => b.type === 'trigger');
  const memo: ExecutionMemo = {
    event_id: input.event.id,
    event_kind: input.event.kind,
    conversation_id: input.conversation_id,
    version: input.version,
    error: null,
  };
  const name = journeyName.replace(/\s+/g, ' ').trim().slice(0, 60);
  return {
    workflowId: journeyExecutionWorkflowId(input.journey_id, input.event.id),
    // Not even after it closed: a redelivered event starts nothing new.
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    args: [input] as [JourneyExecutionInput],
    typedSearchAttributes: [
      ...offeropsSearchAttributes(input.account, input.environment, input.journey_id, 'journey_execution'),
      { key: OfferopsState, value: 'running' satisfies ExecutionState },
      { key: OfferopsEventKind, value: input.event.kind },
      { key: OfferopsStep, value: entry?.id ?? '' },
      ...(input.conversation_id ? [{ key: OfferopsConversationId, value: input.conversation_id }] : []),
    ],
    memo: { execution: memo },
    staticSummary: `Journey ${input.journey_id} '${name}' v${input.version} on ${input.event.kind} ${input.event.id}`,
  };
}
