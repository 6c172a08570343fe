/**
 * The event kinds of the catalogue, from the names of its files
 * (`<kind>.v<version>.json`) alone: what the OpenAPI document offers as the
 * values of a webhook's `events` and a journey's `trigger` (it cannot import
 * the catalogue itself, which validates against the document).
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The folder of the JSON files: beside this source, or reached from its compiled copy under dist/. */
export const EVENTS_DIR = __dirname.includes(`${join('dist', 'schemas')}`) ? resolve(__dirname, '../../../schemas/events') : __dirname;

export const EVENT_FILE = /^([a-z_]+\.[a-z_]+)\.v\d+\.json$/;

/** Every kind of the catalogue, sorted. */
export const CATALOGUE_KINDS: readonly string[] = [
  ...new Set(readdirSync(EVENTS_DIR).flatMap((f) => (EVENT_FILE.exec(f)?.[1] ? [EVENT_FILE.exec(f)![1]!] : []))),
].sort();
