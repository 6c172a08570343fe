import {
  closeConversation,
  conversationContext,
  updateConversation,
  listContacts,
  listConversations,
  listMessages,
  mustGetConversation,
  referencedMessage,
  toContact,
  toConversation,
  toMessage,
} from '../../domain/inbox/service';
import { queueReply } from '../../domain/inbox/replies';
import { Handler, listReply, pageOf } from './types';

export const conversationsList: Handler<'conversations_list'> = async (req, deps) => {
  const page = pageOf(req.query);
  const { status, channel, assignee, priority, contact_id } = req.query;
  const { items, total } = await listConversations(deps.db, req.tenant, { status, channel, assignee, priority, contact_id }, page);
  return listReply(items.map(toConversation), total, page);
};

export const conversationGet: Handler<'conversation_get'> = async (req, deps) => ({
  body: { data: await conversationContext(deps, req.tenant, req.params.id) },
});

export const conversationMessagesList: Handler<'conversation_messages_list'> = async (req, deps) => {
  const page = pageOf(req.query);
  const conversation = await mustGetConversation(deps, req.tenant, req.params.id);
  const before = req.query.before === undefined ? undefined : await referencedMessage(deps, req.tenant, conversation._id, req.query.before);
  const { items, total } = await listMessages(deps.db, req.tenant, conversation._id, page, before);
  return listReply(items.map(toMessage), total, page);
};

export const contactsList: Handler<'contacts_list'> = async (req, deps) => {
  const page = pageOf(req.query);
  const { stage, tag, channel, query } = req.query;
  const { items, total } = await listContacts(deps.db, req.tenant, { stage, tag, channel, query }, page);
  return listReply(items.map(toContact), total, page);
};

export const conversationUpdate: Handler<'conversation_update'> = async (req, deps) => ({
  body: { data: toConversation(await updateConversation(deps, req.tenant, req.params.id, req.body)) },
});

export const conversationClose: Handler<'conversation_close'> = async (req, deps) => {
  const { conversation, eventId } = await closeConversation(deps, req.tenant, req.params.id, req.body?.reason ?? null);
  return { body: { data: toConversation(conversation), event_id: eventId } };
};

export const conversationReply: Handler<'conversation_reply'> = async (req, deps) => {
  const body = req.body;
  const message = await queueReply(deps, req.tenant, req.params.id, {
    ...('text' in body ? { text: body.text } : { template_id: body.template_id, ...(body.offer_id ? { offer_id: body.offer_id } : {}) }),
    ...(body.media_urls ? { media_urls: body.media_urls } : {}),
    author: 'agent',
    ...(body.agent ? { agent: body.agent } : {}),
  });
  return { body: { data: toMessage(message) } };
};
