/**
 * The catalogue of domain events: one JSON schema per kind and version in
 * this folder (`<kind>.v<version>.json`). Event data reuse the API's records
 * by reference to the OpenAPI document.
 */
import { validatorFor } from '../validator';
import groupUpdated from './group.updated.v1.json';
import offerArchived from './offer.archived.v1.json';
import offerCreated from './offer.created.v1.json';
import offerPreviewed from './offer.previewed.v1.json';
import offerUpdated from './offer.updated.v1.json';
import segmentCreated from './segment.created.v1.json';
import segmentDeleted from './segment.deleted.v1.json';
import segmentUpdated from './segment.updated.v1.json';

const SCHEMAS = [
  offerCreated,
  offerUpdated,
  offerArchived,
  offerPreviewed,
  groupUpdated,
  segmentCreated,
  segmentUpdated,
  segmentDeleted,
] as const;

export type EventKind = string;

export interface EventDefinition {
  kind: EventKind;
  version: number;
  schema: Record<string, unknown>;
}

export const EVENT_CATALOGUE: readonly EventDefinition[] = SCHEMAS.map((schema) => ({
  kind: schema.properties.kind.const,
  version: schema.properties.version.const,
  schema,
}));

const byKind = new Map(EVENT_CATALOGUE.map((d) => [d.kind, d]));

export function eventDefinition(kind: EventKind): EventDefinition {
  const def = byKind.get(kind);
  if (!def) throw new Error(`event kind ${kind} is not in the catalogue`);
  return def;
}

/** Validates a published event against the schema of its kind; the Ajv errors, or null. */
export function eventErrors(event: { kind: EventKind }): string | null {
  const validate = validatorFor(eventDefinition(event.kind).schema);
  return validate(event) ? null : JSON.stringify(validate.errors);
}
