import { listCollections } from '../../domain/store/store';
import { createPage, getStore, toCollection, toPage, toStore, updateStore } from '../../domain/store/service';
import { Handler, listReply, pageOf } from './types';

export const storeGet: Handler<'store_get'> = async (req, deps) => ({
  body: { data: toStore(await getStore(deps, req.tenant, req.account), deps) },
});

export const storeUpdate: Handler<'store_update'> = async (req, deps) => ({
  body: { data: toStore(await updateStore(deps, req.tenant, req.account, deps, req.body), deps) },
});

export const storeCollectionsList: Handler<'store_collections_list'> = async (req, deps) => {
  const page = pageOf(req.query);
  const filter = req.query.published === undefined ? {} : { published: req.query.published };
  const { items, total } = await listCollections(deps.db, req.tenant, filter, page);
  return listReply(items.map(toCollection), total, page);
};

export const storePageCreate: Handler<'store_page_create'> = async (req, deps) => {
  const { page, url } = await createPage(deps, req.tenant, req.account, deps, req.body);
  return { status: 201, body: { data: toPage(page, url), created: true } };
};
