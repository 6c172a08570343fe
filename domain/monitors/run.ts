/**
 * A monitor run: its plan (the rule as it stands when the run starts), each
 * source read in its own step, and the run's result recorded at the end.
 *
 * One source of one monitor run: read it as it streams in, keep what meets
 * the criteria, and — by the monitor's automation — create the matches the
 * catalogue does not have as pending offers and publish each through the
 * normal publish path.
 *
 * Against the catalogue, matches go in batches of FLUSH_EVERY: one query
 * finds which URLs exist (never one per item), then each new one is inserted
 * (the unique index on URL refuses a duplicate: no lookup first). An offer
 * carries the run that created it (`found_by`), so a retried attempt counts
 * and publishes it again as this run's, and its publication's idempotency key
 * (`monitor:<mon>:<off>`) makes that the same publication: each created offer
 * is published once, however often the run is retried.
 */
import { ERROR_STATUS } from '../../schemas/openapi/common';
import { emptyResult, MonitorRunOutcome, SourceResult } from '../../temporal/workflows';
import { Tenant } from '../db';
import { DomainError } from '../errors';
import { derivedId } from '../ids';
import { commitEvents } from '../events/commit';
import { prepareEvent } from '../events/store';
import { insertFoundOffer, OfferDoc, offersByUrl, OfferFields } from '../offers/store';
import { toOffer } from '../offers/service';
import { PublishingDeps, queuePublication } from '../publications/queue';
import { DomainDeps } from '../resource';
import { compileCriteria } from './criteria';
import { FetchOptions, FoundItem, readSource, toFoundItem } from './feeds';
import { SourceError } from '../webhooks/sources';
import { getMonitor, MonitorAutomation, MonitorCriteria, MonitorResult, MonitorSource, recordMonitorRun } from './store';
import { deleteMonitorSchedule, describeMonitorSchedule, nextRunOf } from './temporal';

/** Matches checked against the catalogue at once. */
export const FLUSH_EVERY = 200;

export interface SourceRun {
  tenant: Tenant;
  monitor_id: string;
  /** The run's Temporal run id: the same in every attempt of its activities, another in every run. */
  run_id: string;
  source: MonitorSource & { name: string };
  criteria: MonitorCriteria;
  automation: MonitorAutomation;
}

const offerFields = (item: FoundItem): OfferFields => {
  const fields: OfferFields = { url: item.url, title: item.title, currency: item.currency };
  if (item.price !== null) fields.price = item.price;
  if (item.original_price !== null) fields.original_price = item.original_price;
  if (item.image !== null) fields.image = item.image;
  if (item.store !== null) fields.store = item.store;
  if (item.category !== null) fields.category = item.category;
  if (item.marketplace !== null) fields.marketplace = item.marketplace;
  return fields;
};

/** One attempt at reading a source: its counts so far and what it has done. */
interface Attempt {
  deps: PublishingDeps;
  run: SourceRun;
  result: SourceResult;
  /** Offers counted as this run's in this attempt (a URL twice in a feed is created once): grows with creations only. */
  counted: Set<string>;
  /** Whether created offers are published: by the automation, until a destination refuses. */
  publishing: boolean;
  progress: (r: SourceResult) => void;
}

/** Publishes a created offer through the normal publish path, once per offer and monitor (its idempotency key). */
async function publish(a: Attempt, offerId: string): Promise<void> {
  if (!a.publishing) return;
  const { automation, tenant, monitor_id } = a.run;
  try {
    await queuePublication(a.deps, tenant, {
      offer_id: offerId,
      text: null,
      template_id: null,
      group_id: automation.group_id,
      segment_id: automation.segment_id,
      with_image: automation.with_image,
      schedule_id: null,
      idempotency_key: `monitor:${monitor_id}:${offerId}`,
    });
    a.result.published++;
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    // The destination refused (e.g. no active group): the offers stay created; publishing stops for this source.
    a.publishing = false;
    a.result.error = `publishing stopped: ${ERROR_STATUS[err.code]} ${err.code}: ${err.message}`;
  }
}

/** The offer a match counts as in this run: created now, or by an earlier attempt of this run; null when it is not this run's. */
async function offerOf(a: Attempt, item: FoundItem, known: Pick<OfferDoc, '_id' | 'found_by'> | undefined): Promise<string | null> {
  const { deps, run } = a;
  // In the catalogue already: this run's when an earlier attempt of it created the offer.
  if (known) return known.found_by?.run_id === run.run_id && !a.counted.has(known._id) ? known._id : null;
  const offer = await insertFoundOffer(deps.db, run.tenant, offerFields(item), { monitor_id: run.monitor_id, run_id: run.run_id }, (o) =>
    prepareEvent(run.tenant, 'offer.created', { offer: toOffer(o) }),
  );
  if (!offer) return null;
  await commitEvents(deps, 'offers', offer._id);
  return offer._id;
}

/** Checks a batch of matches against the catalogue: the new ones created (and published), each counted once. */
async function flush(a: Attempt, items: FoundItem[]): Promise<void> {
  const byUrl = new Map(items.map((i) => [i.url, i]));
  const existing = await offersByUrl(a.deps.db, a.run.tenant, [...byUrl.keys()]);
  for (const [url, item] of byUrl) {
    const offerId = await offerOf(a, item, existing.get(url));
    if (offerId === null) continue;
    a.counted.add(offerId);
    a.result.created++;
    await publish(a, offerId);
    a.progress(a.result); // a batch of creations and publications can outlast the heartbeat timeout
  }
}

/**
 * Reads one source to its end. A source that cannot be read for good (refused
 * by the fetch rules, not the format it claims, too large, a 4xx) ends with
 * its `error` and the counts so far; a failure that may pass (network, 5xx,
 * the database) is thrown, for the activity to retry. `progress` is called
 * after every batch read and every offer created (heartbeats).
 */
export async function runSource(
  deps: PublishingDeps,
  run: SourceRun,
  opts: FetchOptions,
  progress: (r: SourceResult) => void,
): Promise<SourceResult> {
  const mode = run.automation.mode;
  const a: Attempt = { deps, run, result: emptyResult(run.source), counted: new Set(), publishing: mode === 'publish', progress };
  const { result } = a;
  const matches = compileCriteria(run.criteria);
  let pending: FoundItem[] = [];
  try {
    for await (const batch of readSource(run.source, opts)) {
      for (const raw of batch) {
        result.seen++;
        const item = toFoundItem(raw, run.source);
        if (!item || !matches(item)) continue;
        result.matched++;
        if (mode !== 'none') pending.push(item);
      }
      if (pending.length >= FLUSH_EVERY) {
        await flush(a, pending);
        pending = [];
      }
      progress(result);
    }
    await flush(a, pending);
  } catch (err) {
    if (err instanceof SourceError && err.permanent) return { ...result, error: err.message };
    throw err;
  }
  return result;
}

/** What a run reads, as the rule stood when it started. */
export interface MonitorRunPlan {
  sources: (MonitorSource & { name: string })[];
  criteria: MonitorCriteria;
  automation: MonitorAutomation;
}

/** A source's label: its name, else the host of its URL. */
const labelOf = (s: MonitorSource): string => s.name ?? new URL(s.url).host;

/**
 * The rule to run; null when there is none: the monitor is gone (its Temporal Schedule, left behind, is removed),
 * or paused (its schedule is paused too, but a trigger from Temporal UI or the CLI starts a run all the same).
 */
export async function planRun(deps: DomainDeps, tenant: Tenant, monitorId: string): Promise<MonitorRunPlan | null> {
  const doc = await getMonitor(deps.db, tenant, monitorId);
  if (!doc) {
    await deleteMonitorSchedule(deps.temporal, monitorId);
    return null;
  }
  if (doc.state !== 'active') return null;
  return { sources: doc.sources.map((s) => ({ ...s, name: labelOf(s) })), criteria: doc.criteria, automation: doc.automation };
}

/** A finished run: where it ran, when, and what each source found. */
export interface FinishedRun {
  workflow_id: string;
  run_id: string;
  started_at: string;
  finished_at: string;
  sources: SourceResult[];
}

/** Records the run's result on the monitor and `monitor.ran` (once per run: its id derives from the run). */
export async function recordRun(deps: DomainDeps, tenant: Tenant, monitorId: string, run: FinishedRun): Promise<MonitorRunOutcome> {
  const sum = (k: 'seen' | 'matched' | 'created' | 'published') => run.sources.reduce((n, s) => n + s[k], 0);
  const result: MonitorResult = {
    workflow_id: run.workflow_id,
    run_id: run.run_id,
    started_at: run.started_at,
    finished_at: run.finished_at,
    duration_ms: Math.max(0, Date.parse(run.finished_at) - Date.parse(run.started_at)),
    seen: sum('seen'),
    matched: sum('matched'),
    created: sum('created'),
    published: sum('published'),
    errors: run.sources.filter((s) => s.error !== null).length,
    sources: run.sources,
  };
  const eventId = derivedId('evt', 'monitor.ran', tenant.accountId, tenant.env, run.run_id);
  const event = prepareEvent(tenant, 'monitor.ran', { monitor_id: monitorId, result }, new Date(), eventId);
  const next = nextRunOf(await describeMonitorSchedule(deps.temporal, monitorId));
  if (await recordMonitorRun(deps.db, tenant, monitorId, result, next, event)) await commitEvents(deps, 'monitors', monitorId);
  return {
    event_id: eventId,
    seen: result.seen,
    matched: result.matched,
    created: result.created,
    published: result.published,
    errors: result.errors,
  };
}
