import { listGroups, mustGetGroup, toGroup, updateGroup } from '../../domain/groups/service';
import { Handler, listReply, pageOf } from './types';

export const groupsList: Handler<'groups_list'> = async (req, deps) => {
  const page = pageOf(req.query);
  const { segment_id, active } = req.query;
  const { items, total } = await listGroups(deps.db, req.tenant, { segment_id, active }, page);
  return listReply(items.map(toGroup), total, page);
};

export const groupGet: Handler<'group_get'> = async (req, deps) => ({
  body: { data: toGroup(await mustGetGroup(deps, req.tenant, req.params.id)) },
});

export const groupUpdate: Handler<'group_update'> = async (req, deps) => ({
  body: { data: toGroup(await updateGroup(deps, req.tenant, req.params.id, req.body)) },
});
