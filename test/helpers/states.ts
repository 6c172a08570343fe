/**
 * What a record and its Temporal side are, as text: what a timed-out `waitFor`
 * prints (its `explain`) so the failure says the state it last saw.
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { Db } from 'mongodb';
import { monitorScheduleId, publicationWorkflowId, temporalScheduleId } from '../../temporal/names';
import type { ApiClient } from './client';
import { waitFor } from './wait';

/** A workflow's status and its last `count` history events, one line each: what a timed-out wait says of it. */
export async function workflowTail(handle: WorkflowHandle, count = 10): Promise<string> {
  const [description, history] = await Promise.all([handle.describe(), handle.fetchHistory()]);
  const events = (history.events ?? []).slice(-count).map((e) => {
    const type = String(e.eventType ?? '').replace(/^EVENT_TYPE_/, '');
    const summary = e.userMetadata?.summary?.data ? ` "${Buffer.from(e.userMetadata.summary.data).toString('utf8')}"` : '';
    const failure =
      e.activityTaskFailedEventAttributes?.failure?.message ??
      e.workflowExecutionFailedEventAttributes?.failure?.message ??
      e.workflowTaskFailedEventAttributes?.failure?.message;
    return `  #${String(e.eventId)} ${type}${summary}${failure ? `: ${failure}` : ''}`;
  });
  return `workflow ${handle.workflowId} is ${description.status.name}; its last events:\n${events.join('\n')}`;
}

/** A workflow's tail, or why it could not be read (not started, or deleted). */
export async function tailOf(handle: WorkflowHandle, count = 10): Promise<string> {
  return workflowTail(handle, count).catch((err: Error) => `workflow ${handle.workflowId}: ${err.message}`);
}

/** What `GET path` answers, as one line: its status and data (shortened). */
export async function recordOf(api: ApiClient, path: string, pick?: (data: any) => unknown): Promise<string> {
  const reply = await api.get(path).catch((err: Error) => ({ status: 0, text: err.message, body: undefined }));
  if (reply.status !== 200) return `GET ${path} answered ${reply.status}: ${String(reply.text).slice(0, 300)}`;
  const data = reply.body?.data;
  return `GET ${path}: ${JSON.stringify(pick ? pick(data) : data).slice(0, 1500)}`;
}

/** A publication's status and deliveries, and (given a client) its workflow's last events. */
export async function publicationState(api: ApiClient, id: string, temporal?: Client): Promise<string> {
  const record = await recordOf(api, `/publications/${id}`, (p: any) => ({
    status: p?.status,
    completed_at: p?.completed_at,
    deliveries: p?.deliveries?.map((d: any) => [d.status, d.attempts, d.error ?? null]),
  }));
  if (!temporal) return record;
  return `${record}\n${await tailOf(temporal.workflow.getHandle(publicationWorkflowId(id)))}`;
}

/** A Temporal Schedule's state: paused or not, its next times and its recent runs. */
export async function temporalScheduleState(temporal: Client, scheduleId: string): Promise<string> {
  try {
    const d = await temporal.schedule.getHandle(scheduleId).describe();
    const recent = d.info.recentActions.map((a) => `${a.action.workflow.workflowId} at ${a.takenAt.toISOString()}`);
    return (
      `Temporal Schedule ${scheduleId}: paused ${d.state.paused}${d.state.note ? ` (${d.state.note})` : ''}, ` +
      `next ${JSON.stringify(d.info.nextActionTimes.slice(0, 3))}, running ${JSON.stringify(d.info.runningActions.map((a) => a.workflow.workflowId))}, ` +
      `recent ${JSON.stringify(recent.slice(-3))}`
    );
  } catch (err) {
    return `Temporal Schedule ${scheduleId}: ${(err as Error).message}`;
  }
}

/** A schedule's record, its Temporal Schedule, and its latest run's last events. */
export async function scheduleState(api: ApiClient, id: string, temporal: Client): Promise<string> {
  return runnableState(api, `/schedules/${id}`, temporalScheduleId(id), temporal);
}

/** A monitor's record, its Temporal Schedule, and its latest run's last events. */
export async function monitorState(api: ApiClient, id: string, temporal: Client): Promise<string> {
  return runnableState(api, `/monitors/${id}`, monitorScheduleId(id), temporal);
}

async function runnableState(api: ApiClient, path: string, scheduleId: string, temporal: Client): Promise<string> {
  const [record, schedule] = await Promise.all([recordOf(api, path), temporalScheduleState(temporal, scheduleId)]);
  const latest = await temporal.schedule
    .getHandle(scheduleId)
    .describe()
    .then((d) => d.info.recentActions.at(-1)?.action.workflow.workflowId)
    .catch(() => undefined);
  return [record, schedule, latest ? await tailOf(temporal.workflow.getHandle(latest)) : undefined].filter(Boolean).join('\n');
}

/** Workflows a visibility query lists (id and status), at most `limit`. */
export async function listedState(temporal: Client, query: string, limit = 10): Promise<string> {
  try {
    const found: string[] = [];
    for await (const wf of temporal.workflow.list({ query })) {
      found.push(`${wf.workflowId} ${wf.status.name}`);
      if (found.length >= limit) break;
    }
    return `visibility lists for ${query}: ${found.length ? found.join(', ') : 'nothing'}`;
  } catch (err) {
    return `visibility for ${query}: ${(err as Error).message}`;
  }
}

/** A webhook's deliveries as listed: each one's event kind, state and attempts. */
export async function deliveriesState(api: ApiClient, webhookId: string, query = ''): Promise<string> {
  return recordOf(api, `/webhooks/${webhookId}/deliveries${query}`, (list: any[]) =>
    list?.map((d) => [d.event_kind, d.state, d.attempts, d.next_attempt_at]),
  );
}

/** A conversation's messages: each one's id, direction, status and error. */
export async function messagesState(api: ApiClient, conversationId: string): Promise<string> {
  return recordOf(api, `/inbox/conversations/${conversationId}/messages`, (list: any[]) =>
    list?.map((m) => [m.id, m.direction, m.status, m.error ?? null]),
  );
}

/** What a fake server received (or printed) so far: how many, and the last `count` of them, shortened. */
export function receivedState(what: string, requests: unknown[], count = 5): string {
  return `${what}: ${requests.length} so far; the last: ${JSON.stringify(requests.slice(-count)).slice(0, 1500)}`;
}

/** The publications `GET /publications<query>` lists: each one's id, status and deliveries' statuses. */
export async function publicationsState(api: ApiClient, query = ''): Promise<string> {
  return recordOf(api, `/publications${query}`, (list: any[]) => list?.map((p) => [p.id, p.status, p.deliveries?.map((d: any) => d.status)]));
}

/** The events stored that match `filter`: their kinds and ids (what was recorded so far, for a wait on one). */
export async function eventsState(db: Db, filter: Record<string, unknown>): Promise<string> {
  const events = await db.collection('events').find(filter).limit(20).toArray();
  return `events matching ${JSON.stringify(filter)}: ${events.length ? events.map((e) => `${e.kind} ${String(e._id)}`).join(', ') : 'none'}`;
}

/** The tenant's click batches (newest first): each one's id and count, for a wait on a click being stored. */
export async function clicksState(db: Db, tenant: { accountId: string; env: string }, sought: string[]): Promise<string> {
  const batches = await db.collection('clicks').find({ account_id: tenant.accountId, env: tenant.env }).sort({ _id: -1 }).limit(10).toArray();
  return `waiting for clicks ${sought.join(', ')}; the tenant's click batches: ${
    batches.length ? batches.map((b) => `${String(b._id)} (${b.count})`).join(', ') : 'none'
  }`;
}

/** The ids of the analytics buckets stored whose id starts with `prefix` (e.g. `account:env:`). */
export async function bucketsState(db: Db, prefix: string): Promise<string> {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const ids = await db
    .collection('analytics_buckets')
    .find({ _id: { $regex: `^${escaped}` } } as object, { projection: { _id: 1 } })
    .limit(20)
    .toArray();
  return `analytics buckets ${prefix}*: ${ids.length ? ids.map((b) => String(b._id)).join(', ') : 'none'}`;
}

/** Which of the request ids sought have a stored request log, and how many logs there are (written in batches). */
export async function requestLogsState(db: Db, sought: string[]): Promise<string> {
  const found = await db
    .collection('request_logs')
    .find({ request_id: { $in: sought } }, { projection: { request_id: 1 } })
    .toArray();
  const have = new Set(found.map((d) => String(d.request_id)));
  const total = await db.collection('request_logs').estimatedDocumentCount();
  return `request logs stored: ${sought.map((id) => `${id} ${have.has(id) ? 'yes' : 'no'}`).join(', ')}; ${total} in all`;
}

/** The id of the stored event of `kind` whose field `path` is `id`, once it is stored (bounded; says what is there). */
export const storedEventId = (db: Db, kind: string, path: string, id: string): Promise<string> =>
  waitFor(
    `${kind} of ${id}`,
    async () => {
      const e = await db.collection('events').findOne({ kind, [path]: id });
      return e ? (e._id as unknown as string) : undefined;
    },
    30_000,
    () => eventsState(db, { [path]: id }),
  );
