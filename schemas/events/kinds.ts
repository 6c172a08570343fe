/**
 * The event kinds of the catalogue, from the names of its files
 * (`<kind>.v<version>.json`), for the OpenAPI document's enums (journey
 * triggers, webhook subscriptions). Reads no schema, so the document can use
 * it without the validator (index.ts builds one from the document).
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The folder of the JSON files: beside this source, or reached from its compiled copy under dist/. */
const EVENTS_DIR = __dirname.includes(`${join('dist', 'schemas')}`) ? resolve(__dirname, '../../../schemas/events') : __dirname;

export const EVENT_KIND_NAMES: readonly string[] = [
  ...new Set(
    readdirSync(EVENTS_DIR)
      .map((file) => /^([a-z_]+\.[a-z_]+)\.v\d+\.json$/.exec(file)?.[1])
      .filter((kind): kind is string => kind !== undefined),
  ),
].sort();
