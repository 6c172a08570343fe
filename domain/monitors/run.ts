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
import { insertFoundOffer, offersByUrl, OfferFields } from '../offers/store';
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
  const result = emptyResult(run.source);
  const matches = compileCriteria(run.criteria);
  const mode = run.automation.mode;
  /** Offers counted as this run's in this attempt (a URL twice in a feed is created once): grows with creations only. */
  const counted = new Set<string>();
  let publishing = mode === 'publish';
  let pending: FoundItem[] = [];

  async function publish(offerId: string): Promise<void> {
    if (!publishing) return;
    try {
      await queuePublication(deps, run.tenant, {
        offer_id: offerId,
        text: null,
        template_id: null,
        group_id: run.automation.group_id,
        segment_id: run.automation.segment_id,
        with_image: run.automation.with_image,
        schedule_id: null,
        idempotency_key: `monitor:${run.monitor_id}:${offerId}`,
      });
      result.published++;
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      // The destination refused (e.g. no active group): the offers stay created; publishing stops for this source.
      publishing = false;
      result.error = `publishing stopped: ${ERROR_STATUS[err.code]} ${err.code}: ${err.message}`;
    }
  }

  async function flush(items: FoundItem[]): Promise<void> {
    const byUrl = new Map(items.map((i) => [i.url, i]));
    const existing = await offersByUrl(deps.db, run.tenant, [...byUrl.keys()]);
    for (const [url, item] of byUrl) {
      const known = existing.get(url);
      let offerId: string | null = null;
      if (!known) {
        const offer = await insertFoundOffer(deps.db, run.tenant, offerFields(item), { monitor_id: run.monitor_id, run_id: run.run_id }, (o) =>
          prepareEvent(run.tenant, 'offer.created', { offer: toOffer(o) }),
        );
        if (offer) {
          await commitEvents(deps, 'offers', offer._id);
          offerId = offer._id;
        }
      } else if (known.found_by?.run_id === run.run_id && !counted.has(known._id)) {
        offerId = known._id; // created by an earlier attempt of this run
      }
      if (offerId === null) continue;
      counted.add(offerId);
      result.created++;
      await publish(offerId);
      progress(result); // a batch of creations and publications can outlast the heartbeat timeout
    }
  }

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
        await flush(pending);
        pending = [];
      }
      progress(result);
    }
    await flush(pending);
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
