import { Middleware } from 'koa';
import { Operation } from '../../schemas/operations';
import type { AuthState } from './auth';

/** What the middleware chain leaves in `ctx.state`, each field set by the step named beside it. */
export interface RequestState {
  /** request-id.ts */
  requestId: string;
  /** app.ts, once the router matched an operation */
  operation?: Operation;
  /** auth.ts */
  auth?: AuthState;
  /** body.ts: the parsed JSON body, undefined when none was sent */
  body?: unknown;
  /** validate.ts: path parameters and query, checked against the operation's schemas */
  params?: Record<string, string>;
  query?: Record<string, unknown>;
}

export type AppMiddleware = Middleware<RequestState>;

/** The authenticated caller; only the steps after `authenticate` ask for it. */
export function authOf(state: RequestState): AuthState {
  if (!state.auth) throw new Error('no authenticated caller: authenticate() must run first');
  return state.auth;
}
