/**
 * Link conversion (`POST /links/convert`) and the tracked links of a
 * publication's fan-out: detect the marketplace (following short links
 * first), strip others' parameters, apply only this tenant's integration,
 * store a tracked link. The rules themselves are pure (../marketplaces.ts).
 */
import { Db } from 'mongodb';
import { Tenant, tenantCollection } from '../db';
import { DomainError, invalid, unknownReference } from '../errors';
import { commitEvents } from '../events/commit';
import { prepareEvent } from '../events/store';
import { DomainDeps } from '../resource';
import { getIntegration, Integration } from '../integrations/store';
import { OfferDoc } from '../offers/store';
import { applyIntegration, Applied, isShortLink, Marketplace, marketplaceOfHost, otherCovers, stripTracking } from '../marketplaces';
import { resolveShortLink } from './resolve';
import { shopeeShortLink, SHOPEE_API_URL } from './shopee';
import { insertLink, insertLinks, LinkFields, linkIdOf, newCode } from './store';

export interface LinkDeps {
  db: Db;
  /** Unseals integrations. */
  secretKey: Buffer;
  /** Hosts or addresses a short link may lead to although private or loopback (OFFEROPS_WEBHOOK_ALLOW). */
  webhookAllow?: readonly string[];
  /** Hosts treated as short links besides the marketplaces' own (OFFEROPS_SHORTLINK_HOSTS, e.g. bit.ly). */
  shortLinkHosts?: readonly string[];
  /** Shopee's affiliate API (OFFEROPS_SHOPEE_API_URL). */
  shopeeApiUrl?: string;
  /** Where `/l/{code}` is served (OFFEROPS_PUBLIC_URL). */
  publicUrl?: string;
}

export const DEFAULT_PUBLIC_URL = 'http://127.0.0.1:8080';

export const shortUrlOf = (deps: { publicUrl?: string }, code: string): string =>
  `${(deps.publicUrl ?? DEFAULT_PUBLIC_URL).replace(/\/+$/, '')}/l/${code}`;

export interface ConvertInput {
  url: string;
  marketplace?: Marketplace;
  sub_id?: string;
  offer_id?: string;
}

export interface Conversion {
  original_url: string;
  resolved_url: string | null;
  affiliate_url: string;
  marketplace: Marketplace;
  integration: string;
  sub_id: string | null;
  link_id: string;
  short_url: string;
  offer_id: string | null;
}

const urlDetail = (rule: string, message: string) => [{ location: 'body' as const, field: 'url', rule, message }];

/** The marketplace of the URL and the tenant's integration for it; 400 for an unknown host, 404 naming a missing integration. */
async function integrationFor(deps: LinkDeps, tenant: Tenant, url: URL, asked?: Marketplace): Promise<Integration> {
  const detected = marketplaceOfHost(url.hostname);
  if (asked && asked !== 'other' && detected !== asked)
    throw invalid('unknown_marketplace', `The URL is not a ${asked} URL (${url.hostname}).`, urlDetail('marketplace', `is not a ${asked} URL`));
  const marketplace = asked ?? detected;
  if (marketplace === null) {
    const other = await getIntegration(deps.db, tenant, 'other', deps.secretKey);
    if (other && otherCovers(other.config, url.hostname)) return other;
    throw invalid(
      'unknown_marketplace',
      `${url.hostname} is not a host of a supported marketplace (amazon, mercadolivre, shopee, aliexpress, magalu) nor of this account's "other" integration.`,
      urlDetail('marketplace', 'is of no supported marketplace'),
    );
  }
  const integration = await getIntegration(deps.db, tenant, marketplace, deps.secretKey);
  if (!integration)
    throw new DomainError(
      'integration_missing',
      `This account has no ${marketplace} integration in this environment: an operator adds it with offerops admin integration set --marketplace ${marketplace}.`,
    );
  return integration;
}

/** Applies the integration to a product URL of its marketplace (Shopee: its API's short link when the integration has credentials). */
async function affiliate(deps: LinkDeps, integration: Integration, url: URL, subId: string | null): Promise<Applied> {
  if (integration.marketplace !== 'other') url.protocol = 'https:';
  const stripped = stripTracking(url, integration.marketplace);
  const applied = applyIntegration(stripped, integration.config, subId);
  const c = integration.config;
  if (c.marketplace === 'shopee' && c.app_id && c.app_secret) {
    const short = await shopeeShortLink(
      deps.shopeeApiUrl ?? SHOPEE_API_URL,
      { appId: c.app_id, secret: c.app_secret },
      stripped.toString(),
      subId ? [subId] : [],
    );
    return { ...applied, affiliateUrl: short };
  }
  return applied;
}

export async function convertLink(deps: LinkDeps & DomainDeps, tenant: Tenant, input: ConvertInput): Promise<Conversion> {
  let url = new URL(input.url);
  let resolved: string | null = null;
  const extra = deps.shortLinkHosts ?? [];
  if (isShortLink(url, extra)) {
    url = await resolveShortLink(url.toString(), deps.webhookAllow ?? [], (next) => isShortLink(next, extra));
    resolved = url.toString();
  }
  if (input.offer_id && !(await tenantCollection<OfferDoc>(deps.db, 'offers', tenant).findById(input.offer_id)))
    throw unknownReference('offer_id', 'offer', input.offer_id);
  const integration = await integrationFor(deps, tenant, url, input.marketplace);
  const subId = input.sub_id ?? null;
  const applied = await affiliate(deps, integration, url, subId);
  const code = newCode();
  const link: LinkFields = {
    _id: linkIdOf(code),
    code,
    marketplace: integration.marketplace,
    integration_id: integration.id,
    original_url: input.url,
    affiliate_url: applied.affiliateUrl,
    target: applied.target,
    sub_id: subId,
    offer_id: input.offer_id ?? null,
    publication_id: null,
    group_id: null,
    segment_id: null,
    created_at: new Date(),
  };
  await insertLink(
    deps.db,
    tenant,
    link,
    prepareEvent(tenant, 'link.created', {
      link_id: link._id,
      marketplace: link.marketplace,
      integration_id: integration.id,
      offer_id: link.offer_id,
    }),
  );
  await commitEvents(deps, 'links', link._id);
  return {
    original_url: input.url,
    resolved_url: resolved,
    affiliate_url: applied.affiliateUrl,
    marketplace: integration.marketplace,
    integration: integration.id,
    sub_id: subId,
    link_id: link._id,
    short_url: shortUrlOf(deps, code),
    offer_id: link.offer_id,
  };
}

/** What a publication's links are for. */
export interface LinkContext {
  offer_id: string | null;
  publication_id: string | null;
  segment_id: string | null;
}

/**
 * The integration that converts an offer's URL on the publish path, and the
 * URL ready for it: null when the URL is of no marketplace this tenant has an
 * integration for, or a short link (not followed here: this is the publish
 * path; convert it first). No marketplace API is called either.
 */
async function offerConversion(
  deps: Pick<LinkDeps, 'db' | 'secretKey' | 'shortLinkHosts'>,
  tenant: Tenant,
  rawUrl: string,
): Promise<{ integration: Integration; applied: Applied } | null> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return null;
  }
  if (isShortLink(url, deps.shortLinkHosts ?? [])) return null;
  // The one integration that can convert it (one read by `_id`): the detected marketplace's, else the template one.
  const detected = marketplaceOfHost(url.hostname);
  const integration = await getIntegration(deps.db, tenant, detected ?? 'other', deps.secretKey);
  if (!integration || (!detected && !otherCovers(integration.config, url.hostname))) return null;
  if (integration.marketplace !== 'other') url.protocol = 'https:';
  return { integration, applied: applyIntegration(stripTracking(url, integration.marketplace), integration.config, null) };
}

/** The affiliate URL of an offer's URL (what a preview shows for `{url}`); null when the tenant has no integration for it. Writes nothing. */
export async function affiliateUrlFor(
  deps: Pick<LinkDeps, 'db' | 'secretKey' | 'shortLinkHosts'>,
  tenant: Tenant,
  rawUrl: string,
): Promise<string | null> {
  return (await offerConversion(deps, tenant, rawUrl))?.applied.affiliateUrl ?? null;
}

/**
 * The tracked links of one offer URL for several groups (one per group, so
 * each click names its publication and group), written in one insertMany:
 * group id → code. Empty when the tenant has no integration for the URL (the
 * raw URL is sent then).
 */
export async function trackedLinksFor(
  deps: Pick<LinkDeps, 'db' | 'secretKey' | 'shortLinkHosts'>,
  tenant: Tenant,
  rawUrl: string,
  groupIds: string[],
  context: LinkContext,
): Promise<Map<string, string>> {
  if (!groupIds.length) return new Map();
  const conversion = await offerConversion(deps, tenant, rawUrl);
  if (!conversion) return new Map();
  const { integration, applied } = conversion;
  const now = new Date();
  const links = groupIds.map((group_id): LinkFields => {
    const code = newCode();
    return {
      _id: linkIdOf(code),
      code,
      marketplace: integration.marketplace,
      integration_id: integration.id,
      original_url: rawUrl,
      affiliate_url: applied.affiliateUrl,
      target: applied.target,
      sub_id: null,
      ...context,
      group_id,
      created_at: now,
    };
  });
  await insertLinks(deps.db, tenant, links);
  return new Map(links.map((l) => [l.group_id!, l.code]));
}

/** In a publication's text, where each group's own link code goes (`<public url>/l/{link}`). */
export const LINK_CODE_PLACEHOLDER = '{link}';

/** The text a group receives: the publication's with that group's link code in place of LINK_CODE_PLACEHOLDER. */
export const textForGroup = (text: string, codes: Record<string, string> | undefined, groupId: string): string => {
  const code = codes?.[groupId];
  return code ? text.replaceAll(`/l/${LINK_CODE_PLACEHOLDER}`, `/l/${code}`) : text;
};
