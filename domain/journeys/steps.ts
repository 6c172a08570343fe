/**
 * Journeys at run time: which executions an event starts (and which running
 * ones its message answers), and what each block does, one workflow step
 * each. Every step may run again (a retry, a worker lost): setting an
 * assignee, tags or a stage again changes nothing; the counters of
 * recordProgress (./store.ts) may count such a repeat twice. A block that cannot do what it
 * says fails for good (PermanentFailure `JourneyBlockRefused`).
 */
import { request } from 'node:https';
import { LookupFunction } from 'node:net';
import { Client } from '@temporalio/client';
import { Tenant } from '../db';
import { networkCause } from '../network-cause';
import { DomainError, PermanentFailure } from '../errors';
import { eventById } from '../events/store';
import { queueReply } from '../inbox/replies';
import { closeConversation, toContact, toConversation, updateConversation } from '../inbox/service';
import { contacts, ContactStage, conversations } from '../inbox/store';
import { PublishingDeps, queuePublication } from '../publications/queue';
import { DomainDeps } from '../resource';
import { checkDestination, DestinationError, pinnedLookup, ResolvedAddress } from '../webhooks/destinations';
import { JourneyExecutionInput } from '../../temporal/workflows';
import { Condition, holds, subjectOf } from './conditions';
import { journeysConcerned } from './store';

/** Who an execution acts for and on. */
export interface ExecutionRef {
  journey_id: string;
  conversation_id: string | null;
  contact_id: string | null;
}

/** The answer of an `http` block, for the conditions after it (`http.<block>.status`, `http.<block>.body.…`). */
export interface HttpAnswer {
  /** The HTTP status; 0 when there was no answer (refused destination, time-out, connection error). */
  status: number;
  /** The JSON body (at most BODY_MAX bytes; null when larger, empty or not JSON). */
  body: unknown;
  error: string | null;
}

export interface JourneyTargets {
  /** Executions to start: their input and the journey's name (for the summary). */
  starts: { input: JourneyExecutionInput; name: string }[];
  /** Running executions of the message's conversation, to signal that the contact wrote. */
  waiting: string[];
  message_id: string | null;
}

const BODY_MAX = 16 * 1024;
const DEFAULT_TIMEOUT_MS = 10_000;
const WAITING_PAGE = 100;

/** `holder[field]` when it is a non-empty string (ids an event's data carries). */
function idIn(holder: unknown, field: string): string | null {
  const value = typeof holder === 'object' && holder !== null ? (holder as Record<string, unknown>)[field] : undefined;
  return typeof value === 'string' && value ? value : null;
}

/** The failure of a block the tenant reads (no retry: the same input fails the same way). */
const refused = (message: string) => new PermanentFailure(message, 'JourneyBlockRefused');

/** `work()`, a refusal of the domain (a 4xx of the API) failing the block for good. */
async function asBlock<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof DomainError) throw refused(err.message);
    throw err;
  }
}

function needConversation(ref: ExecutionRef): string {
  if (!ref.conversation_id) throw refused('the triggering event names no conversation');
  return ref.conversation_id;
}

/**
 * For the dispatch of an event: the active journeys it triggers whose
 * filter holds (each execution carries the journey's definition and
 * version), and for an inbound message the running executions of its
 * conversation (found through visibility's `OfferopsConversationId`).
 */
export async function journeyTargets(deps: { db: DomainDeps['db']; client: Client }, eventId: string): Promise<JourneyTargets> {
  const event = await eventById(deps.db, eventId);
  if (!event) return { starts: [], waiting: [], message_id: null };
  const tenant: Tenant = { accountId: event.account, env: event.environment };
  const { triggered, mayWaitForReply } = await journeysConcerned(deps.db, tenant, event.kind);
  const subject = subjectOf(event.data);
  const scope = { event: { id: event.id, kind: event.kind, occurred_at: event.occurred_at, data: event.data } };
  // A journey limited to some channels runs only on conversations of those networks.
  const limited = triggered.some((j) => j.channels !== null);
  const conversation = limited && subject.conversation_id ? await conversations(deps.db, tenant).findById(subject.conversation_id) : null;
  const onChannel = (channels: string[] | null) => channels === null || (conversation !== null && channels.includes(conversation.channel));
  const starts = triggered
    .filter((j) => onChannel(j.channels) && j.filter.every((c) => holds(c, scope)))
    .map((j) => ({
      name: j.name,
      input: {
        journey_id: j._id,
        version: j.version ?? 1,
        account: event.account,
        environment: event.environment,
        event: { id: event.id, kind: event.kind, data: event.data },
        ...subject,
        blocks: j.blocks,
      },
    }));
  const message = event.data.message as { id?: string; direction?: string } | undefined;
  const waiting: string[] = [];
  if (mayWaitForReply && subject.conversation_id && message?.direction === 'inbound') {
    const query = [
      `OfferopsKind = 'journey_execution'`,
      `OfferopsAccountId = '${event.account}'`,
      `OfferopsEnvironment = '${event.environment}'`,
      `OfferopsConversationId = '${subject.conversation_id}'`,
      `ExecutionStatus = 'Running'`,
    ];
    if (!/^cnv_[0-9a-z]+$/.test(subject.conversation_id)) throw new Error('unsafe conversation id');
    for await (const e of deps.client.workflow.list({ query: query.join(' AND '), pageSize: WAITING_PAGE })) {
      waiting.push(e.workflowId);
      if (waiting.length >= WAITING_PAGE) break;
    }
  }
  return { starts, waiting, message_id: message?.id ?? null };
}

/** Whether a condition block's test holds, on the event, the contact and conversation as they are now, and the http answers so far. */
export async function conditionHolds(
  deps: DomainDeps,
  tenant: Tenant,
  ref: ExecutionRef,
  scope: { event: JourneyExecutionInput['event']; http: Record<string, HttpAnswer> },
  condition: Record<string, unknown>,
): Promise<boolean> {
  const field = String(condition.field);
  const full: Record<string, unknown> = { ...scope };
  if (field.startsWith('contact.') && ref.contact_id) {
    const contact = await contacts(deps.db, tenant).findById(ref.contact_id);
    full.contact = contact ? toContact(contact) : null;
  }
  if (field.startsWith('conversation.') && ref.conversation_id) {
    const conversation = await conversations(deps.db, tenant).findById(ref.conversation_id);
    full.conversation = conversation ? toConversation(conversation) : null;
  }
  return holds(condition as unknown as Condition, full);
}

/** An assign block: assignee, priority, DU mode of the conversation (its `conversation.updated` event when anything changed). */
export async function assignBlock(deps: DomainDeps, tenant: Tenant, ref: ExecutionRef, config: Record<string, unknown>): Promise<void> {
  const id = needConversation(ref);
  await asBlock(() => updateConversation(deps, tenant, id, config));
}

/** A tag block: tags added and removed on the conversation (when any) and the contact, the contact's stage. */
export async function tagBlock(
  deps: DomainDeps,
  tenant: Tenant,
  ref: ExecutionRef,
  config: { add?: string[]; remove?: string[]; stage?: ContactStage },
): Promise<void> {
  const { add = [], remove = [], stage } = config;
  const retag = (tags: string[]) => [...new Set([...tags.filter((t) => !remove.includes(t)), ...add])];
  if (ref.conversation_id && (add.length || remove.length)) {
    const conversation = await conversations(deps.db, tenant).findById(ref.conversation_id);
    if (conversation) await updateConversation(deps, tenant, conversation._id, { tags: retag(conversation.tags) });
  }
  if (!ref.contact_id) return;
  for (let attempt = 0; attempt < 5; attempt++) {
    const contact = await contacts(deps.db, tenant).findById(ref.contact_id);
    if (!contact) return;
    const tags = retag(contact.tags);
    const set = {
      ...(tags.join('\n') !== contact.tags.join('\n') ? { tags } : {}),
      ...(stage && stage !== contact.stage ? { stage } : {}),
    };
    if (!Object.keys(set).length || (await contacts(deps.db, tenant).updateFrom(contact, set))) return;
  }
  throw new Error('the contact kept changing; the tag block will be retried');
}

/** One request to the checked addresses only; the status and the JSON body, or why there was no answer. */
function call(url: string, pinned: LookupFunction, method: string, body: string | null, timeoutMs: number, ca?: string) {
  return new Promise<HttpAnswer>((resolve) => {
    const headers: Record<string, string | number> = { accept: 'application/json' };
    if (body !== null) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    const req = request(url, { method, headers, lookup: pinned, agent: false, ...(ca ? { ca } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= BODY_MAX) chunks.push(chunk);
      });
      res.on('error', () => undefined);
      res.on('end', () => {
        clearTimeout(timer);
        let parsed: unknown = null;
        if (size && size <= BODY_MAX) {
          try {
            parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            parsed = null;
          }
        }
        resolve({ status: res.statusCode ?? 0, body: parsed, error: null });
      });
    });
    const timer = setTimeout(() => req.destroy(new Error('timeout')), timeoutMs);
    req.on('error', (err) => {
      clearTimeout(timer);
      const why = err.message === 'timeout' ? `no answer within ${timeoutMs / 1000} s` : `could not be reached: ${networkCause(err)}`;
      resolve({ status: 0, body: null, error: why });
    });
    req.end(body ?? undefined);
  });
}

/** An http block: one call to an HTTPS URL the webhook destination rules allow; its status and JSON body, or why there was none. */
export async function httpBlock(
  opts: { allow: readonly string[]; ca?: string | undefined },
  event: JourneyExecutionInput['event'],
  config: Record<string, unknown>,
): Promise<HttpAnswer> {
  const url = String(config.url);
  const method = config.method === 'GET' ? 'GET' : 'POST';
  const timeoutMs = typeof config.timeout_ms === 'number' ? config.timeout_ms : DEFAULT_TIMEOUT_MS;
  let addresses: ResolvedAddress[];
  try {
    addresses = await checkDestination(url, opts.allow);
  } catch (err) {
    if (err instanceof DestinationError) return { status: 0, body: null, error: `destination refused: ${err.message}` };
    throw err;
  }
  const body = method === 'POST' ? JSON.stringify(config.body ?? event) : null;
  return call(url, pinnedLookup(addresses, opts.allow), method, body, timeoutMs, opts.ca);
}

/**
 * A publish block: a publication through the publish path (the offer the
 * event names, or the block's text, to a group or segment), as
 * POST /offers/{id}/publish makes one; its id. `key` (the step's) makes a
 * retried step find the publication its first try queued.
 */
export async function publishBlock(
  deps: PublishingDeps,
  tenant: Tenant,
  event: JourneyExecutionInput['event'],
  c: Record<string, unknown>,
  key: string,
): Promise<string> {
  const data = event.data;
  const text = typeof c.text === 'string' ? c.text : null;
  const offerId = text === null ? (idIn(data.offer, 'id') ?? idIn(data, 'offer_id')) : null;
  if (text === null && offerId === null) throw refused(`the triggering ${event.kind} event names no offer: give the block a text`);
  const groupId =
    c.event_group === true ? (idIn(data, 'group_id') ?? idIn(data.group, 'id')) : typeof c.group_id === 'string' ? c.group_id : null;
  if (c.event_group === true && groupId === null) throw refused(`the triggering ${event.kind} event names no group`);
  const { publication } = await asBlock(() =>
    queuePublication(deps, tenant, {
      offer_id: offerId,
      text,
      template_id: typeof c.template_id === 'string' ? c.template_id : null,
      group_id: groupId,
      segment_id: typeof c.segment_id === 'string' ? c.segment_id : null,
      with_image: c.with_image !== false,
      schedule_id: null,
      idempotency_key: `journey:${key}`,
    }),
  );
  return publication._id;
}

/** An end block that closes the conversation (already closed: nothing to do). */
export async function closeBlock(deps: DomainDeps, tenant: Tenant, ref: ExecutionRef): Promise<void> {
  const id = needConversation(ref);
  const conversation = await conversations(deps.db, tenant).findById(id);
  if (!conversation || conversation.status === 'closed') return;
  await closeConversation(deps, tenant, id, 'closed by a journey');
}

/**
 * A message block: a reply in the conversation through the inbox's reply
 * path (`queueReply`, author `journey`), delivered by its own workflow
 * `reply-<msg>` with the channel's pacing and retries; the message id. A
 * closed conversation or a channel that cannot send fails the block. `key`
 * (the step's): one message however often the step is retried.
 */
export async function sendBlock(
  deps: DomainDeps,
  tenant: Tenant,
  ref: ExecutionRef,
  config: { text?: string; template_id?: string },
  key: () => string,
): Promise<string> {
  const id = needConversation(ref);
  const { text, template_id } = config;
  const message = await asBlock(() =>
    queueReply(deps, tenant, id, {
      author: 'journey',
      idempotency_key: key(),
      ...(text !== undefined ? { text } : {}),
      ...(template_id !== undefined ? { template_id } : {}),
    }),
  );
  return message._id;
}
