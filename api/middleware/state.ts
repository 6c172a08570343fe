import { Middleware, Next, ParameterizedContext } from 'koa';
import { Operation } from '../../schemas/operations';
import { AccountDoc } from '../../domain/accounts/store';
import { Tenant } from '../../domain/db';
import { Credential } from '../../domain/developer/credentials';

/** The caller auth.ts found: its credential, account and tenant. */
export interface AuthState {
  credential: Credential;
  account: AccountDoc;
  tenant: Tenant;
}

/** What the middleware chain leaves in `ctx.state`, each field set by the step named beside it. */
export interface RequestState {
  /** errors.ts (front) */
  requestId: string;
  /** app.ts, once the router matched an operation */
  operation?: Operation;
  /** auth.ts */
  auth?: AuthState;
  /** body.ts: the parsed JSON body, undefined when none was sent */
  body?: unknown;
  /** router.ts: the path's parameters, as the router matched them; validate.ts checks them against the operation's schema */
  params?: Record<string, string>;
  /** validate.ts: the query, checked against the operation's schema */
  query?: Record<string, unknown>;
}

export type AppMiddleware = Middleware<RequestState>;

/** A step that always answers with a promise (an `async` middleware, a composed chain). */
export type AsyncStep = (ctx: ParameterizedContext<RequestState>, next: Next) => Promise<void>;

/** The authenticated caller; only the steps after `authenticate` ask for it. */
export function authOf(state: RequestState): AuthState {
  if (!state.auth) throw new Error('no authenticated caller: authenticate() must run first');
  return state.auth;
}
