/**
 * Integrations as operators manage them (`offerops admin integration
 * set|list|delete`; the panel later): the checks of each marketplace's
 * fields, and the summary a listing shows — never a secret.
 */
import { Db } from 'mongodb';
import { Tenant } from '../db';
import { invalid, notFound } from '../errors';
import { IntegrationConfig, Marketplace, MARKETPLACES } from '../marketplaces';
import { deleteIntegration, Integration, listIntegrations, putIntegration } from './store';

/** The fields an operator gives, as text (the CLI's options). */
export interface IntegrationInput {
  marketplace: string;
  tag?: string;
  tool?: string;
  word?: string;
  affiliate_id?: string;
  app_id?: string;
  app_secret?: string;
  /** AliExpress: `k=v,k=v` (the portal's tracking parameters: aff_fcid, aff_fsk, aff_platform, sk, aff_trace_key, terminal_id…). */
  params?: string;
  store?: string;
  template?: string;
  /** `other`: the hosts (comma list) its template converts. */
  hosts?: string;
  sub_id_param?: string;
}

const IDENT = /^[A-Za-z0-9_.~-]{1,100}$/;
const PARAM_NAME = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;
const HOST = /^(?=.{1,253}$)([a-z0-9-]{1,63}\.)+[a-z]{2,63}$/;

function need(input: IntegrationInput, field: keyof IntegrationInput, rule: RegExp, what: string): string {
  const value = input[field];
  if (value === undefined) throw invalid('validation_failed', `--${field.replaceAll('_', '-')} is required for ${input.marketplace}`);
  if (!rule.test(value)) throw invalid('validation_failed', `--${field.replaceAll('_', '-')} must be ${what}`);
  return value;
}

function subIdParam(input: IntegrationInput): { sub_id_param?: string } {
  if (input.sub_id_param === undefined) return {};
  return { sub_id_param: need(input, 'sub_id_param', PARAM_NAME, 'a query parameter name (letters, digits, _; at most 40)') };
}

/** The configuration the input describes, checked; a 400 naming the first field that is wrong. */
export function integrationConfig(input: IntegrationInput): IntegrationConfig {
  const marketplace = input.marketplace as Marketplace;
  if (!MARKETPLACES.includes(marketplace)) throw invalid('validation_failed', `--marketplace must be one of ${MARKETPLACES.join(', ')}`);
  const ident = 'letters, digits, _ . ~ - (1 to 100)';
  switch (marketplace) {
    case 'amazon':
      return { marketplace, tag: need(input, 'tag', IDENT, ident), ...subIdParam(input) };
    case 'mercadolivre':
      return { marketplace, tool: need(input, 'tool', IDENT, ident), word: need(input, 'word', IDENT, ident), ...subIdParam(input) };
    case 'shopee': {
      if ((input.app_id === undefined) !== (input.app_secret === undefined))
        throw invalid('validation_failed', 'give --app-id and --app-secret together (the Shopee affiliate API credentials), or neither');
      return {
        marketplace,
        affiliate_id: need(input, 'affiliate_id', /^[0-9]{1,20}$/, 'the numeric Shopee affiliate id'),
        ...(input.app_id !== undefined
          ? {
              app_id: need(input, 'app_id', /^[0-9]{1,20}$/, 'the numeric app id'),
              app_secret: need(input, 'app_secret', /^\S{1,200}$/, 'the app secret'),
            }
          : {}),
        ...subIdParam(input),
      };
    }
    case 'aliexpress': {
      const raw = need(input, 'params', /^\S{1,1000}$/, 'k=v pairs joined by commas');
      const params: Record<string, string> = {};
      for (const pair of raw.split(',')) {
        const [k, v, ...rest] = pair.split('=');
        if (!k || !PARAM_NAME.test(k) || v === undefined || !IDENT.test(v) || rest.length)
          throw invalid('validation_failed', `--params: ${JSON.stringify(pair)} is not name=value (name: letters, digits, _; value: ${ident})`);
        params[k] = v;
      }
      if (Object.keys(params).length > 10) throw invalid('validation_failed', '--params holds at most 10 parameters');
      return { marketplace, params, ...subIdParam(input) };
    }
    case 'magalu':
      return {
        marketplace,
        store: need(
          input,
          'store',
          /^[a-z0-9][a-z0-9_-]{0,59}$/,
          'the store path of Parceiro Magalu (magazinevoce.com.br/<store>): lower-case letters, digits, _ -',
        ),
        ...subIdParam(input),
      };
    case 'other': {
      const template = need(input, 'template', /^https:\/\/\S{1,1000}$/, 'an https URL template');
      if (!template.includes('{url}')) throw invalid('validation_failed', '--template must contain the {url} placeholder');
      const hosts = need(input, 'hosts', /^\S{1,2000}$/, 'a comma list of host names')
        .split(',')
        .map((h) => h.trim().toLowerCase());
      const bad = hosts.find((h) => !HOST.test(h));
      if (bad !== undefined) throw invalid('validation_failed', `--hosts: ${JSON.stringify(bad)} is not a host name`);
      if (hosts.length > 50) throw invalid('validation_failed', '--hosts names at most 50 hosts');
      return { marketplace, template, hosts };
    }
  }
}

/** What a listing shows of an integration: its identifiers, whether a secret is set, never the secret. */
export function integrationSummary(i: Integration): Record<string, unknown> {
  const { app_secret: secret, ...shown } = i.config as IntegrationConfig & { app_secret?: string };
  return {
    id: i.id,
    ...shown,
    ...(i.marketplace === 'shopee' ? { has_api_credentials: secret !== undefined } : {}),
    created_at: i.created_at.toISOString(),
    updated_at: i.updated_at.toISOString(),
  };
}

export async function setIntegration(db: Db, tenant: Tenant, input: IntegrationInput, key: Buffer) {
  const config = integrationConfig(input);
  const { id, created } = await putIntegration(db, tenant, config, key);
  return { integration_id: id, marketplace: config.marketplace, created };
}

export async function listOperatorIntegrations(db: Db, tenant: Tenant, key: Buffer): Promise<Record<string, unknown>[]> {
  return (await listIntegrations(db, tenant, key)).map(integrationSummary);
}

export async function removeIntegration(db: Db, tenant: Tenant, marketplace: string): Promise<void> {
  if (!MARKETPLACES.includes(marketplace as Marketplace))
    throw invalid('validation_failed', `--marketplace must be one of ${MARKETPLACES.join(', ')}`);
  if (!(await deleteIntegration(db, tenant, marketplace as Marketplace))) throw notFound('integration', marketplace);
}
