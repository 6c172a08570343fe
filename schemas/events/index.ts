/**
 * The catalogue of domain events: one JSON schema per kind and version in
 * this folder, named `<kind>.v<version>.json`. Event data reuse the API's
 * records by reference to the OpenAPI document. Adding a kind is adding a file.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type * as validatorModule from '../validator';

export type EventKind = string;

export interface EventDefinition {
  kind: EventKind;
  version: number;
  schema: Record<string, unknown>;
}

/** The folder of the JSON files: beside this source, or reached from its compiled copy under dist/. */
export const EVENTS_DIR = __dirname.includes(`${join('dist', 'schemas')}`) ? resolve(__dirname, '../../../schemas/events') : __dirname;

/** What the catalogue reads of an event's schema file: the constants of its `kind` and `version`. */
type EventSchemaFile = Record<string, unknown> & { properties?: { kind?: { const?: unknown }; version?: { const?: unknown } } };

function definitionOf(file: string): EventDefinition {
  const schema = JSON.parse(readFileSync(join(EVENTS_DIR, file), 'utf8')) as EventSchemaFile;
  const kind = schema.properties?.kind?.const;
  const version = schema.properties?.version?.const;
  if (typeof kind !== 'string' || typeof version !== 'number') throw new Error(`${file}: no constant kind (string) and version (number)`);
  return { kind, version, schema };
}

function load(): EventDefinition[] {
  return readdirSync(EVENTS_DIR)
    .filter((f) => /^[a-z_]+\.[a-z_]+\.v\d+\.json$/.test(f))
    .sort()
    .map(definitionOf);
}

export const EVENT_CATALOGUE: readonly EventDefinition[] = load();

/** The newest version of each kind is the one emitted. */
const current = new Map<EventKind, EventDefinition>();
for (const d of EVENT_CATALOGUE) if ((current.get(d.kind)?.version ?? 0) < d.version) current.set(d.kind, d);

export const EVENT_KINDS: readonly EventKind[] = [...current.keys()].sort();

export function eventDefinition(kind: EventKind): EventDefinition {
  const def = current.get(kind);
  if (!def) throw new Error(`event kind ${kind} is not in the catalogue`);
  return def;
}

/** The validator, loaded with the first event checked: a process that records none (most CLI commands) never loads Ajv. */
let validator: typeof validatorModule | undefined;

/** Validates a published event against the schema of its kind and version; the Ajv errors, or null. */
export function eventErrors(event: { kind: EventKind; version: number }): string | null {
  const def = EVENT_CATALOGUE.find((d) => d.kind === event.kind && d.version === event.version);
  if (!def) return `no schema for ${event.kind} v${event.version}`;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- synchronous, as its callers are
  validator ??= require('../validator') as typeof validatorModule;
  const validate = validator.validatorFor(def.schema);
  return validate(event) ? null : JSON.stringify(validate.errors);
}
