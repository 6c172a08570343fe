/** Schedules: thin over domain/schedules/service.ts (the record, its Temporal Schedule, run-now). */
import { publicationRecord } from '../../domain/publications/queue';
import {
  createSchedule,
  listScheduleRecords,
  readSchedule,
  removeSchedule,
  runScheduleNow,
  updateScheduleFields,
} from '../../domain/schedules/service';
import { toSchedule } from '../../domain/schedules/temporal';
import { Handler, listReply, pageOf } from './types';

export const schedulesList: Handler<'schedules_list'> = async (req, deps) => {
  const page = pageOf(req.query);
  const { status, group_id, segment_id, offer_id } = req.query;
  const { items, total } = await listScheduleRecords(deps, req.tenant, { status, group_id, segment_id, offer_id }, page);
  return listReply(
    items.map((doc) => toSchedule(doc, doc)),
    total,
    page,
  );
};

export const scheduleCreate: Handler<'schedule_create'> = async (req, deps) => {
  const { doc, seen } = await createSchedule(deps, req.tenant, req.body);
  return { status: 201, body: { data: toSchedule(doc, seen), created: true } };
};

export const scheduleGet: Handler<'schedule_get'> = async (req, deps) => {
  const { doc, seen } = await readSchedule(deps, req.tenant, req.params.id);
  return { body: { data: toSchedule(doc, seen) } };
};

export const scheduleUpdate: Handler<'schedule_update'> = async (req, deps) => {
  const { doc, seen } = await updateScheduleFields(deps, req.tenant, req.params.id, req.body);
  return { body: { data: toSchedule(doc, seen) } };
};

export const scheduleDelete: Handler<'schedule_delete'> = async (req, deps) => {
  await removeSchedule(deps, req.tenant, req.params.id);
  return { body: { deleted: true, id: req.params.id } };
};

export const scheduleRun: Handler<'schedule_run'> = async (req, deps) => {
  const { doc, seen, publication, eventId } = await runScheduleNow(deps, req.tenant, req.params.id);
  return {
    body: {
      data: { schedule: toSchedule(doc, seen), publications: [await publicationRecord(deps.db, req.tenant, publication)] },
      event_id: eventId,
    },
  };
};
