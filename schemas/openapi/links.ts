import { bool, httpsUrl, idOf, JsonSchema, nullable, object, OperationDef, record, ref, singleEnvelope, str } from './common';

export const schemas: Record<string, JsonSchema> = {
  LinkConvertRequest: object(
    {
      url: httpsUrl({ maxLength: 2000, description: 'HTTPS URL of a product or listing page' }),
      marketplace: str({
        minLength: 1,
        maxLength: 40,
        description: 'the marketplace whose integration converts the URL; detected from the URL when omitted',
      }),
      sub_id: str({
        minLength: 1,
        maxLength: 64,
        pattern: '^[A-Za-z0-9_-]+$',
        description: 'tracking label passed to the affiliate programme (e.g. a campaign or group name)',
      }),
      shorten: bool({ description: 'also return a short link', default: false }),
    },
    ['url'],
    { description: "A URL to convert into this account's affiliate link." },
  ),
  LinkConversion: record(
    {
      original_url: str({ format: 'uri' }),
      affiliate_url: str({ format: 'uri', description: "the URL carrying this account's affiliate identity" }),
      marketplace: str(),
      integration: str({ description: "name of the account's own integration that converted it" }),
      sub_id: nullable(str()),
      short_url: nullable(str({ format: 'uri', description: 'short link; null unless `shorten` was true' })),
      offer_id: nullable(idOf('off', 'the catalogue offer with this original URL, when there is one')),
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
      'A URL of no supported marketplace is a 400 `validation_failed`; a marketplace this account has no integration for is ' +
      'a 404 `not_found`. Nothing is stored except the click tracking of the returned link.',
    body: { schema: ref('LinkConvertRequest'), required: true },
    success: { status: 200, description: 'The affiliate link.', schema: singleEnvelope(ref('LinkConversion')) },
  },
];
