/**
 * Journeys: which executions an event starts (and which running ones its
 * message answers), and the side effects of the blocks, one activity each.
 * Every activity here may run again (a retry, a worker lost): setting an
 * assignee, tags or a stage again changes nothing; the counters of
 * `journeyProgress` may count such a repeat twice.
 */
import { Context } from '@temporalio/activity';
import { request } from 'node:https';
import { LookupFunction } from 'node:net';
import { ApplicationFailure } from '@temporalio/common';
import { Environment, Tenant } from '../domain/db';
import { eventById } from '../domain/events/store';
import { closeConversation, toContact, toConversation, updateConversation } from '../domain/inbox/service';
import { queueReply } from '../domain/inbox/replies';
import { queuePublication } from '../domain/publications/queue';
import { contacts, ContactStage, conversations } from '../domain/inbox/store';
import { Condition, holds, subjectOf } from '../domain/journeys/conditions';
import { journeysConcerned, recordProgress } from '../domain/journeys/store';
import { DomainError } from '../domain/errors';
import { JourneyExecutionInput } from '../temporal/workflows';
import { checkDestination, DestinationError, pinnedLookup, ResolvedAddress } from '../domain/webhooks/destinations';
import { ActivityDeps, publishingDeps } from './deps';

/** Who an execution acts for and on. */
export interface ExecutionRef {
  journey_id: string;
  account: string;
  environment: Environment;
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

const tenantOf = (ref: { account: string; environment: Environment }): Tenant => ({ accountId: ref.account, env: ref.environment });

/** The failure of a block the tenant reads (no retry: the same input fails the same way). */
const refused = (message: string) => ApplicationFailure.nonRetryable(message, 'JourneyBlockRefused');

function needConversation(ref: ExecutionRef): string {
  if (!ref.conversation_id) throw refused('the triggering event names no conversation');
  return ref.conversation_id;
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
      const code = (err as { code?: unknown }).code;
      const why =
        err.message === 'timeout'
          ? `no answer within ${timeoutMs / 1000} s`
          : `could not be reached${typeof code === 'string' ? ` (${code})` : ''}`;
      resolve({ status: 0, body: null, error: why });
    });
    req.end(body ?? undefined);
  });
}

export function createJourneyActivities(deps: ActivityDeps) {
  const domain = { db: deps.db, temporal: { client: deps.temporal, taskQueue: deps.taskQueue } };

  return {
    /**
     * For the dispatch of an event: the active journeys it triggers whose
     * filter holds (each execution carries the journey's definition and
     * version), and for an inbound message the running executions of its
     * conversation (found through visibility's `OfferopsConversationId`).
     */
    async journeyTargets(input: { event_id: string }): Promise<JourneyTargets> {
      const event = await eventById(deps.db, input.event_id);
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
        for await (const e of deps.temporal.workflow.list({ query: query.join(' AND '), pageSize: WAITING_PAGE })) {
          waiting.push(e.workflowId);
          if (waiting.length >= WAITING_PAGE) break;
        }
      }
      return { starts, waiting, message_id: message?.id ?? null };
    },

    /** Counts a step of an execution on its journey: a block entered, completed or failed; the execution started or finished. */
    async journeyProgress(
      p: ExecutionRef & { started?: boolean; entered?: string; completed?: string; failed?: string; finished?: 'completed' | 'failed' },
    ): Promise<void> {
      const { started, entered, completed, failed, finished } = p;
      await recordProgress(deps.db, tenantOf(p), p.journey_id, {
        ...(started ? { started: new Date() } : {}),
        ...(entered ? { entered } : {}),
        ...(completed ? { completed } : {}),
        ...(failed ? { failed } : {}),
        ...(finished ? { finished } : {}),
      });
    },

    /** Whether a condition block's test holds, on the event, the contact and conversation as they are now, and the http answers so far. */
    async journeyCondition(
      input: ExecutionRef & { event: JourneyExecutionInput['event']; condition: Record<string, unknown>; http: Record<string, HttpAnswer> },
    ): Promise<boolean> {
      const tenant = tenantOf(input);
      const field = String(input.condition.field);
      const scope: Record<string, unknown> = { event: input.event, http: input.http };
      if (field.startsWith('contact.') && input.contact_id) {
        const contact = await contacts(deps.db, tenant).findById(input.contact_id);
        scope.contact = contact ? toContact(contact) : null;
      }
      if (field.startsWith('conversation.') && input.conversation_id) {
        const conversation = await conversations(deps.db, tenant).findById(input.conversation_id);
        scope.conversation = conversation ? toConversation(conversation) : null;
      }
      return holds(input.condition as unknown as Condition, scope);
    },

    /** An assign block: assignee, priority, DU mode of the conversation (its `conversation.updated` event when anything changed). */
    async journeyAssign(input: ExecutionRef & { config: Record<string, unknown> }): Promise<void> {
      const id = needConversation(input);
      try {
        await updateConversation(domain, tenantOf(input), id, input.config);
      } catch (err) {
        if (err instanceof DomainError) throw refused(err.message);
        throw err;
      }
    },

    /** A tag block: tags added and removed on the conversation (when any) and the contact, the contact's stage. */
    async journeyTag(input: ExecutionRef & { config: { add?: string[]; remove?: string[]; stage?: ContactStage } }): Promise<void> {
      const tenant = tenantOf(input);
      const { add = [], remove = [], stage } = input.config;
      const retag = (tags: string[]) => [...new Set([...tags.filter((t) => !remove.includes(t)), ...add])];
      if (input.conversation_id && (add.length || remove.length)) {
        const conversation = await conversations(deps.db, tenant).findById(input.conversation_id);
        if (conversation) await updateConversation(domain, tenant, conversation._id, { tags: retag(conversation.tags) });
      }
      if (!input.contact_id) return;
      for (let attempt = 0; attempt < 5; attempt++) {
        const contact = await contacts(deps.db, tenant).findById(input.contact_id);
        if (!contact) return;
        const tags = retag(contact.tags);
        const set = {
          ...(tags.join('\n') !== contact.tags.join('\n') ? { tags } : {}),
          ...(stage && stage !== contact.stage ? { stage } : {}),
        };
        if (!Object.keys(set).length || (await contacts(deps.db, tenant).updateFrom(contact, set))) return;
      }
      throw new Error('the contact kept changing; the tag block will be retried');
    },

    /** An http block: one call to an HTTPS URL the webhook destination rules allow; its status and JSON body, or why there was none. */
    async journeyHttp(input: ExecutionRef & { event: JourneyExecutionInput['event']; config: Record<string, unknown> }): Promise<HttpAnswer> {
      const url = String(input.config.url);
      const method = input.config.method === 'GET' ? 'GET' : 'POST';
      const timeoutMs = typeof input.config.timeout_ms === 'number' ? input.config.timeout_ms : DEFAULT_TIMEOUT_MS;
      let addresses: ResolvedAddress[];
      try {
        addresses = await checkDestination(url, deps.webhookAllow ?? []);
      } catch (err) {
        if (err instanceof DestinationError) return { status: 0, body: null, error: `destination refused: ${err.message}` };
        throw err;
      }
      const body = method === 'POST' ? JSON.stringify(input.config.body ?? input.event) : null;
      return call(url, pinnedLookup(addresses, deps.webhookAllow ?? []), method, body, timeoutMs, deps.webhookCa);
    },

    /**
     * A publish block: a publication through the publish path (the offer the
     * event names, or the block's text, to a group or segment), as
     * POST /offers/{id}/publish makes one; its id. The key of the step makes a
     * retried activity find the publication its first try queued.
     */
    async journeyPublish(input: ExecutionRef & { event: JourneyExecutionInput['event']; config: Record<string, unknown> }): Promise<string> {
      const c = input.config;
      const { workflowExecution: run, activityId } = Context.current().info;
      if (!run) throw new Error('journeyPublish runs inside a journey execution');
      const data = input.event.data;
      const text = typeof c.text === 'string' ? c.text : null;
      const offerId = text === null ? (idIn(data.offer, 'id') ?? idIn(data, 'offer_id')) : null;
      if (text === null && offerId === null) throw refused(`the triggering ${input.event.kind} event names no offer: give the block a text`);
      const groupId =
        c.event_group === true ? (idIn(data, 'group_id') ?? idIn(data.group, 'id')) : typeof c.group_id === 'string' ? c.group_id : null;
      if (c.event_group === true && groupId === null) throw refused(`the triggering ${input.event.kind} event names no group`);
      try {
        const { publication } = await queuePublication(publishingDeps(deps), tenantOf(input), {
          offer_id: offerId,
          text,
          template_id: typeof c.template_id === 'string' ? c.template_id : null,
          group_id: groupId,
          segment_id: typeof c.segment_id === 'string' ? c.segment_id : null,
          with_image: c.with_image !== false,
          schedule_id: null,
          idempotency_key: `journey:${run.workflowId}/${run.runId}/${activityId}`,
        });
        return publication._id;
      } catch (err) {
        if (err instanceof DomainError) throw refused(err.message);
        throw err;
      }
    },

    /** An end block that closes the conversation (already closed: nothing to do). */
    async journeyClose(input: ExecutionRef): Promise<void> {
      const tenant = tenantOf(input);
      const id = needConversation(input);
      const conversation = await conversations(deps.db, tenant).findById(id);
      if (!conversation || conversation.status === 'closed') return;
      await closeConversation(domain, tenant, id, 'closed by a journey');
    },

    /**
     * A message block: a reply in the conversation through the inbox's reply
     * path (`queueReply`, author `journey`), delivered by its own workflow
     * `reply-<msg>` with the channel's pacing and retries; the message id.
     * A closed conversation or a channel that cannot send fails the block.
     */
    async journeySend(input: ExecutionRef & { block_id: string; config: { text?: string; template_id?: string } }): Promise<string> {
      const id = needConversation(input);
      const { text, template_id } = input.config;
      try {
        // One message per scheduled send, however often the activity is retried.
        const { workflowExecution: run, activityId } = Context.current().info;
        if (!run) throw new Error('journeySend runs inside a journey execution');
        const message = await queueReply(domain, tenantOf(input), id, {
          author: 'journey',
          idempotency_key: `${run.workflowId}/${run.runId}/${activityId}`,
          ...(text !== undefined ? { text } : {}),
          ...(template_id !== undefined ? { template_id } : {}),
        });
        return message._id;
      } catch (err) {
        if (err instanceof DomainError) throw refused(err.message);
        throw err;
      }
    },
  };
}
