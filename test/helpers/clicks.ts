/** A click recorded the way the redirect records it (its link stored, the click through a ClickBuffer written at once), for tests that need one without converting a link. */
import { Db } from 'mongodb';
import { Tenant } from '../../domain/db';
import { createLogger } from '../../domain/logger';
import { ClickBuffer, ClickLink } from '../../domain/links/clicks';
import { insertLinks, linkIdOf, newCode } from '../../domain/links/store';

/** Stores a link of `tenant` with `link`'s fields (amazon unless given) and one click through it; the click's id. */
export async function recordClick(db: Db, tenant: Tenant, link: Partial<Omit<ClickLink, 'link_id'>> = {}, at = new Date()): Promise<string> {
  const code = newCode();
  const fields = {
    _id: linkIdOf(code),
    code,
    marketplace: link.marketplace ?? 'amazon',
    integration_id: 'int_test',
    original_url: 'https://www.amazon.com.br/dp/B0TEST0001',
    affiliate_url: 'https://www.amazon.com.br/dp/B0TEST0001?tag=test-20',
    target: 'https://www.amazon.com.br/dp/B0TEST0001?tag=test-20',
    sub_id: null,
    offer_id: link.offer_id ?? null,
    publication_id: link.publication_id ?? null,
    group_id: link.group_id ?? null,
    segment_id: link.segment_id ?? null,
    created_at: at,
  };
  await insertLinks(db, tenant, [fields]);
  const buffer = new ClickBuffer(db, createLogger('test', 'silent'));
  const id = buffer.add({ ...fields, account_id: tenant.accountId, env: tenant.env }, { ua_class: 'mobile', bot: false, at });
  await buffer.close();
  return id;
}
