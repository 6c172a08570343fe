import {
  arr,
  bool,
  dateTime,
  deletionEnvelope,
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

export const TEMPLATE_FORMATS = ['plain', 'markdown', 'whatsapp', 'telegram_html'] as const;
export const PLACEHOLDERS = ['title', 'price', 'original_price', 'discount_pct', 'coupon', 'store', 'url', 'raw_url', 'copy'] as const;

const PLACEHOLDER_LIST = PLACEHOLDERS.map((p) => `\`{${p}}\``).join(', ');

const templateFields = (create: boolean): Record<string, JsonSchema> => ({
  name: str({ minLength: 1, maxLength: 120, description: 'name shown to the team' }),
  description: create ? str({ maxLength: 500 }) : nullable(str({ maxLength: 500 })),
  body: str({
    minLength: 1,
    maxLength: 4096,
    description:
      `The message, with placeholders filled from the offer when it is rendered: ${PLACEHOLDER_LIST}. ` +
      'Prices are formatted in the offer currency, `{discount_pct}` is the whole percentage off (no sign). ' +
      "`{url}` is the offer's tracked link when the account has an integration for its marketplace (each group gets its own; " +
      'the preview shows the affiliate URL), else the offer URL; `{raw_url}` is always the offer URL as it was given. ' +
      'A missing value renders as nothing, and a line whose placeholders are all missing is dropped with its labels. ' +
      'Write `{{` and `}}` for literal braces. An unknown placeholder or a lone brace is a 400 `validation_failed` ' +
      'whose `details` name the field `body` and the placeholder.',
  }),
  format: str({
    enum: [...TEMPLATE_FORMATS],
    description:
      'The markup `body` is written in, which decides how offer values are escaped: `plain` (no markup, values as they are), ' +
      '`markdown` (Markdown metacharacters in values are backslash-escaped, the url is not), `whatsapp` (`*bold*`, `_italic_`, ' +
      '`~strike~`; WhatsApp has no escape, values go as they are) or `telegram_html` (`<b>`, `<i>`, `<a href>`…; values are ' +
      'HTML-escaped).',
    ...(create ? { default: 'plain' } : {}),
  }),
  is_default: bool({
    description:
      'the template used when a preview or publication names none: for its segment (`segment_id`), or for the whole account ' +
      '(no segment) when the segment has no default; setting it clears the flag on the previous default of the same scope',
    ...(create ? { default: false } : {}),
  }),
  segment_id: create
    ? idOf('seg', "the segment the template belongs to (with `is_default`, that segment's default); omitted for an account-wide template")
    : nullable(idOf('seg', 'the segment the template belongs to; null makes it account-wide')),
});

export const schemas: Record<string, JsonSchema> = {
  TemplateFormat: str({ enum: [...TEMPLATE_FORMATS], description: 'Markup of a template body.' }),
  TemplateCreate: object(templateFields(true), ['name', 'body'], { description: 'A reusable message template.' }),
  TemplateUpdate: object(templateFields(false), [], { description: 'Only the fields sent change; `null` clears an optional value.' }),
  Template: record(
    {
      id: idOf('tpl'),
      name: str(),
      description: nullable(str()),
      body: str(),
      format: ref('TemplateFormat'),
      is_default: bool(),
      segment_id: nullable(idOf('seg')),
      placeholders: arr(str({ enum: [...PLACEHOLDERS] }), { description: 'placeholders the body uses, in order of first use' }),
      schedule_count: int({
        minimum: 0,
        description:
          'schedules that use the template and may still run (while any does, the template cannot be deleted; completed ones do not count)',
      }),
      created_at: dateTime('creation time'),
      updated_at: dateTime('last change'),
    },
    { description: 'A reusable message template.' },
  ),
  TemplateDeletion: { ...deletionEnvelope('true: the template was removed'), description: 'Result of DELETE /templates/{id}.' },
};

const templates = resource({ tag: 'Templates', area: 'templates', path: '/templates', name: 'template', schema: 'Template' });

export const operations: OperationDef[] = [
  templates.list({
    summary: 'List templates',
    filters: [
      filter('segment_id', 'Only templates of this segment.', idOf('seg')),
      filter('format', 'Only templates of this format.', ref('TemplateFormat')),
      filter('is_default', 'Only default templates (`true`) or only the others (`false`).', bool()),
    ],
  }),
  templates.create({
    summary: 'Create a reusable template',
    description:
      'An unknown placeholder in `body` is a 400 `validation_failed`; a `segment_id` this account does not have is a 400 ' +
      '`unknown_reference`. With `is_default: true` the previous default of the same scope stops being the default.',
  }),
  templates.get({ summary: 'Template body and configuration' }),
  templates.update({
    summary: 'Update the fields sent',
    description:
      'The same checks as on creation. Setting `is_default: true` (or moving a default template to another scope) clears ' +
      'the flag on the previous default of that scope.',
  }),
  templates.delete({
    summary: 'Delete a template no schedule uses',
    description:
      'A template named by a schedule that may still run (active or paused) is refused with 409 `resource_in_use`; ' +
      'completed schedules are history and do not hold it.',
  }),
];
