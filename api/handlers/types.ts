import type { Tracer } from '@opentelemetry/api';
import { Logger } from 'pino';
import type { operations } from '../../schemas/operation-types';
import { AccountDoc } from '../../domain/accounts/store';
import { Credential } from '../../domain/developer/credentials';
import { Page, Tenant } from '../../domain/db';
import { DomainDeps } from '../../domain/resource';
import { TemporalDeps } from '../../temporal/start';
import { AfterAnswer } from '../../domain/after-answer';

/** What `createApp` needs; `main` builds it from MongoDB and Temporal connections. */
export interface AppDeps extends DomainDeps {
  /** `taskQueue` defaults to TASK_QUEUE (tests run their own worker on their own queue); `namespace` is for /healthz. */
  temporal: TemporalDeps & { namespace: string };
  /** Seals stored secrets (domain/sealing.ts). */
  secretKey: Buffer;
  logger: Logger;
  /** Hosts or addresses webhooks may point to although private or loopback (OFFEROPS_WEBHOOK_ALLOW). */
  webhookAllow?: readonly string[];
  rateLimit?: { limit: number; windowMs: number };
  /** Hosts treated as short links besides the marketplaces' own (OFFEROPS_SHORTLINK_HOSTS, a comma list). */
  shortLinkHosts?: readonly string[];
  /** Shopee's affiliate API, for short links (OFFEROPS_SHOPEE_API_URL; default SHOPEE_API_URL). */
  shopeeApiUrl?: string;
  /** How often the clicks of tracked links are written (default CLICK_FLUSH_MS). */
  clickFlushMs?: number;
  /** How long the redirect trusts a tracked link it read (default LINK_CACHE_MS). */
  linkCacheMs?: number;
  /** Base address of the public storefront (OFFEROPS_PUBLIC_URL), e.g. `https://lojas.example.com`; default `http://127.0.0.1:8080`. */
  publicUrl?: string;
  /** How long an API process keeps a rendered storefront page (default STOREFRONT_CACHE_MS; 0: render every request, as bench:store measures too). */
  storefrontCacheMs?: number;
  /** Temporal UI (OFFEROPS_TEMPORAL_UI_URL, set by `npm start`), linked from the panel. */
  temporalUiUrl?: string;
  /** How long `POST /schedules/{id}/run` waits for its run to queue the publication (default RUN_WAIT_MS). */
  scheduleRunWaitMs?: number;
  /** How long a request may take before it is answered 503 (OFFEROPS_REQUEST_TIMEOUT_MS; default REQUEST_TIMEOUT_MS). */
  requestTimeoutMs?: number;
  /** The bearer token GET /metrics asks for (OFFEROPS_METRICS_TOKEN); without one, /metrics is open. */
  metricsToken?: string;
  /** Resolves once the database is set up (indexes): until then every request but the health probes answers 503. */
  ready?: Promise<void>;
  /** With tracing on (domain/tracing.ts): each request runs in a span of this tracer. */
  tracer?: Tracer;
}

/** What a handler is given: the app's dependencies and what the app holds for them (createApp). */
export interface HandlerDeps extends AppDeps {
  /** Bookkeeping a request leaves for after its answer (domain/after-answer.ts); run on closeApp. */
  afterAnswer: AfterAnswer;
}

/** The operationIds of the contract (from the generated types). */
export type OperationId = keyof operations;

type JsonOf<C> = C extends { content: { 'application/json': infer B } } ? B : never;

/** The validated JSON body of an operation: required, optional (PATCH: `undefined` when none was sent), or none. */
export type BodyOf<K extends OperationId> = operations[K] extends { requestBody: infer R }
  ? JsonOf<R>
  : operations[K] extends { requestBody?: infer R }
    ? JsonOf<R> | undefined
    : undefined;

/** The validated query of an operation (pagination defaults applied). */
export type QueryOf<K extends OperationId> = NonNullable<operations[K]['parameters']['query']>;

/** A validated request, as a handler sees it. */
export interface Request<K extends OperationId = OperationId> {
  tenant: Tenant;
  /** The API key or application token the request came with. */
  credential: Credential;
  account: AccountDoc;
  /** Path parameters: `id` on by-id operations. */
  params: { id: string };
  /** The `Idempotency-Key` header, when sent. */
  idempotencyKey: string | null;
  query: QueryOf<K>;
  body: BodyOf<K>;
}

type Responses<K extends OperationId> = operations[K]['responses'];
type SuccessStatus<K extends OperationId> = keyof Responses<K> & (200 | 201 | 202);
/** `T` without `request_id`, each member of a union on its own. */
type WithoutRequestId<T> = T extends unknown ? Omit<T, 'request_id'> : never;

/** The JSON body of an operation's success answers (any of them), as the contract's generated types declare it, without `request_id`. */
export type ReplyBody<K extends OperationId> = WithoutRequestId<{ [S in SuccessStatus<K>]: JsonOf<Responses<K>[S]> }[SuccessStatus<K>]>;

/** A response body without `request_id` (added by the router), and its status when not the documented success. */
export interface Reply<K extends OperationId = OperationId> {
  status?: number;
  body: ReplyBody<K>;
}

export type Handler<K extends OperationId> = (req: Request<K>, deps: HandlerDeps) => Promise<Reply<K>>;

/** `limit`/`offset` of a list request (the validator applied their defaults). */
export const pageOf = (query: { limit?: number; offset?: number }): Page => ({ limit: query.limit!, offset: query.offset! });

/** The list envelope of spec 2.1 (without request_id), with what a list says `beside` its pagination (an analytics page's window). */
export function listReply<T, B extends object = object>(items: T[], total: number, page: Page, beside?: B) {
  return {
    body: {
      data: items,
      pagination: { total, limit: page.limit, offset: page.offset, has_more: page.offset + items.length < total },
      ...(beside as B),
    },
  };
}
