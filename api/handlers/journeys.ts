import {
  activateJourney,
  createJourney,
  listJourneys,
  mustGetJourney,
  removeJourney,
  toJourney,
  updateJourney,
} from '../../domain/journeys/service';
import { listExecutions } from '../../domain/journeys/executions';
import { Handler, listReply, pageOf } from './types';

export const journeysList: Handler<'journeys_list'> = async (req, deps) => {
  const page = pageOf(req.query);
  const { items, total } = await listJourneys(deps.db, req.tenant, { active: req.query.active, trigger: req.query.trigger }, page);
  return listReply(items.map(toJourney), total, page);
};

export const journeyCreate: Handler<'journey_create'> = async (req, deps) => {
  const journey = await createJourney(deps, req.tenant, req.body);
  return { status: 201, body: { data: toJourney(journey), created: true } };
};

export const journeyGet: Handler<'journey_get'> = async (req, deps) => ({
  body: { data: toJourney(await mustGetJourney(deps, req.tenant, req.params.id)) },
});

export const journeyUpdate: Handler<'journey_update'> = async (req, deps) => ({
  body: { data: toJourney(await updateJourney(deps, req.tenant, req.params.id, req.body)) },
});

export const journeyDelete: Handler<'journey_delete'> = async (req, deps) => {
  await removeJourney(deps, req.tenant, req.params.id);
  return { body: { deleted: true, id: req.params.id } };
};

export const journeyActivate: Handler<'journey_activate'> = async (req, deps) => ({
  body: { data: toJourney(await activateJourney(deps, req.tenant, req.params.id, req.body?.active ?? true)) },
});

export const journeyExecutionsList: Handler<'journey_executions_list'> = async (req, deps) => {
  const page = pageOf(req.query);
  const journey = await mustGetJourney(deps, req.tenant, req.params.id);
  const { items, total } = await listExecutions(deps, req.tenant, journey._id, req.query.status, page);
  return listReply(items, total, page);
};
