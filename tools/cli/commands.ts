/**
 * Every `offerops` command: its words, arguments, options and help. The help
 * at each level (`offerops --help`, `offerops admin --help`, `offerops admin
 * key --help`, `offerops admin key create --help`) is made from this table.
 */
import { resolve } from 'node:path';
import type { Db } from 'mongodb';
import type * as adminModule from './admin';
import { UsageError } from './errors';
import { parseSettings, recipeInstall, recipesList } from './recipes';
import { dataDir } from './stack-config';

/** A string option the command needs. */
function need(values: Record<string, string | boolean | undefined>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

type Admin = typeof adminModule;
export type AdminFn = (db: Db, input: adminModule.AdminInput) => Promise<object>;
export type StreamFn = (db: Db, input: adminModule.AdminInput, out: NodeJS.WritableStream) => Promise<void>;
type AdminName = { [K in keyof Admin]: Admin[K] extends AdminFn ? K : never }[keyof Admin];
type StreamName = { [K in keyof Admin]: Admin[K] extends StreamFn ? K : never }[keyof Admin];

export type OptionSpec = { type: 'string' } | { type: 'boolean' };

export interface Command {
  /** The words that name it: `['admin', 'key', 'create']`. */
  words: string[];
  /** Positional arguments, all required: `['KEY_ID']`. */
  args: string[];
  /** The options part of its usage line. */
  synopsis: string;
  summary: string;
  /** One line per option: `--name NAME   what it is`. */
  details: string[];
  options: Record<string, OptionSpec>;
  /** What it prints on success. */
  prints?: string;
  /** An admin command: the function of admin.ts (loaded when run) that runs it against the stack's MongoDB and returns the object to print. */
  admin?: AdminName;
  /** An admin command whose output is a stream (CSV): the function of admin.ts that writes it to `out` as it is read. */
  stream?: StreamName;
  /** A dev server: runs until SIGINT or SIGTERM. */
  dev?: 'gateway' | 'receiver';
  /** A process of the service itself (the API or a worker), run in this one until stopped. */
  serve?: 'api' | 'worker';
  /** An admin command on the data directory's files (no connection to the stack); returns the object to print. */
  files?: (values: Record<string, string | boolean | undefined>) => Promise<object>;
  /** A command of another tool run on the stack: the words after it are that tool's, passed as they are. */
  passthrough?: 'temporal';
  /** A recipes command: reads the library (and for install, calls the API); returns the object to print. */
  recipes?: (args: string[], values: Record<string, string | boolean | undefined>) => Promise<object>;
}

const S = { type: 'string' } as const;
const B = { type: 'boolean' } as const;

const tenantDetails = ['--account ID          the account (acc_…)', '--env live|test       its environment (default live)'];

export const AREAS: Record<string, string> = {
  api: 'run an API process (as many as you like, behind a load balancer) against the stack or MONGODB_URI and TEMPORAL_ADDRESS',
  worker: 'run a Temporal worker process (as many as you like) against the stack or MONGODB_URI and TEMPORAL_ADDRESS',
  admin: "accounts, API keys, channels and groups, written straight into the running stack's MongoDB",
  dev: 'a sample chat gateway and a sample webhook receiver, to try offerops on one machine',
  recipes: 'the library of journey recipes: list them, install one as a draft journey through the API',
};

export const NOUNS: Record<string, string> = {
  'admin account': 'accounts (each gets a live key with every scope)',
  'admin key': 'API keys of an account',
  'admin channel': 'connections to a chat network (their token is stored sealed and never shown)',
  'admin group': 'chat groups, connected to a channel at an address',
  'admin store': "the public store's custom domain",
  'admin integration': "an account's affiliate programme per marketplace (stored sealed; secrets never shown)",
  'admin app': 'applications of an account: client credentials exchanged for one-hour tokens (POST /api/developer/oauth/token)',
  'admin logs': 'request logs of a key or an application (kept 90 days)',
  'admin postback': 'endpoints where affiliate networks post commissions (POST /postbacks/{integration_id})',
  'admin commissions': 'commission reports of an affiliate network, imported for reconciliation',
  'admin sandbox': "an account's test environment: its seeded sample data, and resetting it to that seed",
  'admin collection': 'editorial collections of the public store (ordered offers; GET /store/collections lists them)',
  'admin backup': 'a consistent copy of the embedded stack (database, Temporal, sealing key), taken while it runs',
  'admin restore': 'a backup put back into an empty data directory, for npm start to run',
};

const SERVE_DETAILS = [
  'Configured as npm start configures its own: the environment (MONGODB_URI, MONGODB_DB, TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE,',
  'OFFEROPS_TASK_QUEUE, OFFEROPS_SECRET_KEY, … see docs/operations/configuration.md), else the stack running in',
  'OFFEROPS_DATA_DIR (default ./.offerops: its stack.json and secret.key). Every process is stateless: run more of them to scale.',
  'SIGTERM or SIGINT stops it gracefully.',
];

export const COMMANDS: Command[] = [
  {
    words: ['api'],
    args: [],
    synopsis: '[--port 8080] [--host 127.0.0.1]',
    summary: 'run an API process: it answers until SIGTERM, then drains (/readyz 503, requests under way answered)',
    details: [
      '--port N              port to listen on (default PORT, else 8080)',
      '--host H              address to listen on (default HOST, else 127.0.0.1)',
      ...SERVE_DETAILS,
    ],
    options: { port: S, host: S },
    serve: 'api',
  },
  {
    words: ['worker'],
    args: [],
    synopsis: '',
    summary: "run a worker process: it runs offerops' workflows and activities until SIGTERM, then finishes its tasks (10 s grace)",
    details: [...SERVE_DETAILS],
    options: {},
    serve: 'worker',
  },
  {
    words: ['admin', 'account', 'create'],
    args: [],
    synopsis: '--name NAME [--plan free|pro|business]',
    summary: 'create an account and its owner key (live, every scope)',
    details: ['--name NAME           the account name', '--plan PLAN           free (no API access), pro (default) or business'],
    options: { name: S, plan: S },
    prints:
      '{"account_id": "acc_…", "api_key": "oo_live_…", "sandbox": {"channel_id", "segment_id", "group_id", "offer_id", "coupon_id", "template_id", "publication_id"}}  (the key is shown only here; the test environment is seeded)',
    admin: 'accountCreate',
  },
  {
    words: ['admin', 'account', 'list'],
    args: [],
    synopsis: '',
    summary: 'list every account',
    details: [],
    options: {},
    prints: '{"accounts": [{"id", "name", "plan", "created_at"}, …]}',
    admin: 'accountList',
  },
  {
    words: ['admin', 'account', 'update'],
    args: [],
    synopsis: '--account ID [--rate-limit N] [--timezone NAME]',
    summary: "change an account's rate limit (requests per minute per key; 120 by default) or time zone (UTC by default)",
    details: [
      '--account ID          the account (acc_…)',
      '--rate-limit N        requests per minute window, per key',
      '--timezone NAME       IANA time zone whose days and hours analytics count in (America/Sao_Paulo, UTC, …);',
      '                      facts counted from now on; running processes pick it up within a minute',
    ],
    options: { account: S, 'rate-limit': S, timezone: S },
    prints: '{"account_id": "acc_…", "rate_limit": N, "timezone": "America/Sao_Paulo"}  (each field only when given)',
    admin: 'accountUpdate',
  },
  {
    words: ['admin', 'key', 'create'],
    args: [],
    synopsis: '--account ID --scopes a:read,b:write|all [--env live|test] [--expires 1h|1d|7d] [--name N]',
    summary: 'create an API key',
    details: [
      '--account ID          the account (acc_…)',
      '--scopes LIST         comma-separated scopes (offers:read,groups:write,…), or all',
      '--env live|test       live (default) or test (sandbox) key',
      '--expires 1h|1d|7d    lifetime; test keys always expire (default 7d), live keys never unless given',
      '--name N              a name to recognise it by',
    ],
    options: { account: S, scopes: S, env: S, expires: S, name: S },
    prints: '{"key_id": "key_…", "api_key": "oo_…"}  (the key is shown only here)',
    admin: 'keyCreate',
  },
  {
    words: ['admin', 'key', 'list'],
    args: [],
    synopsis: '--account ID [--env live|test]',
    summary: "list an account's keys (never the key itself)",
    details: ['--account ID          the account (acc_…)', '--env live|test       only the keys of one environment (default both)'],
    options: { account: S, env: S },
    prints: '{"keys": [{"id", "name", "env", "scopes", "state": active|expired|revoked, "created_at", "expires_at", "revoked_at"}, …]}',
    admin: 'keyList',
  },
  {
    words: ['admin', 'key', 'revoke'],
    args: ['KEY_ID'],
    synopsis: '',
    summary: 'revoke a key at once (revoking twice is harmless)',
    details: [],
    options: {},
    prints: '{"revoked": true}',
    admin: 'keyRevoke',
  },
  {
    words: ['admin', 'sandbox', 'reset'],
    args: [],
    synopsis: '--account ID',
    summary: "reset an account's test environment to its seed (live data untouched)",
    details: ['--account ID          the account (acc_…)'],
    options: { account: S },
    prints:
      '{"account_id", "removed": {"offers": N, …}, "schedules_deleted": N, "workflows_terminated": N, "seed": {"channel_id", …, "publication_id"}, "event_id"}',
    admin: 'sandboxReset',
  },
  {
    words: ['admin', 'panel-link'],
    args: [],
    synopsis: '--account ID',
    summary: "print a one-time sign-in link to the account's developer panel (valid 15 minutes, works once)",
    details: ['--account ID          the account (acc_…)'],
    options: { account: S },
    prints: '{"url": "http://127.0.0.1:8080/panel/login?token=opl_…", "expires_at"}  (the link is shown only here)',
    admin: 'panelLink',
  },
  {
    words: ['admin', 'contract-test'],
    args: [],
    synopsis: '--account ID [--base-url URL] [--list]',
    summary: "check the running API against its contract in the account's sandbox, and record the run; --list shows past runs",
    details: [
      '--account ID          the account (acc_…)',
      "--base-url URL        the API to check (default: the running stack's, e.g. http://127.0.0.1:8080/api/v1)",
      '--list                list the recorded runs, newest first, instead of running',
    ],
    options: { account: S, 'base-url': S, list: B },
    prints:
      '{"id": "ctr_…", "started_at", "duration_ms", "result": "passed|failed", "checks": [{"name", "result", "assertions", "failures", …}, …]}  (--list: {"runs": […]})',
    admin: 'contractTest',
  },
  {
    words: ['admin', 'sandbox', 'seed'],
    args: [],
    synopsis: '--account ID',
    summary: 'seed the test environment of an account made before seeding existed (a seeded one is left as it is)',
    details: ['--account ID          the account (acc_…)'],
    options: { account: S },
    prints:
      '{"seed": {"channel_id", "segment_id", "group_id", "offer_id", "coupon_id", "template_id", "publication_id"}, "created": true|false}',
    admin: 'sandboxSeed',
  },
  {
    words: ['admin', 'channel', 'connect'],
    args: [],
    synopsis:
      '--account ID --type http|telegram|evolution|waha|sandbox [--url URL] [--token T] [--instance NAME] [--name N] [--env live|test] [--min-interval-ms N] [--public-url URL]',
    summary: 'connect a channel: a gateway of our http protocol, a Telegram bot, a WhatsApp gateway (Evolution API, WAHA), or the sandbox',
    details: [
      ...tenantDetails,
      '--type TYPE           http (a gateway: docs/guides/publishing.md), telegram, evolution or waha (docs/guides/whatsapp.md), sandbox',
      '--url URL             the gateway base URL (http, evolution, waha; required), or another Bot API base (telegram)',
      "--token T             the bearer token (http), bot token (telegram; required) or the gateway's API key (evolution, waha; required); stored sealed",
      '--instance NAME       the Evolution API instance (required) or the WAHA session (default: default)',
      '--name N              a name, unique in the account and environment (a repeated command is refused, not doubled)',
      '--min-interval-ms N   minimum time between two sends on the channel (default 1000)',
      "Sealing a token needs the key the worker runs with: OFFEROPS_SECRET_KEY, or the data directory's secret.key.",
      "--public-url URL      the API's public origin (default OFFEROPS_PUBLIC_URL): a telegram bot's or WhatsApp gateway's webhook is set to it",
      'An http, telegram, evolution or waha channel gets an inbound secret, printed only here: a gateway of our protocol POSTs',
      'received messages to inbound_url_path on the API with it as bearer (docs/guides/publishing.md); with --public-url, a',
      "telegram bot's webhook (setWebhook) is set to that URL with the secret as its secret_token, and a WhatsApp gateway's webhook",
      "with the secret as bearer (evolution) or HMAC key (waha); the gateway's session state is then checked.",
    ],
    options: { account: S, env: S, type: S, url: S, token: S, instance: S, name: S, 'min-interval-ms': S, 'public-url': S },
    prints:
      '{"channel_id": "chn_…", "inbound_url_path": "/inbound/chn_…", "inbound_secret": "oo_in_…", "webhook": "set: …", "state": "connected"}   (inbound: all but sandbox; webhook: telegram, evolution, waha; state: evolution, waha)',
    admin: 'channelConnect',
  },
  {
    words: ['admin', 'channel', 'list'],
    args: [],
    synopsis: '--account ID [--env live|test]',
    summary: 'list the channels of an account (never their token)',
    details: tenantDetails,
    options: { account: S, env: S },
    prints:
      '{"channels": [{"id", "type", "name", "url", "instance"?, "has_token", "min_interval_ms", "state"?, "state_changed_at"?, "groups", "created_at", "updated_at"}, …]}',
    admin: 'channelList',
  },
  {
    words: ['admin', 'channel', 'update'],
    args: ['CHANNEL_ID'],
    synopsis:
      '--account ID [--env live|test] [--name N] [--url URL] [--token T] [--instance NAME] [--min-interval-ms N] [--rotate-inbound-secret] [--public-url URL]',
    summary: 'change a channel (its type cannot change)',
    details: [
      ...tenantDetails,
      '--name N              a new name',
      '--url URL             a new base URL',
      '--token T             a new token or API key (sealed anew)',
      '--instance NAME       another Evolution instance or WAHA session',
      '--min-interval-ms N   a new minimum interval between sends',
      '--rotate-inbound-secret  a new inbound secret (all but sandbox), printed only here; the old one stops working',
      "--public-url URL      with --rotate-inbound-secret on a telegram, evolution or waha channel: the API's public origin; the webhook is set again",
    ],
    options: {
      account: S,
      env: S,
      name: S,
      url: S,
      token: S,
      instance: S,
      'min-interval-ms': S,
      'rotate-inbound-secret': B,
      'public-url': S,
    },
    prints: '{"channel_id": "chn_…", "changed": ["url", …], "inbound_secret": "oo_in_…"}   (the secret with --rotate-inbound-secret)',
    admin: 'channelUpdate',
  },
  {
    words: ['admin', 'channel', 'groups'],
    args: ['CHANNEL_ID'],
    synopsis: '--account ID [--env live|test] [--import NAMES|all [--segment SEG] [--min-interval-ms N]]',
    summary: "list a WhatsApp gateway channel's groups (name, size, address hint); import chosen ones as offerops groups",
    details: [
      ...tenantDetails,
      '--import NAMES|all    make an offerops group, attached to the channel, for each group named (exact names or address hints,',
      '                      comma-separated) or for all; one already at that address is left as it is (a second run makes none)',
      '--segment SEG         with --import: put the new groups in this segment',
      '--min-interval-ms N   with --import: their minimum interval between sends (default 3000)',
      'The gateway is asked each time (evolution, waha channels). The address hint (…0001@g.us) tells groups apart; the whole JID is never shown.',
    ],
    options: { account: S, env: S, import: S, segment: S, 'min-interval-ms': S },
    prints: '{"groups": [{"name", "size", "address_hint", "group_id"}, …]}   (with --import: {"imported": […], "existing": […]})',
    admin: 'channelGroups',
  },
  {
    words: ['admin', 'channel', 'check'],
    args: ['CHANNEL_ID'],
    synopsis: '--account ID [--env live|test]',
    summary: "ask a WhatsApp gateway channel's gateway for its session's state now, and record it",
    details: [
      ...tenantDetails,
      'connected, disconnected or unknown; a change records a channel.state_changed event (relayed by the worker within a minute).',
    ],
    options: { account: S, env: S },
    prints: '{"channel_id": "chn_…", "state": "connected"}',
    admin: 'channelCheck',
  },
  {
    words: ['admin', 'monitor', 'run'],
    args: ['MONITOR_ID'],
    synopsis: '--account ID [--env live|test]',
    summary: 'run a monitor now, as its schedule would (instead of waiting for next_run_at)',
    details: [...tenantDetails, 'The run reads the feeds and records its result: GET /monitors/{id} shows last_result once it ends.'],
    options: { account: S, env: S },
    prints: '{"monitor_id": "mon_…", "workflow_id": "monitor-run-mon_…"}',
    admin: 'monitorRun',
  },
  {
    words: ['admin', 'channel', 'delete'],
    args: ['CHANNEL_ID'],
    synopsis: '--account ID [--env live|test]',
    summary: 'delete a channel no group is connected through',
    details: tenantDetails,
    options: { account: S, env: S },
    prints: '{"deleted": true}',
    admin: 'channelDelete',
  },
  {
    words: ['admin', 'group', 'create'],
    args: [],
    synopsis: '--account ID --name NAME [--env live|test] [--segment SEG] [--channel CH --address ADDR] [--min-interval-ms N]',
    summary: 'create a group, linked to a segment and connected to a channel',
    details: [
      ...tenantDetails,
      '--name NAME           the group name',
      '--segment SEG         link it to this segment (seg_…)',
      '--channel CH          send to it through this channel (chn_…) …',
      '--address ADDR        … at this address (a WhatsApp JID 1203…@g.us, a Telegram chat id); one group per address and channel',
      '--min-interval-ms N   minimum time between two sends to the group (default 3000)',
    ],
    options: { account: S, env: S, name: S, segment: S, channel: S, address: S, 'min-interval-ms': S },
    prints: '{"group_id": "grp_…"}',
    admin: 'groupCreate',
  },
  {
    words: ['admin', 'group', 'list'],
    args: [],
    synopsis: '--account ID [--env live|test] [--segment SEG]',
    summary: 'list the groups of an account, with their channel and a hint of their address',
    details: [...tenantDetails, '--segment SEG         only the groups of this segment'],
    options: { account: S, env: S, segment: S },
    prints: '{"groups": [{…the API\'s group, "channel_id", "address_hint": "…0001@g.us", "min_interval_ms"}, …]}',
    admin: 'groupList',
  },
  {
    words: ['admin', 'group', 'update'],
    args: ['GROUP_ID'],
    synopsis:
      '--account ID [--env live|test] [--name N] [--segment SEG|none] [--active true|false] [--channel CH --address ADDR | --disconnect] [--min-interval-ms N]',
    summary: 'change a group; attach it to a channel, or disconnect it',
    details: [
      ...tenantDetails,
      '--name N              a new name',
      '--segment SEG|none    link it to another segment, or to none',
      '--active true|false   whether publications reach it',
      '--channel CH          connect it through this channel (chn_…) …',
      '--address ADDR        … at this address',
      '--disconnect          connect it to no channel',
      '--min-interval-ms N   a new minimum interval between sends',
      "A change the API shows (name, segment, active, channel type) records a group.updated event; the worker's outbox sweep sends it within a minute.",
    ],
    options: { account: S, env: S, name: S, segment: S, active: S, channel: S, address: S, disconnect: B, 'min-interval-ms': S },
    prints: '{"group_id": "grp_…", "changed": ["channel_id", …]}',
    admin: 'groupUpdate',
  },
  {
    words: ['admin', 'group', 'delete'],
    args: ['GROUP_ID'],
    synopsis: '--account ID [--env live|test]',
    summary: 'delete a group (refused while a publication to it is in flight or a schedule names it)',
    details: tenantDetails,
    options: { account: S, env: S },
    prints: '{"deleted": true}',
    admin: 'groupDelete',
  },
  {
    words: ['admin', 'postback', 'secret'],
    args: [],
    synopsis: '--account ID --marketplace M [--env live|test]',
    summary: "create the marketplace's postback endpoint, or give it a new secret (the old one stops working)",
    details: [
      ...tenantDetails,
      '--marketplace M       the network posting to it (amazon, mercadolivre, shopee, aliexpress, magalu, …)',
      'The secret is shown here once and stored sealed. Networks sign each body with it',
      '(X-Offerops-Signature: sha256=<hex HMAC-SHA256>) or send it as ?token=… (docs/guides/commissions.md).',
    ],
    options: { account: S, env: S, marketplace: S },
    prints: '{"integration_id": "pbk_…", "path": "/postbacks/pbk_…", "secret": "oo_pb_…"}',
    admin: 'postbackSecret',
  },
  {
    words: ['admin', 'commissions', 'import'],
    args: ['FILE'],
    synopsis: '--account ID --marketplace M [--env live|test]',
    summary: "import a network's commission report (CSV with a header row; at most 5 MiB and 20,000 rows)",
    details: [
      ...tenantDetails,
      '--marketplace M       the network the report comes from',
      'Columns: transaction_id, status, commission, currency, occurred_at (required); updated_at, sub_id,',
      'product_url, order_amount, order_ref. Each row is applied once (a row imported again is unchanged);',
      "a bad row is reported in errors and never stops the others. Events go out with the worker's outbox sweep.",
    ],
    options: { account: S, env: S, marketplace: S },
    prints:
      '{"rows": n, "created": n, "updated": n, "late": n, "unchanged": n, "unmatched": n, "errors": [{"row": 3, "transaction_id": "…", "message": "…"}]}',
    admin: 'commissionsImport',
  },
  {
    words: ['admin', 'collection', 'set'],
    args: [],
    synopsis:
      '--account ID --title T [--env live|test] [--slug S] [--offers off_a,off_b] [--position N] [--published true|false] [--description D]',
    summary: 'create or replace a collection of the store (named by its slug)',
    details: [
      ...tenantDetails,
      '--title T             the name shown on the store',
      '--slug S              its id in the store (default: made from the title); set again to replace it',
      '--offers IDS          the offers, comma-separated, in the order shown (only approved ones are shown)',
      '--position N          public order: collections show by ascending position (default 0)',
      '--published true|false  shown on the store (default true)',
      '--description D       a line under the title',
    ],
    options: { account: S, env: S, title: S, slug: S, offers: S, position: S, published: S, description: S },
    prints: '{"collection": {…the API\'s collection}, "created": true|false}',
    admin: 'collectionSet',
  },
  {
    words: ['admin', 'collection', 'list'],
    args: [],
    synopsis: '--account ID [--env live|test]',
    summary: 'list the collections of a store in public order',
    details: tenantDetails,
    options: { account: S, env: S },
    prints: '{"collections": [{…the API\'s collection}, …]}',
    admin: 'collectionList',
  },
  {
    words: ['admin', 'collection', 'delete'],
    args: ['SLUG'],
    synopsis: '--account ID [--env live|test]',
    summary: 'delete a collection (its offers stay)',
    details: tenantDetails,
    options: { account: S, env: S },
    prints: '{"deleted": true}',
    admin: 'collectionDelete',
  },
  {
    words: ['admin', 'integration', 'set'],
    args: [],
    synopsis: '--account ID --marketplace amazon|mercadolivre|shopee|aliexpress|magalu|other [--env live|test] [fields of the marketplace]',
    summary: "create or replace the account's integration for one marketplace (POST /links/convert uses it)",
    details: [
      ...tenantDetails,
      '--marketplace M       amazon, mercadolivre, shopee, aliexpress, magalu, or other (any network, by URL template)',
      '--tag T               amazon: the Associates tag (e.g. mystore-20)',
      '--tool T              mercadolivre: the affiliate parameter matt_tool …',
      '--word W              … and matt_word',
      '--affiliate-id N      shopee: the affiliate id …',
      '--app-id N            … and, optionally, the affiliate API credentials (short links through its API) …',
      '--app-secret S        … with their secret (never shown)',
      '--params k=v,k=v      aliexpress: the portal tracking parameters (aff_fcid, aff_fsk, aff_platform, sk, aff_trace_key, terminal_id…)',
      '--store S             magalu: the Parceiro Magalu store path (magazinevoce.com.br/S)',
      '--template URL        other: an https URL with {url} (the product URL, encoded) and optionally {sub_id} …',
      '--hosts a.com,b.com   … for the URLs of these hosts (and their subdomains)',
      '--sub-id-param P      the query parameter the click id goes in (default per marketplace: docs/guides/links.md)',
      "Integrations are per account and environment: a test key converts with the test environment's integrations.",
    ],
    options: {
      account: S,
      env: S,
      marketplace: S,
      tag: S,
      tool: S,
      word: S,
      'affiliate-id': S,
      'app-id': S,
      'app-secret': S,
      params: S,
      store: S,
      template: S,
      hosts: S,
      'sub-id-param': S,
    },
    prints: '{"integration_id": "int_…", "marketplace": "amazon", "created": true|false}',
    admin: 'integrationSet',
  },
  {
    words: ['admin', 'integration', 'list'],
    args: [],
    synopsis: '--account ID [--env live|test]',
    summary: "list an account's integrations (their identifiers; never a secret)",
    details: tenantDetails,
    options: { account: S, env: S },
    prints: '{"integrations": [{"id", "marketplace", …its identifiers, "has_api_credentials" (shopee), "created_at", "updated_at"}, …]}',
    admin: 'integrationList',
  },
  {
    words: ['admin', 'integration', 'delete'],
    args: [],
    synopsis: '--account ID --marketplace M [--env live|test]',
    summary: 'delete the integration of one marketplace (links converted before keep redirecting)',
    details: [...tenantDetails, '--marketplace M       the marketplace'],
    options: { account: S, env: S, marketplace: S },
    prints: '{"deleted": true, "marketplace": "amazon"}',
    admin: 'integrationDelete',
  },
  {
    words: ['admin', 'store', 'verify-domain'],
    args: [],
    synopsis: '--account ID',
    summary: "confirm that the live store's custom domain points here: the storefront then answers on that Host",
    details: [
      '--account ID          the account (acc_…); its live store must have a domain (PATCH /store)',
      'Check the DNS first: the domain must have a CNAME to the dns_target GET /store shows. Records store.updated (relayed by the worker within a minute).',
    ],
    options: { account: S },
    prints: '{"store_id": "sto_…", "domain": "ofertas.example.com", "domain_verified": 1}',
    admin: 'storeVerifyDomain',
  },
  {
    words: ['admin', 'app', 'create'],
    args: [],
    synopsis: '--account ID --name N --scopes a:read,b:write|all --env live|test',
    summary: 'register an application; prints its client_id and client_secret (the secret only here)',
    details: [
      '--account ID          the account (acc_…)',
      '--name N              a name to recognise it by',
      '--scopes LIST         the scopes its tokens may have: comma-separated (offers:read,groups:write,…), or all',
      '--env live|test       the environment its tokens act on',
      'Exchange the credentials: POST /api/developer/oauth/token with client_id, client_secret and scope (docs/api-conventions.md).',
    ],
    options: { account: S, name: S, scopes: S, env: S },
    prints: '{"application_id": "app_…", "client_id": "app_…", "client_secret": "oo_cs_…", "env", "scopes"}  (the secret is shown only here)',
    admin: 'appCreate',
  },
  {
    words: ['admin', 'app', 'list'],
    args: [],
    synopsis: '--account ID [--env live|test]',
    summary: "list an account's applications (never their secret)",
    details: ['--account ID          the account (acc_…)', '--env live|test       only those of one environment (default both)'],
    options: { account: S, env: S },
    prints: '{"applications": [{"id", "client_id", "name", "env", "scopes", "state": active|revoked, "created_at", "revoked_at"}, …]}',
    admin: 'appList',
  },
  {
    words: ['admin', 'app', 'revoke'],
    args: [],
    synopsis: '--app ID',
    summary: 'revoke an application: every token issued to it fails at once (revoking twice is harmless)',
    details: ['--app ID              the application (app_…)'],
    options: { app: S },
    prints: '{"revoked": true}',
    admin: 'appRevoke',
  },
  {
    words: ['admin', 'logs', 'export'],
    args: [],
    synopsis: '--key ID [--since ISO] [--until ISO]',
    summary: 'export the request log of a key or an application as CSV on stdout, oldest first',
    details: [
      '--key ID              the key (key_…) or application (app_…)',
      '--since ISO           from this time on (2026-01-31T00:00:00Z; a date alone is its midnight UTC)',
      '--until ISO           before this time',
      'One line per v1 request: time,request_id,method,route,status,duration_ms,credential_id,env (route is the template,',
      'e.g. /offers/{id}; never a secret, header, body or query value). Streamed in batches: redirect it to a file.',
    ],
    options: { key: S, since: S, until: S },
    prints: 'CSV: a header line, then one line per request',
    stream: 'logsExport',
  },
  {
    words: ['admin', 'temporal'],
    args: [],
    synopsis: '[TEMPORAL_ARGUMENTS…]',
    summary: "run the Temporal CLI on the stack's Temporal (address and namespace set for it)",
    details: [
      "Every word after `admin temporal` is the Temporal CLI's: `offerops admin temporal workflow list --query \"OfferopsState = 'failed'\"`,",
      '`… workflow count`, `… workflow show -w publication-pub_…`. TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE are those of the running',
      'stack (stack.json in OFFEROPS_DATA_DIR) unless set; the binary is the one npm start fetched (OFFEROPS_TEMPORAL_BIN overrides it).',
    ],
    options: {},
    prints: 'what the Temporal CLI prints; exits with its status',
    passthrough: 'temporal',
  },
  {
    words: ['admin', 'backup'],
    args: [],
    synopsis: '--to DIR',
    summary: "copy the embedded stack's database, Temporal state and sealing key into DIR, while it runs",
    details: [
      '--to DIR              an empty or new directory for the backup',
      'Reads OFFEROPS_DATA_DIR (default ./.offerops). Each SQLite file is a consistent snapshot (SQLite online backup,',
      "through python3); Temporal's is taken first. The backup holds the sealing key: keep it as secret as the key.",
    ],
    options: { to: S },
    prints: '{"backup": "DIR", "created_at": "…", "files": [{"path", "bytes", "sha256"}, …]}',
    files: async (values) => {
      const { backupStack } = await import('./backup.js');
      const to = need(values, 'to');
      const manifest = await backupStack(dataDir(), resolve(to));
      return { backup: resolve(to), created_at: manifest.created_at, files: manifest.files };
    },
  },
  {
    words: ['admin', 'restore'],
    args: [],
    synopsis: '--from DIR',
    summary: 'put a backup back into the data directory (OFFEROPS_DATA_DIR), which must be empty; then npm start runs it',
    details: [
      '--from DIR            a directory written by admin backup (its manifest.json and checksums are checked first)',
      'The data directory is OFFEROPS_DATA_DIR (default ./.offerops); it must be empty or not exist.',
    ],
    options: { from: S },
    prints: '{"restored": "DATA_DIR", "from": "DIR", "created_at": "…", "files": N}',
    files: async (values) => {
      const { restoreStack } = await import('./backup.js');
      const from = resolve(need(values, 'from'));
      const manifest = restoreStack(from, dataDir());
      return { restored: dataDir(), from, created_at: manifest.created_at, files: manifest.files.length };
    },
  },
  {
    words: ['dev', 'gateway'],
    args: [],
    synopsis:
      '[--flavor http|evolution|waha] [--port 9911] [--token T] [--host 127.0.0.1] [--instance NAME] [--inbound-url URL --inbound-secret oo_in_…]',
    summary:
      'a sample chat gateway (our http protocol, or a WhatsApp gateway stand-in): prints each message it sends; sends messages of contacts',
    details: [
      '--flavor F            http (default): our protocol; evolution or waha: a stand-in of that WhatsApp gateway (docs/guides/whatsapp.md)',
      '--port N              port to listen on (default 9911; 0 picks a free one)',
      '--token T             the bearer token (http; default: any) or API key (evolution, waha; default dev-api-key) it requires',
      '--host H              address to listen on (default 127.0.0.1)',
      '--instance NAME       evolution, waha: the instance or session it serves (default offerops, default)',
      "--inbound-url URL     http: the API's inbound URL of the channel: http://127.0.0.1:8080 + inbound_url_path of channel connect",
      '--inbound-secret S    http: the inbound_secret channel connect printed (oo_in_…)',
      'http: it answers POST <url>/messages with {"id": "msg_…"} and deduplicates on idempotency_key, as a real gateway must.',
      'With --inbound-url, POST <url>/incoming {"from", "text", "name"?, "group"?, "media_urls"?} or a line FROM TEXT on its stdin',
      'sends offerops that message as if a contact wrote it (a new message id each time), printing it and the answer.',
      'Connect it: offerops admin channel connect --account ACC --type http --url http://127.0.0.1:9911 --token T',
      'evolution, waha: connect it with --type evolution|waha --public-url (it prints the command); a line FROM TEXT (or GROUP@g.us',
      'FROM TEXT) on its stdin goes to the webhook as a contact message, /disconnect and /connect as the session state.',
    ],
    options: { flavor: S, port: S, token: S, host: S, instance: S, 'inbound-url': S, 'inbound-secret': S },
    dev: 'gateway',
  },
  {
    words: ['dev', 'receiver'],
    args: [],
    synopsis: '[--port 9443] [--secret whsec_…] [--dir DIR]',
    summary: 'a sample HTTPS webhook receiver: prints each delivery and whether its signature verified',
    details: [
      '--port N              port to listen on, on 127.0.0.1 (default 9443; 0 picks a free one)',
      "--secret whsec_…      the webhook's signing secret (from POST /webhooks); without it signatures are not checked",
      '--dir DIR             where its self-signed certificate is kept (default <data dir>/dev-receiver)',
      'It makes its certificate once (with openssl) and prints how to make the worker trust it (NODE_EXTRA_CA_CERTS)',
      'and the URL to register. A delivery that does not verify is answered 401, one that does 200.',
    ],
    options: { port: S, secret: S, dir: S },
    dev: 'receiver',
  },
  {
    words: ['recipes', 'list'],
    args: [],
    synopsis: '',
    summary: 'list the journey recipes shipped with offerops (recipes/*.json)',
    details: [],
    options: {},
    prints: '{"recipes": [{"recipe", "name", "description", "trigger", "blocks", "parameters"}, …]}',
    recipes: () => Promise.resolve(recipesList()),
  },
  {
    words: ['recipes', 'install'],
    args: ['NAME'],
    synopsis: '[--set name=value,…]',
    summary: 'install a recipe as a draft journey (active 0) through POST /journeys',
    details: [
      'NAME                  a recipe of `offerops recipes list`',
      '--set name=value,…    its parameters (`parameters` in the list), e.g. --set group_id=grp_…',
      'OFFEROPS_API_KEY      (environment) an API key of the account, with the scope journeys:write',
      `OFFEROPS_BASE_URL     (environment) the API (default http://127.0.0.1:8080/api/v1)`,
      'The journey runs only once activated: POST /journeys/{id}/activate.',
    ],
    options: { set: S },
    prints: '{"journey_id": "jrn_…", "name": "…", "active": 0}',
    recipes: (args, values) => recipeInstall(args[0]!, parseSettings(typeof values.set === 'string' ? values.set : undefined)),
  },
];
