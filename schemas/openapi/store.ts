import {
  FORM_KEYWORD,
  FORMS,
  arr,
  bool,
  dateTime,
  filter,
  httpsUrl,
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

export const STORE_THEMES = ['classic', 'minimal', 'magazine', 'dark'] as const;
export const STORE_NETWORKS = ['instagram', 'facebook', 'tiktok', 'youtube', 'x', 'telegram', 'whatsapp', 'site'] as const;
export const COLOR_ROLES = ['primary', 'secondary', 'background', 'text'] as const;
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export const CONTACT_KINDS = ['whatsapp_group', 'telegram', 'instagram', 'messenger', 'site'] as const;
/** Subdomains no store may take: names of the service itself and of common infrastructure. */
export const RESERVED_SUBDOMAINS = [
  'www',
  'api',
  'app',
  'admin',
  'panel',
  'dashboard',
  'static',
  'assets',
  'cdn',
  'mail',
  'smtp',
  'help',
  'support',
  'status',
  'docs',
  'blog',
  'store',
  'stores',
  'shop',
  'offerops',
  'login',
  'auth',
  'billing',
  'root',
  'test',
  's',
] as const;

const HHMM = '^(?:[01][0-9]|2[0-3]):[0-5][0-9]$';

const HEX = '^#[0-9A-Fa-f]{6}$';
const SLUG = '^[a-z0-9]+(?:-[a-z0-9]+)*$';
const flag = (description: string): JsonSchema => int({ enum: [0, 1], description });

export const schemas: Record<string, JsonSchema> = {
  StoreTheme: str({ enum: [...STORE_THEMES], description: 'Visual theme of the public store.' }),
  StoreColorsInput: object(
    Object.fromEntries(
      COLOR_ROLES.map((c) => [c, str({ maxLength: 7, pattern: HEX, [FORM_KEYWORD]: FORMS.color, description: `${c} colour, #RRGGBB` })]),
    ),
    [],
    {
      description: 'Colour overrides; an omitted colour follows the theme. Replaced as a whole on update.',
    },
  ),
  StoreColors: record(Object.fromEntries(COLOR_ROLES.map((c) => [c, str({ pattern: HEX, [FORM_KEYWORD]: FORMS.color })])), {
    description: "The colours in effect: the overrides sent, else the theme's.",
  }),
  StoreNetworksInput: object(
    Object.fromEntries(
      STORE_NETWORKS.map((n) => [
        n,
        httpsUrl({ maxLength: 500, description: `public HTTPS link to the ${n} profile, channel or group invite` }),
      ]),
    ),
    [],
    { description: "Public links to the store's social networks; an omitted network is not shown. Replaced as a whole on update." },
  ),
  StoreNetworks: record(Object.fromEntries(STORE_NETWORKS.map((n) => [n, nullable(str({ description: `${n} link; null when not set` }))])), {
    description: "Public links to the store's social networks.",
  }),
  StoreHours: arr(
    object(
      {
        day: str({ enum: [...WEEKDAYS] }),
        opens: str({ maxLength: 5, pattern: HHMM, [FORM_KEYWORD]: FORMS.timeOfDay, description: 'HH:MM, 24-hour clock' }),
        closes: str({
          maxLength: 5,
          pattern: HHMM,
          [FORM_KEYWORD]: FORMS.timeOfDay,
          description: 'HH:MM, later than `opens`',
        }),
      },
      ['day', 'opens', 'closes'],
    ),
    { maxItems: 14, description: 'Service hours, one entry per day and period (at most two per day), in the store time zone.' },
  ),
  StoreContact: object(
    {
      kind: str({ enum: [...CONTACT_KINDS], description: 'what the link opens' }),
      url: httpsUrl({
        maxLength: 500,
        description:
          'a public HTTPS link (group invite, channel, profile, page) that reveals no private number or e-mail: a link with a phone ' +
          'number (e.g. `wa.me/5511…`) or an e-mail address in it is a 400',
      }),
      label: str({ minLength: 1, maxLength: 60, description: 'text of the button; `Fale com a gente` when omitted' }),
    },
    ['kind', 'url'],
    { description: 'How visitors reach the store: a link, never a phone number.' },
  ),
  StoreUpdate: object(
    {
      name: str({ minLength: 1, maxLength: 80, description: 'public name of the store' }),
      tagline: nullable(str({ maxLength: 160, description: 'short phrase under the name' })),
      description: nullable(str({ maxLength: 1000, description: 'about text' })),
      theme: ref('StoreTheme'),
      colors: ref('StoreColorsInput'),
      logo: nullable(httpsUrl({ maxLength: 2000, description: 'HTTPS image URL of the logo' })),
      networks: ref('StoreNetworksInput'),
      hours: ref('StoreHours'),
      timezone: str({ minLength: 1, maxLength: 64, description: 'IANA time zone of `hours` (default America/Sao_Paulo)' }),
      contact: nullable(ref('StoreContact')),
      seo_title: nullable(str({ maxLength: 70, description: 'title of the home page for search engines' })),
      seo_description: nullable(str({ maxLength: 180, description: 'description of the home page for search engines' })),
      subdomain: str({
        minLength: 3,
        maxLength: 63,
        pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$',
        [FORM_KEYWORD]: 'lowercase letters and digits in words joined by single hyphens, e.g. minha-loja',
        description:
          "the store's address (`/s/{subdomain}/`), unique across accounts: a taken one is a 409 `slug_taken`; a reserved word " +
          '(`www`, `api`, `admin`, … see docs/guides/storefront.md) or a name starting `acc-` is a 400 `validation_failed` (rule `reserved`)',
      }),
      domain: nullable(
        str({
          maxLength: 253,
          format: 'hostname',
          pattern: '^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]{2,63}$',
          [FORM_KEYWORD]: 'a lowercase domain name without scheme or path, e.g. ofertas.example.com',
          description:
            'custom domain (e.g. `ofertas.example.com`); changing it sets `domain_verified` to 0 until its DNS points to ' +
            '`dns_target`; null removes it',
        }),
      ),
      active: bool({ description: 'publish (true) or take down (false) the public store; returned as `active` 1 or 0' }),
    },
    [],
    { description: 'Only the fields sent change; `null` clears an optional value; `colors` and `networks` are replaced as a whole.' },
  ),
  Store: record(
    {
      id: idOf('sto'),
      subdomain: str(),
      name: str(),
      tagline: nullable(str()),
      description: nullable(str()),
      theme: ref('StoreTheme'),
      colors: ref('StoreColors'),
      logo: nullable(str()),
      networks: ref('StoreNetworks'),
      hours: ref('StoreHours'),
      timezone: str(),
      contact: nullable(ref('StoreContact')),
      seo_title: nullable(str()),
      seo_description: nullable(str()),
      domain: nullable(str({ description: 'custom domain; null when none' })),
      domain_verified: flag('1 when `domain` points to the store, else 0'),
      dns_target: nullable(str({ description: 'host the custom domain must have a CNAME record to; null without a domain' })),
      active: flag('1 when the public store is online, else 0'),
      url: str({ format: 'uri', description: 'public address of the store (the custom domain once verified, else the subdomain)' }),
      created_at: dateTime('creation time'),
      updated_at: dateTime('last change'),
    },
    { description: 'The public store of the account: identity, theme, networks and address. Only public configuration.' },
  ),
  StoreCollection: record(
    {
      id: idOf('col'),
      title: str(),
      slug: str(),
      description: nullable(str()),
      position: int({ minimum: 0, description: 'public order: collections are shown by ascending position' }),
      published: bool({ description: 'shown on the public store' }),
      offer_count: int({ minimum: 0, description: 'offers in the collection' }),
      offer_ids: arr(idOf('off'), { description: 'the offers, in the order the store shows them (only approved ones are shown)' }),
      created_at: dateTime('creation time'),
      updated_at: dateTime('last change'),
    },
    { description: 'An editorial collection of offers on the store.' },
  ),
  StorePageCreate: object(
    {
      title: str({ minLength: 2, maxLength: 160 }),
      slug: str({
        minLength: 1,
        maxLength: 80,
        pattern: SLUG,
        [FORM_KEYWORD]: FORMS.slug,
        description: 'unique public slug (lower-case words joined by `-`); derived from the title when omitted; taken is a 409 `slug_taken`',
      }),
      summary: str({ maxLength: 500, description: 'short text for listings' }),
      body: str({ maxLength: 50000, description: 'the page, in Markdown (raw HTML is escaped when rendered)' }),
      cover: httpsUrl({ maxLength: 2000, description: 'HTTPS image shown on top of the page' }),
      seo_title: str({ maxLength: 70, description: 'title for search engines; `title` when omitted' }),
      seo_description: str({ maxLength: 180, description: 'description for search engines; `summary` when omitted' }),
      published: bool({ description: 'visible on the public store right away', default: false }),
    },
    ['title'],
    { description: 'A Markdown page of the store with its own SEO.' },
  ),
  StorePage: record(
    {
      id: idOf('pag'),
      title: str(),
      slug: str(),
      summary: nullable(str()),
      body: str({ description: 'Markdown; empty when none was sent' }),
      cover: nullable(str()),
      seo_title: nullable(str()),
      seo_description: nullable(str()),
      published: bool(),
      path: str({ pattern: '^/', [FORM_KEYWORD]: 'a path starting with /', description: 'path of the page under the store address: `/{slug}`' }),
      url: str({ format: 'uri', description: 'public address of the page' }),
      published_at: nullable(dateTime('when the page was first published')),
      created_at: dateTime('creation time'),
      updated_at: dateTime('last change'),
    },
    { description: 'A Markdown page of the store.' },
  ),
};

const store = resource({ tag: 'Store', area: 'store', path: '/store', name: 'store', schema: 'Store', singleton: true });

export const operations: OperationDef[] = [
  store.get({
    summary: 'Public store configuration',
    description: 'Only what the public store shows and its address; no integration or payment settings.',
  }),
  store.update({ summary: 'Update identity, theme, networks, address and availability' }),
  store.nested({ name: 'collection', schema: 'StoreCollection' }).list({
    summary: 'List editorial collections in public order',
    description: 'Ordered by `position`, ascending.',
    filters: [filter('published', 'Only published (true) or hidden (false) collections.', bool())],
  }),
  store.nested({ name: 'page', schema: 'StorePage' }).create({ summary: 'Create a Markdown page with its own SEO' }),
];
