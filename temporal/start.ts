/**
 * Typed starts of offerops workflows: every workflow the API, the domain or
 * an activity starts goes through here, with its id, task queue and search
 * attributes from ./names.ts, and its arguments checked against the
 * workflow's signature (`OfferopsWorkflows`, ./workflows.ts). A thin wrapper
 * over the client the caller hands in (type-only imports).
 */
import type { Client, ScheduleOptionsStartWorkflowAction } from '@temporalio/client';
import {
  cleanupWorkflowId,
  dispatchWorkflowId,
  monitorRunWorkflowId,
  OfferopsKind,
  offeropsSearchAttributes,
  OfferopsState,
  OfferopsSubject,
  publicationWorkflowId,
  replyWorkflowId,
  runWorkflowId,
  sweepWorkflowId,
  TASK_QUEUE,
} from './names';
import {
  DeliveryInput,
  deliveryStartOptions,
  Environment,
  OfferopsWorkflows,
  OUTBOX_SWEEP,
  PublicationGroup,
  RETENTION_SWEEP,
  WebhookCleanupInput,
} from './workflows';

/** A Temporal client and the task queue offerops workflows go to (TASK_QUEUE unless told: tests use their own). */
export interface TemporalDeps {
  client: Client;
  taskQueue?: string;
  /** The publication workflows' batch size (PublicationInput.batch_groups), when the operator set one. */
  batchGroups?: number;
}

/**
 * Whether `err` is the client's WorkflowExecutionAlreadyStartedError: the SDK
 * names its errors by class, which is what its own `instanceof` checks too.
 */
const alreadyStarted = (err: unknown): boolean => err instanceof Error && err.name === 'WorkflowExecutionAlreadyStartedError';

/** Runs a start; a workflow already started under that id is fine (the id makes a second start a no-op). */
async function once(start: () => Promise<unknown>): Promise<void> {
  try {
    await start();
  } catch (err) {
    if (!alreadyStarted(err)) throw err;
  }
}

/** A title as a one-line quoted summary part: no line breaks, at most 60 characters. */
function quoted(title: string): string {
  const line = title.replace(/\s+/g, ' ').trim();
  return `'${line.length > 60 ? `${line.slice(0, 59)}…` : line}'`;
}

const groupCount = (n: number): string => `${n} ${n === 1 ? 'group' : 'groups'}`;

/** The state a publication or reply workflow starts in, until it ends `sent`, `partial` or `failed`. */
const SENDING = { key: OfferopsState, value: 'sending' };

/**
 * Starts (or finds already started) the workflow `publication-<id>` of a
 * publication; Temporal UI shows it as "Publication pub_… of '<offer title>'
 * to 3 groups" (a free text: "of a text"), its subject column as the title
 * and the group count, its state `sending`. With `groups` (only for a
 * publication just queued, whose request moves it to `sending`), the workflow
 * needs no beginPublication.
 */
export function startPublication(
  t: TemporalDeps,
  p: { _id: string; account_id: string; env: Environment; group_ids: string[] },
  offerTitle: string | null,
  groups?: PublicationGroup[],
): Promise<void> {
  return once(() =>
    t.client.workflow.start<OfferopsWorkflows['publication']>('publication', {
      workflowId: publicationWorkflowId(p._id),
      taskQueue: t.taskQueue ?? TASK_QUEUE,
      args: [
        {
          publication_id: p._id,
          account: p.account_id,
          environment: p.env,
          ...(groups ? { groups } : {}),
          ...(t.batchGroups ? { batch_groups: t.batchGroups } : {}),
        },
      ],
      typedSearchAttributes: [
        ...offeropsSearchAttributes(p.account_id, p.env, p._id, 'publication', `${offerTitle ?? 'a text'} · ${groupCount(p.group_ids.length)}`),
        SENDING,
      ],
      staticSummary: `Publication ${p._id} of ${offerTitle === null ? 'a text' : quoted(offerTitle)} to ${groupCount(p.group_ids.length)}`,
    }),
  );
}

/**
 * Starts (or finds already started) the workflow `reply-<msg>` that delivers
 * an outbound message. Its input and summary carry ids only, never an address.
 */
export function startReply(t: TemporalDeps, m: { _id: string; account_id: string; env: Environment; conversation_id: string }): Promise<void> {
  return once(() =>
    t.client.workflow.start<OfferopsWorkflows['reply']>('reply', {
      workflowId: replyWorkflowId(m._id),
      taskQueue: t.taskQueue ?? TASK_QUEUE,
      args: [{ message_id: m._id, account: m.account_id, environment: m.env }],
      typedSearchAttributes: [...offeropsSearchAttributes(m.account_id, m.env, m._id, 'reply', `reply in ${m.conversation_id}`), SENDING],
      staticSummary: `Reply ${m._id} in conversation ${m.conversation_id}`,
    }),
  );
}

/** Starts the dispatch `event-dispatch-<id>` of a domain event (idempotent). */
export function startDispatch(t: TemporalDeps, event: { id: string; kind: string; account: string; environment: Environment }): Promise<void> {
  return once(() =>
    t.client.workflow.start<OfferopsWorkflows['dispatchEvent']>('dispatchEvent', {
      workflowId: dispatchWorkflowId(event.id),
      taskQueue: t.taskQueue ?? TASK_QUEUE,
      args: [{ event_id: event.id }],
      typedSearchAttributes: offeropsSearchAttributes(event.account, event.environment, event.id, 'event_dispatch', event.kind),
      staticSummary: `Dispatch ${event.kind} ${event.id} to its webhooks and journeys`,
    }),
  );
}

/** Starts `webhook-cleanup-<whk>`, which removes a deleted webhook's delivery executions (idempotent). */
export function startWebhookCleanup(t: TemporalDeps, input: WebhookCleanupInput): Promise<void> {
  return once(() =>
    t.client.workflow.start<OfferopsWorkflows['webhookCleanup']>('webhookCleanup', {
      workflowId: cleanupWorkflowId(input.webhook_id),
      taskQueue: t.taskQueue ?? TASK_QUEUE,
      args: [input],
      typedSearchAttributes: offeropsSearchAttributes(input.account, input.environment, input.webhook_id, 'webhook_cleanup', 'deleted webhook'),
      staticSummary: `Remove the delivery executions of deleted webhook ${input.webhook_id}`,
    }),
  );
}

/** The action of a schedule's Temporal Schedule: start `scheduleRun` (`schedule-run-<sch>-<time>`) with `memo`. */
export function scheduleRunAction(
  t: TemporalDeps,
  s: { _id: string; account_id: string; env: Environment },
  memo: Record<string, unknown>,
): ScheduleOptionsStartWorkflowAction<OfferopsWorkflows['scheduleRun']> {
  return {
    type: 'startWorkflow',
    workflowType: 'scheduleRun',
    workflowId: runWorkflowId(s._id),
    taskQueue: t.taskQueue ?? TASK_QUEUE,
    args: [{ schedule_id: s._id, account: s.account_id, environment: s.env }],
    typedSearchAttributes: offeropsSearchAttributes(s.account_id, s.env, s._id, 'schedule_run'),
    staticSummary: `Run of schedule ${s._id}: queue its publication`,
    memo,
  };
}

/** The action of a monitor's Temporal Schedule: start `monitorRun` (`monitor-run-<mon>-<time>`). */
export function monitorRunAction(
  t: TemporalDeps,
  m: { _id: string; account_id: string; env: Environment; name: string },
): ScheduleOptionsStartWorkflowAction<OfferopsWorkflows['monitorRun']> {
  return {
    type: 'startWorkflow',
    workflowType: 'monitorRun',
    workflowId: monitorRunWorkflowId(m._id),
    taskQueue: t.taskQueue ?? TASK_QUEUE,
    args: [{ monitor_id: m._id, account: m.account_id, environment: m.env }],
    typedSearchAttributes: [
      ...offeropsSearchAttributes(m.account_id, m.env, m._id, 'monitor_run', m.name),
      { key: OfferopsState, value: 'running' },
    ],
    staticSummary: `Run of monitor ${m._id} ${quoted(m.name)}: read its sources`,
  };
}

/**
 * Starts a webhook delivery again under its own id `webhook-delivery-<whk>-<evt>`
 * (allowed once the earlier run closed), so the receiver gets the same
 * `webhook-id` and can tell it is the same message: the panel's "redeliver".
 */
export async function startRedelivery(t: TemporalDeps, input: DeliveryInput): Promise<void> {
  await t.client.workflow.start<OfferopsWorkflows['webhookDelivery']>('webhookDelivery', {
    ...deliveryStartOptions(input, new Date()),
    taskQueue: t.taskQueue ?? TASK_QUEUE,
  });
}

/** The search attributes of a housekeeping workflow: no account, kind `maintenance`. */
const maintenance = (subject: string) => [
  { key: OfferopsKind, value: 'maintenance' },
  { key: OfferopsSubject, value: subject },
];

/**
 * Starts the housekeeping workflows of the task queue that are not running:
 * one execution each under its fixed id, so every worker of the queue calls
 * this at its start and a running one is left as it is.
 */
export async function startMaintenance(t: TemporalDeps): Promise<void> {
  const taskQueue = t.taskQueue ?? TASK_QUEUE;
  await t.client.workflow.start<OfferopsWorkflows['outboxSweep']>('outboxSweep', {
    workflowId: sweepWorkflowId('outbox', taskQueue),
    taskQueue,
    args: [OUTBOX_SWEEP],
    workflowIdConflictPolicy: 'USE_EXISTING',
    typedSearchAttributes: maintenance('outbox sweep'),
    staticSummary: 'Outbox sweep: every minute, finishes what a crashed process left',
  });
  await t.client.workflow.start<OfferopsWorkflows['retentionSweep']>('retentionSweep', {
    workflowId: sweepWorkflowId('retention', taskQueue),
    taskQueue,
    args: [RETENTION_SWEEP],
    workflowIdConflictPolicy: 'USE_EXISTING',
    typedSearchAttributes: maintenance('retention sweep'),
    staticSummary: 'Retention sweep: every 5 minutes, removes expired records',
  });
}
