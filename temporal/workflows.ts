/**
 * What each offerops workflow takes and returns, the memos and signal it
 * shares with the API, and the start options of the workflows that are also
 * started as children. `OfferopsWorkflows` is the signature of every workflow
 * type: the typed starts (./start.ts) are checked against it, and so is the
 * workflow code (workflows/index.ts).
 */
import type { WorkflowIdReusePolicy } from '@temporalio/common';
import type { Schema } from '../schemas/types';
import {
  deliveryWorkflowId,
  pacedDeliveriesWorkflowId,
  journeyExecutionWorkflowId,
  OfferopsConversationId,
  OfferopsEventKind,
  offeropsSearchAttributes,
  OfferopsState,
  OfferopsStep,
} from './names';

export type Environment = 'live' | 'test';

// --- publication ------------------------------------------------------------------

/**
 * A group a publication sends to, as its workflow needs it: its name for the
 * summaries (null when the group was deleted) and whether its sends are paced
 * (the group's or its channel's interval, live data only; the workflow
 * reserves no slot for an unpaced group, and sends unpaced ones in chunks).
 */
export interface PublicationGroup {
  group_id: string;
  name: string | null;
  paced: boolean;
  /**
   * Its channel cannot deduplicate a repeated send (Telegram, the WhatsApp
   * gateways): sent on its own even unpaced, so that a chunk lost with its
   * worker never sends it again once it went.
   */
  alone?: true;
}

export interface PublicationInput {
  publication_id: string;
  account: string;
  environment: Environment;
  /**
   * The groups to send to, as the request that queued the publication found
   * them (it moved the publication to `sending`): no beginPublication. Absent
   * when the workflow begins on its own: a repeated request, the sweep of
   * queued publications, a fan-out too large for the input. Never passed on
   * to an activity.
   */
  groups?: PublicationGroup[];
  /**
   * The most groups the workflow sends one by one itself; more go in child
   * batches of at most as many (OFFEROPS_PUBLICATION_BATCH_GROUPS; absent:
   * the workflow's default, 500). Never passed on to an activity.
   */
  batch_groups?: number;
}

/** The failure type of a publication workflow that reached no group: Temporal UI shows it Failed, with the reason. */
export const PUBLICATION_FAILED = 'PublicationFailed';

/**
 * One batch of a large publication's groups sent one by one (paced, or whose
 * channel cannot deduplicate), in a child workflow of its own so that no
 * history grows with the publication (decision 24).
 */
export interface PacedDeliveriesInput {
  publication_id: string;
  account: string;
  environment: Environment;
  /** Its number among the publication's batches, from 1: part of its workflow id. */
  batch: number;
  /** How many batches the publication has, for its summary. */
  batches: number;
  groups: PublicationGroup[];
}

/** What the publication needs of a batch: how many of its groups failed, and why the first few did. */
export interface PacedDeliveriesResult {
  failed: number;
  /** "Grupo 1 (grp_…): <the recorded error>" of its first FAILURES_KEPT failures. */
  failures: string[];
}

/** The failure texts a batch returns (and a publication's failure shows): a few say why, the count says how many. */
export const FAILURES_KEPT = 3;

/**
 * Start options of a batch as its publication starts it (a child): its id,
 * derived from the publication's and its number, so that a start made again
 * finds the batch already started; search attributes and a summary naming it.
 */
export function pacedDeliveriesStartOptions(input: PacedDeliveriesInput, groupsLabel: string) {
  const what = `batch ${input.batch} of ${input.batches} of publication ${input.publication_id}`;
  return {
    workflowId: pacedDeliveriesWorkflowId(input.publication_id, input.batch),
    args: [input] as [PacedDeliveriesInput],
    typedSearchAttributes: offeropsSearchAttributes(
      input.account,
      input.environment,
      input.publication_id,
      'paced_deliveries',
      `batch ${input.batch}/${input.batches} · ${groupsLabel}`,
    ),
    staticSummary: `Sends of ${what}, one by one: ${groupsLabel}`,
  };
}

// --- reply ------------------------------------------------------------------------

/** Ids only: the address a reply goes to is unsealed by the send activity, never carried here. */
export interface ReplyInput {
  message_id: string;
  account: string;
  environment: Environment;
}

/** The failure type of a reply workflow whose message the channel did not take. */
export const REPLY_FAILED = 'ReplyFailed';

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
  environment: Environment;
  /** The event's kind. */
  event_kind: string;
  /** The retry schedule (tests shorten it); the Standard Webhooks schedule by default. */
  delays_ms?: number[];
  /** The host of the webhook's URL when the event was dispatched (or redelivered), for summaries in Temporal UI. */
  host: string;
  /** A redelivery's: the attempts of the runs before it (the last EARLIER_ATTEMPTS_KEPT), listed before its own. */
  earlier_attempts?: DeliveryAttempt[];
}

/** The most attempts of earlier runs a redelivery carries (its memo stays small whatever the number of redeliveries). */
export const EARLIER_ATTEMPTS_KEPT = 40;

export interface WebhookCleanupInput {
  webhook_id: string;
  account: string;
  environment: Environment;
}

/** Start options of the delivery of `input`: its id, search attributes and first memo (pending, due now). */
export function deliveryStartOptions(input: DeliveryInput, now: Date) {
  const memo: DeliveryMemo = {
    webhook_id: input.webhook_id,
    event_id: input.event_id,
    event_kind: input.event_kind,
    state: 'pending',
    attempts: input.earlier_attempts ?? [],
    next_attempt_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  return {
    workflowId: deliveryWorkflowId(input.webhook_id, input.event_id),
    args: [input] as [DeliveryInput],
    typedSearchAttributes: [
      ...offeropsSearchAttributes(input.account, input.environment, input.webhook_id, 'webhook_delivery', `${input.event_kind} → ${input.host}`),
      { key: OfferopsState, value: memo.state },
      { key: OfferopsEventKind, value: input.event_kind },
    ],
    memo: { delivery: memo },
    staticSummary: `Deliver ${input.event_kind} ${input.event_id} to webhook ${input.webhook_id} at ${input.host}`,
  };
}

// --- schedules and monitors -------------------------------------------------------

export interface ScheduleRunInput {
  schedule_id: string;
  account: string;
  environment: Environment;
}

/** What a run queued: nulls when it queued nothing because its Temporal Schedule was out of date or orphaned. */
export interface ScheduleRunResult {
  publication_id: string | null;
  event_id: string | null;
}

export interface MonitorRunInput {
  monitor_id: string;
  account: string;
  environment: Environment;
}

/** What the read of one source of a monitor run found (the run's result lists one per source). */
export interface SourceResult {
  name: string;
  type: Schema<'MonitorSource'>['type'];
  seen: number;
  matched: number;
  created: number;
  published: number;
  error: string | null;
}

/** The result of a source before it was read (`error`: why it never will be). */
export const emptyResult = (source: { name: string; type: SourceResult['type'] }, error: string | null = null): SourceResult => ({
  name: source.name,
  type: source.type,
  seen: 0,
  matched: 0,
  created: 0,
  published: 0,
  error,
});

/** Where a monitor run stands (`OfferopsState`): `running`; `skipped` (paused or deleted), `succeeded`, `partial` (some sources failed) or `failed` (all did). */
export type MonitorRunState = 'running' | 'skipped' | 'succeeded' | 'partial' | 'failed';

export interface MonitorRunOutcome {
  event_id: string | null;
  seen: number;
  matched: number;
  created: number;
  published: number;
  errors: number;
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
  environment: Environment;
  event: { id: string; kind: string; data: Record<string, unknown> };
  /** The conversation and contact the event is about, when any. */
  conversation_id: string | null;
  contact_id: string | null;
  blocks: ExecutionBlock[];
}

export interface ExecutionResult {
  state: ExecutionState;
  last_block: string;
  error: string | null;
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

/** An execution's id is never used again, not even after it closed: a redelivered event starts nothing new. */
const REJECT_DUPLICATE: WorkflowIdReusePolicy = 'REJECT_DUPLICATE';

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
    workflowIdReusePolicy: REJECT_DUPLICATE,
    args: [input] as [JourneyExecutionInput],
    typedSearchAttributes: [
      ...offeropsSearchAttributes(input.account, input.environment, input.journey_id, 'journey_execution', `${name} · ${input.event.kind}`),
      { key: OfferopsState, value: 'running' satisfies ExecutionState },
      { key: OfferopsEventKind, value: input.event.kind },
      { key: OfferopsStep, value: entry?.id ?? '' },
      ...(input.conversation_id ? [{ key: OfferopsConversationId, value: input.conversation_id }] : []),
    ],
    memo: { execution: memo },
    staticSummary: `Journey ${input.journey_id} '${name}' v${input.version} on ${input.event.kind} ${input.event.id}`,
  };
}

// --- maintenance ------------------------------------------------------------------

/** The input of a housekeeping workflow: the pause between two sweeps, and how many sweeps a run makes before it continues as new. */
export interface SweepInput {
  every_ms: number;
  sweeps: number;
}

/** The outbox sweep: every minute, a run per 6 hours (the crash guarantees: docs/architecture/decisions/0004-outbox-and-sweep.md). */
export const OUTBOX_SWEEP: SweepInput = { every_ms: 60_000, sweeps: 360 };
/** The retention sweep: every 5 minutes, a run per day. */
export const RETENTION_SWEEP: SweepInput = { every_ms: 300_000, sweeps: 288 };

// --- every workflow type ----------------------------------------------------------

/** The signature of each workflow type the worker runs, by its name. */
export interface OfferopsWorkflows {
  /** `sent` or `partial`; a publication that reached no group fails (PUBLICATION_FAILED). */
  publication: (input: PublicationInput) => Promise<{ status: 'sent' | 'partial' }>;
  /** A batch of a large publication's one-by-one sends, a child of the publication; its failures recorded by itself. */
  pacedDeliveries: (input: PacedDeliveriesInput) => Promise<PacedDeliveriesResult>;
  /** A reply the channel did not take fails (REPLY_FAILED). */
  reply: (input: ReplyInput) => Promise<{ status: 'sent' }>;
  dispatchEvent: (input: { event_id: string }) => Promise<void>;
  outboxSweep: (input: SweepInput) => Promise<never>;
  webhookDelivery: (input: DeliveryInput) => Promise<{ state: DeliveryState; attempts: number }>;
  webhookCleanup: (input: WebhookCleanupInput) => Promise<{ passes: number }>;
  scheduleRun: (input: ScheduleRunInput) => Promise<ScheduleRunResult>;
  monitorRun: (input: MonitorRunInput) => Promise<MonitorRunOutcome>;
  journeyExecution: (input: JourneyExecutionInput) => Promise<ExecutionResult>;
  retentionSweep: (input: SweepInput) => Promise<never>;
}
