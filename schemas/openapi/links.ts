import { FORMS, FORM_KEYWORD, idOf, JsonSchema, nullable, object, OperationDef, record, ref, singleEnvelope, str } from './common';

/** The marketplaces an account can have an integration for (`other`: any network, by a URL template). */
export const LINK_MARKETPLACES = ['amazon', 'mercadolivre', 'shopee', 'aliexpress', 'magalu', 'other'] as const;

export const schemas: Record<string, JsonSchema> = {
  LinkConvertRequest: object(
    {
      url: str({
        format: 'uri',
        pattern: '^https?://',
        [FORM_KEYWORD]: FORMS.http,
        maxLength: 2000,
        description: 'a product or listing page, or a short link of a marketplace (resolved first: at most 5 redirects)',
        examples: ['https://www.amazon.com.br/dp/B0CHX1W1XY'],
      }),
      marketplace: str({
        enum: [...LINK_MARKETPLACES],
        description: 'the integration to convert with; detected from the URL when omitted (`other` is chosen only by its hosts or by name)',
      }),
      sub_id: str({
        minLength: 1,
        maxLength: 64,
        pattern: '^[A-Za-z0-9_-]+$',
        [FORM_KEYWORD]: 'letters, digits, _ and -, e.g. whatsapp_group_1',
        description:
          "tracking label put in the marketplace's sub-id parameter of `affiliate_url` (each click of `short_url` carries its click id there instead)",
      }),
      offer_id: idOf('off', 'the catalogue offer this link is for: its clicks count for the offer'),
    },
    ['url'],
    { description: "A URL to convert into this account's affiliate link." },
  ),
  LinkConversion: record(
    {
      original_url: str({ format: 'uri' }),
      resolved_url: nullable(str({ format: 'uri', description: 'where the short link given led; null when `original_url` was no short link' })),
      affiliate_url: str({ format: 'uri', description: "the URL carrying this account's affiliate identity, others' tracking removed" }),
      marketplace: str({ enum: [...LINK_MARKETPLACES] }),
      integration: idOf('int', "the account's own integration that converted it"),
      sub_id: nullable(str()),
      link_id: idOf('lnk', 'the tracked link'),
      short_url: str({
        format: 'uri',
        description: 'our tracked short link (`/l/{code}`): redirects to the affiliate URL and records the click',
      }),
      offer_id: nullable(idOf('off', 'the offer given')),
    },
    { description: "The result of a conversion. Only this account's integrations are used; credentials are never returned." },
  ),
};

export const operations: OperationDef[] = [
  {
    operationId: 'link_convert',
    method: 'post',
    path: '/links/convert',
    scope: 'links:write',
    tag: 'Links',
    summary: "Convert a URL into an affiliate link using only this account's integrations",
    description:
      'Short links of the marketplaces (amzn.to, a.co, mercadolivre.com/sec, s.shopee.com.br, shope.ee, s.click.aliexpress.com, ' +
      'divulgador.magalu.com) are resolved first, by the webhook rules (public addresses only). Others’ affiliate and tracking ' +
      'parameters are removed, then this account’s integration is applied, and a tracked link is stored. A host of no supported ' +
      "marketplace nor of this account's `other` integration (a URL template with its own `hosts`), or of another marketplace " +
      'than the `marketplace` given, is a 400 `unknown_marketplace` (so whether a URL is accepted depends on the integrations, ' +
      'and for a short link on where it leads); a marketplace this account has no integration for is a 404 `integration_missing` ' +
      'naming it; a short link that cannot be followed is a 400 `link_unresolvable`; an `offer_id` of no offer of this account is ' +
      'a 400 `unknown_reference`. Records `link.created`.',
    body: { schema: ref('LinkConvertRequest'), required: true },
    success: { status: 200, description: 'The affiliate link and its tracked short link.', schema: singleEnvelope(ref('LinkConversion')) },
  },
];
