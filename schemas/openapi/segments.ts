import {
  FORM_KEYWORD,
  FORMS,
  bool,
  dateTime,
  deletionEnvelope,
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

export const DISTRIBUTIONS = ['broadcast', 'round_robin', 'least_loaded'] as const;

const segmentFields: Record<string, JsonSchema> = {
  name: str({ minLength: 1, maxLength: 120 }),
  slug: str({
    minLength: 1,
    maxLength: 80,
    pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$',
    [FORM_KEYWORD]: FORMS.slug,
    description: 'public slug, unique per account and environment; derived from name when omitted',
  }),
  description: str({ maxLength: 2000 }),
  store_name: str({ maxLength: 120, description: 'storefront name' }),
  store_tagline: str({ maxLength: 240, description: 'storefront phrase' }),
  store_color: str({
    maxLength: 7,
    pattern: '^#[0-9A-Fa-f]{6}$',
    [FORM_KEYWORD]: FORMS.color,
    description: 'main colour, #RRGGBB',
  }),
  auto_expand: bool({ description: 'open a new group automatically when the linked ones are full' }),
  distribution: ref('Distribution'),
  waitlist: bool({ description: 'keep a waiting list when every group is full' }),
};

export const schemas: Record<string, JsonSchema> = {
  Distribution: str({
    enum: [...DISTRIBUTIONS],
    description:
      '`broadcast`: every active group of the segment receives each publication; `round_robin`: groups take turns; ' +
      '`least_loaded`: the active group with the fewest deliveries queued to it in the last 24 hours.',
  }),
  SegmentCreate: object(segmentFields, ['name']),
  SegmentUpdate: object(segmentFields, [], { description: 'Only the fields sent change.' }),
  Segment: record({
    id: idOf('seg'),
    name: str(),
    slug: str(),
    description: nullable(str()),
    store_name: nullable(str()),
    store_tagline: nullable(str()),
    store_color: nullable(str()),
    auto_expand: bool(),
    distribution: ref('Distribution'),
    waitlist: bool(),
    group_count: int({ minimum: 0, description: 'groups linked to the segment' }),
    created_at: dateTime('creation time'),
    updated_at: dateTime('last change'),
  }),
  SegmentDeletion: deletionEnvelope('true: the segment was removed'),
};

const segments = resource({ tag: 'Segments', area: 'segments', path: '/segments', name: 'segment', schema: 'Segment' });

export const operations: OperationDef[] = [
  segments.list({ summary: 'List segments' }),
  segments.create({ summary: 'Create a segment' }),
  segments.get({ summary: 'Segment detail' }),
  segments.update({ summary: 'Update identity, distribution, presentation' }),
  segments.delete({
    summary: 'Delete a segment no group or schedule links to',
    description:
      'A segment linked to groups or to schedules that may still run is refused with 409 `resource_in_use`; completed ' +
      'schedules (no run ahead) are history and do not hold it.',
  }),
];
