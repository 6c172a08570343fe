/**
 * Journeys: the API record, graph validation on create and on a PATCH that
 * sends `blocks` (graph.ts, then the templates named and the destinations of
 * `http` blocks), activation, and deletion only while it never executed.
 * Every change records its event.
 */
import { CHANNEL_TYPES } from '../../schemas/openapi/inbox';
import { Schema } from '../../schemas/types';
import { Tenant } from '../db';
import { conflict, ErrorDetail, invalid } from '../errors';
import { commitEvents } from '../events/commit';
import { prepareEvent } from '../events/store';
import { changedFields, DomainDeps, found, iso, written } from '../resource';
import { getGroup } from '../groups/store';
import { getSegment } from '../segments/store';
import { getTemplate } from '../templates/store';
import { checkDestination, DestinationError } from '../webhooks/destinations';
import { executionsQuery } from './executions';
import { destinationsNamed, GraphBlock, graphErrors, missingDestination, missingTemplate, templatesNamed } from './graph';
import { deleteUnexecutedJourney, getJourney, insertJourney, JourneyDoc, JourneyFields, saveJourney } from './store';

export { listJourneys } from './store';

/** What journey operations need besides the database and Temporal. */
export interface JourneyDeps extends DomainDeps {
  /** Hosts or addresses `http` blocks may call although private or loopback (OFFEROPS_WEBHOOK_ALLOW). */
  webhookAllow?: readonly string[];
}

const FIELDS = ['name', 'description', 'trigger', 'filter', 'channels', 'blocks'] as const satisfies readonly (keyof JourneyFields)[];

export function toJourney(j: JourneyDoc): Schema<'Journey'> {
  const finished = j.completed + j.failed;
  return {
    id: j._id,
    name: j.name,
    description: j.description,
    trigger: j.trigger,
    filter: j.filter,
    channels: j.channels ?? [...CHANNEL_TYPES],
    blocks: j.blocks.map((b) => ({
      name: null,
      next: [],
      position: null,
      ...b,
      metrics: { entered: 0, completed: 0, failed: 0, ...j.block_metrics?.[b.id] },
    })),
    version: j.version ?? 1,
    active: j.active,
    executions: j.executions,
    metrics: {
      running: Math.max(0, j.executions - finished),
      completed: j.completed,
      failed: j.failed,
      completion_rate: finished ? j.completed / finished : null,
      last_execution_at: iso(j.last_execution_at),
    },
    activated_at: iso(j.activated_at),
    created_at: j.created_at.toISOString(),
    updated_at: j.updated_at.toISOString(),
  };
}

export const mustGetJourney = async (deps: DomainDeps, tenant: Tenant, id: string): Promise<JourneyDoc> =>
  found(await getJourney(deps.db, tenant, id), 'journey', id);

/** Every rule the definition breaks: the graph's, the templates, groups and segments it names, the destinations of its `http` blocks. */
async function definitionErrors(deps: JourneyDeps, tenant: Tenant, blocks: readonly GraphBlock[]): Promise<ErrorDetail[]> {
  const errors = graphErrors(blocks);
  for (const { blockId, templateId } of templatesNamed(blocks)) {
    if (!(await getTemplate(deps.db, tenant, templateId))) errors.push(missingTemplate(blockId, templateId));
  }
  for (const { blockId, field, id } of destinationsNamed(blocks)) {
    const exists = field === 'group_id' ? await getGroup(deps.db, tenant, id) : await getSegment(deps.db, tenant, id);
    if (!exists) errors.push(missingDestination(blockId, field, id));
  }
  for (const b of blocks) {
    if (b.type !== 'http' || !('url' in b.config) || typeof b.config.url !== 'string') continue;
    try {
      await checkDestination(b.config.url, deps.webhookAllow ?? []);
    } catch (err) {
      if (!(err instanceof DestinationError)) throw err;
      errors.push({ location: 'body', field: `blocks[${b.id}].config.url`, rule: 'destination', message: err.message });
    }
  }
  return errors;
}

function refuse(errors: ErrorDetail[]): void {
  if (!errors.length) return;
  throw invalid(
    'validation_failed',
    `The journey breaks ${errors.length === 1 ? 'a rule' : `${errors.length} rules`}: ${errors[0]!.field} ${errors[0]!.rule}: ${errors[0]!.message}${errors.length > 1 ? ` (and ${errors.length - 1} more, in details)` : ''}.`,
    errors,
  );
}

/** Creates the journey as a draft (`active` 0). */
export async function createJourney(deps: JourneyDeps, tenant: Tenant, input: Schema<'JourneyCreate'>): Promise<JourneyDoc> {
  refuse(await definitionErrors(deps, tenant, input.blocks));
  const fields: JourneyFields = {
    name: input.name,
    description: input.description ?? null,
    trigger: input.trigger,
    filter: input.filter ?? [],
    channels: input.channels ?? null,
    blocks: input.blocks,
    active: 0,
    activated_at: null,
  };
  const journey = await insertJourney(deps.db, tenant, fields, (j) => prepareEvent(tenant, 'journey.created', { journey: toJourney(j) }));
  await commitEvents(deps, 'journeys', journey._id);
  return journey;
}

/** Changes the fields sent; `blocks` replaces the graph (checked again). Running executions keep the graph they started with. */
export async function updateJourney(
  deps: JourneyDeps,
  tenant: Tenant,
  id: string,
  input: Schema<'JourneyUpdate'> | undefined,
): Promise<JourneyDoc> {
  const journey = await mustGetJourney(deps, tenant, id);
  const set = changedFields<JourneyFields, (typeof FIELDS)[number]>(journey, input ?? {}, FIELDS);
  const changed = Object.keys(set);
  if (!changed.length) return journey;
  if (set.blocks) refuse(await definitionErrors(deps, tenant, set.blocks));
  const definition = set.trigger !== undefined || set.filter !== undefined || set.blocks !== undefined;
  const update: Partial<JourneyDoc> = definition ? { ...set, version: (journey.version ?? 1) + 1 } : set;
  const updated = written(
    await saveJourney(deps.db, tenant, journey, update, (after) =>
      prepareEvent(tenant, 'journey.updated', { journey: toJourney(after), changed }),
    ),
    'journey',
  );
  await commitEvents(deps, 'journeys', journey._id);
  return updated;
}

/** Activates or pauses; the state it already has changes nothing. Pausing starts no new execution; running ones finish. */
export async function activateJourney(deps: DomainDeps, tenant: Tenant, id: string, active: boolean): Promise<JourneyDoc> {
  const journey = await mustGetJourney(deps, tenant, id);
  const flag = active ? 1 : 0;
  if (journey.active === flag) return journey;
  const set: Partial<JourneyDoc> = active ? { active: 1, activated_at: new Date() } : { active: 0 };
  const updated = written(
    await saveJourney(deps.db, tenant, journey, set, (after) =>
      prepareEvent(tenant, 'journey.updated', { journey: toJourney(after), changed: ['active'] }),
    ),
    'journey',
  );
  await commitEvents(deps, 'journeys', journey._id);
  return updated;
}

/** Deletes a journey that never executed (409 `resource_in_use` otherwise: pause it instead). */
export async function removeJourney(deps: DomainDeps, tenant: Tenant, id: string): Promise<void> {
  const journey = await mustGetJourney(deps, tenant, id);
  const refused = () =>
    conflict('resource_in_use', `The journey has executions (${journey.executions} or more); it cannot be deleted. Pause it instead.`);
  // The counter is kept by the executions' first activity: visibility also knows one that has just started.
  if (journey.executions > 0 || (await deps.temporal.client.workflow.count(executionsQuery(tenant, journey._id))).count > 0) throw refused();
  if (await deleteUnexecutedJourney(deps.db, tenant, journey._id, prepareEvent(tenant, 'journey.deleted', { journey_id: journey._id }))) {
    await commitEvents(deps, 'journeys', journey._id);
    return;
  }
  const now = await getJourney(deps.db, tenant, journey._id);
  if (now) throw refused();
}
