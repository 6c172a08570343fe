import {
  FORM_KEYWORD,
  FORMS,
  arr,
  dateTime,
  singleEnvelope,
  eventEnvelope,
  filter,
  idOf,
  int,
  JsonSchema,
  nullable,
  object,
  OperationDef,
  record,
  ref,
  str,
} from './common';
import { resource } from './crud';

export const CHANNEL_TYPES = ['whatsapp', 'telegram', 'instagram', 'messenger', 'webchat'] as const;
export const CONVERSATION_STATUSES = ['open', 'pending', 'closed'] as const;
export const PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;
export const DU_MODES = ['auto', 'assisted', 'off'] as const;
export const CONTACT_STAGES = ['new', 'engaged', 'customer', 'inactive'] as const;
export const MEDIA_TYPES = ['image', 'audio', 'video', 'document', 'sticker'] as const;
export const MESSAGE_STATUSES = ['received', 'queued', 'sent', 'delivered', 'read', 'failed'] as const;

/** A CRM label: letters, digits, `_`, `-`, single inner spaces. */
export const TAG = str({
  minLength: 1,
  maxLength: 40,
  pattern: '^[\\p{L}\\p{N}_-]+(?: [\\p{L}\\p{N}_-]+)*$',
  [FORM_KEYWORD]: 'words of letters, digits, _ and -, separated by single spaces, e.g. vip lead',
});
const ASSIGNEE = str({ minLength: 1, maxLength: 120, description: 'team member the conversation is assigned to (name or handle in the team)' });

const REPLY_TEXT = str({ minLength: 1, maxLength: 4096, description: 'the reply text' });
const REPLY_MEDIA = arr(str({ format: 'uri', pattern: '^https?://', [FORM_KEYWORD]: FORMS.http, maxLength: 2000 }), {
  minItems: 1,
  maxItems: 1,
  description: 'an image to send with the text (one link; the gateway gets it as `image_url`, Telegram as a photo)',
});
const REPLY_AGENT = { ...ASSIGNEE, description: 'the team member replying, shown on the message (`agent`)' };

/** How many messages a conversation's context carries. */
export const LAST_MESSAGES = 20;

const CONVERSATION_FIELDS: Record<string, JsonSchema> = {
  id: idOf('cnv'),
  channel: ref('ChannelType'),
  channel_id: idOf('chn', 'the connection the conversation runs on (its address is never shown)'),
  status: ref('ConversationStatus'),
  assignee: nullable(str({ description: 'team member in charge; null when unassigned' })),
  priority: ref('Priority'),
  du_mode: ref('DuMode'),
  contact_id: idOf('ctc'),
  tags: arr(str()),
  unread_count: int({ minimum: 0, description: 'inbound messages the team has not read' }),
  last_message_at: nullable(dateTime('time of the latest message either way')),
  last_message_preview: nullable(str({ maxLength: 140, description: 'the first characters of the latest message text' })),
  created_at: dateTime('when the conversation started'),
  updated_at: dateTime('last change'),
  closed_at: nullable(dateTime('when it was closed; null unless closed')),
};

/**
 * The inbox is a CRM without direct contact data: no phone number, e-mail,
 * channel address (JID, chat id, handle) or channel session is ever returned.
 */
export const schemas: Record<string, JsonSchema> = {
  ChannelType: str({ enum: [...CHANNEL_TYPES], description: 'Kind of messaging channel (never the address or session).' }),
  ConversationStatus: str({
    enum: [...CONVERSATION_STATUSES],
    description:
      '`open`: waiting for the team; `pending`: waiting for the contact (set when the team replies); `closed`: ended (close). ' +
      'A new inbound message reopens a pending or closed conversation as `open`.',
  }),
  Priority: str({ enum: [...PRIORITIES], description: 'Urgency of a conversation.' }),
  DuMode: str({
    enum: [...DU_MODES],
    description:
      'DU (automation) mode: `auto` — journeys and automatic answers act alone; `assisted` — automations only suggest, ' +
      'a person sends; `off` — automations are off for the conversation.',
  }),
  Conversation: record(CONVERSATION_FIELDS, { description: 'Conversation metadata and context. No phone number, e-mail or channel address.' }),
  ConversationContext: record(
    {
      ...CONVERSATION_FIELDS,
      contact: ref('Contact'),
      last_messages: arr(ref('Message'), { maxItems: LAST_MESSAGES, description: `the latest ${LAST_MESSAGES} messages, newest first` }),
    },
    {
      description:
        'A conversation with its contact profile (stage, interests, tags) and latest messages. No phone number, e-mail or channel address.',
    },
  ),
  ConversationUpdate: object(
    {
      assignee: nullable({ ...ASSIGNEE, description: `${ASSIGNEE.description as string}; null unassigns` }),
      priority: ref('Priority'),
      du_mode: ref('DuMode'),
      tags: arr(TAG, { maxItems: 30, uniqueItems: true, description: "replaces the conversation's tags" }),
      status: str({
        enum: ['open', 'pending'],
        description:
          '`open` (waiting for the team) or `pending` (waiting for the contact); closing is `POST …/close`, and a closed conversation reopens with a new inbound message',
      }),
    },
    [],
    { description: 'Assign, prioritise, tag, move between open and pending, or change the DU mode. Only the fields sent change.' },
  ),
  ConversationCloseRequest: object(
    { reason: str({ minLength: 1, maxLength: 500, description: 'why the conversation was closed, kept in its history and event' }) },
    [],
    { description: 'Optional details of the close.' },
  ),
  Message: record(
    {
      id: idOf('msg'),
      conversation_id: idOf('cnv'),
      direction: str({ enum: ['inbound', 'outbound'], description: '`inbound` from the contact, `outbound` from the team or an automation' }),
      author: str({ enum: ['contact', 'team', 'automation'], description: 'who wrote it: the contact, a person of the team, or a journey' }),
      agent: nullable(str({ description: 'the team member who sent an outbound reply, when named; null otherwise' })),
      text: nullable(str({ description: 'the text; null for a media-only message' })),
      media_type: nullable(str({ enum: [...MEDIA_TYPES], description: 'kind of attached media, if any' })),
      media_urls: arr(str({ format: 'uri' }), { description: 'links to the attached media, as the channel gave them' }),
      template_id: nullable(idOf('tpl', 'template an outbound reply was rendered from')),
      status: str({
        enum: [...MESSAGE_STATUSES],
        description: 'inbound messages are `received`; outbound ones move queued → sent → delivered → read, or → failed',
      }),
      error: nullable(
        str({
          description:
            "why an outbound message failed (the channel's classified answer — a status, a timeout — or `internal error; quote reply-msg_…`); null otherwise",
        }),
      ),
      sent_at: nullable(dateTime('when the channel accepted (outbound) or sent (inbound) it; null while queued')),
      created_at: dateTime('when it was recorded'),
    },
    { description: 'One message of a conversation.' },
  ),
  ConversationReply: {
    description:
      'A reply: free `text`, or a template (`template_id`, placeholders filled from `offer_id` when given), with an optional ' +
      'image (`media_urls`, one link). It is registered as an outbound message (`queued`) and delivered by the channel ' +
      'connector (workflow `reply-<message id>`): follow its `status` in the message history.',
    oneOf: [
      object({ text: REPLY_TEXT, media_urls: REPLY_MEDIA, agent: REPLY_AGENT }, ['text'], { description: 'A text reply.' }),
      object(
        {
          template_id: idOf('tpl', 'the template to render'),
          offer_id: idOf('off', 'fills the template placeholders (`{title}`, `{price}`, …) from this offer'),
          media_urls: REPLY_MEDIA,
          agent: REPLY_AGENT,
        },
        ['template_id'],
        { description: 'A reply rendered from a template.' },
      ),
    ],
  },
  Contact: record(
    {
      id: idOf('ctc'),
      display_name: nullable(str({ description: 'the name the contact shows on the channel; null when unknown' })),
      channels: arr(ref('ChannelType'), { description: 'channels the contact has talked on' }),
      stage: str({ enum: [...CONTACT_STAGES], description: 'relationship stage' }),
      interests: arr(str(), { description: 'interests inferred from conversations and clicks (e.g. categories)' }),
      tags: arr(str()),
      conversation_count: int({ minimum: 0 }),
      first_seen_at: dateTime('first message'),
      last_seen_at: nullable(dateTime('latest inbound message')),
    },
    { description: 'A contact profile without direct contact data: no phone number, e-mail or channel address.' },
  ),
};

const conversations = resource({ tag: 'Inbox', area: 'inbox', path: '/inbox/conversations', name: 'conversation', schema: 'Conversation' });
const contacts = resource({ tag: 'Inbox', area: 'inbox', path: '/inbox/contacts', name: 'contact', schema: 'Contact' });

export const operations: OperationDef[] = [
  conversations.list({
    summary: 'List conversation metadata, latest activity first',
    filters: [
      filter('status', 'Only conversations in this state.', ref('ConversationStatus')),
      filter('channel', 'Only conversations of this channel type.', ref('ChannelType')),
      filter('assignee', 'Only conversations assigned to this team member.', ASSIGNEE),
      filter('priority', 'Only conversations of this priority.', ref('Priority')),
      filter('contact_id', 'Only conversations of this contact.', idOf('ctc')),
    ],
  }),
  {
    ...conversations.get({ summary: 'Conversation context without direct contact data' }),
    success: {
      status: 200,
      description: 'The conversation, its contact profile and its latest messages.',
      schema: singleEnvelope(ref('ConversationContext')),
    },
  },
  conversations.update({ summary: 'Assign, prioritise, change DU mode' }),
  {
    operationId: 'conversation_close',
    method: 'post',
    path: '/inbox/conversations/{id}/close',
    scope: 'inbox:write',
    tag: 'Inbox',
    summary: 'End the conversation and record an event',
    description: 'Closing a conversation that is already closed is a 409 `conflict`.',
    body: { schema: ref('ConversationCloseRequest'), required: false },
    success: { status: 200, description: 'The closed conversation and the event recorded.', schema: eventEnvelope(ref('Conversation')) },
  },
  conversations.nested({ name: 'message', schema: 'Message' }).list({
    summary: 'Message history, newest first',
    description:
      'Newest message first (time, then id). `limit`/`offset` page through it; pages do not move while new messages arrive when ' +
      'each next page is asked with `before` set to the last message id of the page before (offset then stays 0).',
    filters: [filter('before', 'Only messages older than this message (keyset paging: the last id of the previous page).', idOf('msg'))],
  }),
  {
    operationId: 'conversation_reply',
    method: 'post',
    path: '/inbox/conversations/{id}/reply',
    scope: 'inbox:write',
    tag: 'Inbox',
    summary: 'Register an outbound reply for the channel connector',
    description:
      "The message is stored as `queued` and its workflow `reply-<message id>` delivers it through the conversation's channel " +
      'with the pacing and retries of publications; its `status` moves to `sent` or `failed` (with `error`) in the message ' +
      'history, with the event `message.sent` or `message.failed`. An open conversation becomes `pending` (waiting for the ' +
      'contact). A closed conversation is a 409 `conversation_closed`; a channel deleted, or no longer able to send (no ' +
      'gateway URL, no bot token), a 409 `channel_unavailable`.',
    body: { schema: ref('ConversationReply'), required: true },
    success: { status: 202, description: 'The registered message (`queued`).', schema: singleEnvelope(ref('Message')) },
  },
  contacts.list({
    summary: 'Contact profiles, stage and interests (no phone or e-mail)',
    description: 'Latest seen first.',
    filters: [
      filter('stage', 'Only contacts at this stage.', str({ enum: [...CONTACT_STAGES] })),
      filter('tag', 'Only contacts with this tag.', TAG),
      filter('channel', 'Only contacts seen on this channel type.', ref('ChannelType')),
      filter('query', 'Case-insensitive search in the display name.', str({ minLength: 1, maxLength: 120 })),
    ],
  }),
];

/**
 * The body a gateway POSTs to `/inbound/{channel_id}` for each message it
 * receives (the inbound half of the `http` gateway protocol;
 * docs/guides/publishing.md). Outside /api/v1 and its key scheme: not an
 * operation of the document, validated with this schema.
 */
export const INBOUND_MESSAGE: JsonSchema = object(
  {
    id: str({ minLength: 1, maxLength: 200, description: "the channel's own message id: a repeat of it stores nothing new" }),
    from: str({ minLength: 1, maxLength: 200, description: "the sender's address (a phone JID, a chat id); stored sealed" }),
    group: str({ minLength: 1, maxLength: 200, description: 'the group address when the message came from a group; stored sealed' }),
    name: str({ minLength: 1, maxLength: 120, description: 'the display name the sender shows' }),
    text: str({ minLength: 1, maxLength: 8192, description: 'the text; leave out for a media-only message' }),
    media_urls: arr(str({ format: 'uri', maxLength: 2000 }), { minItems: 1, maxItems: 10, description: 'links to the attached media' }),
    media_type: str({ enum: [...MEDIA_TYPES], description: 'kind of the attached media' }),
    network: str({
      enum: ['whatsapp', 'instagram', 'messenger', 'webchat'],
      description: 'the chat network behind the gateway (default whatsapp)',
    }),
    sent_at: dateTime('when the sender sent it (default: when we received it)'),
  },
  ['id', 'from'],
  { description: 'One message a gateway received: text, media or both (one of `text`, `media_urls` is required).' },
);
