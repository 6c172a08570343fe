import { Client } from '@temporalio/client';
import { Db } from 'mongodb';
import { Logger } from 'pino';
import { AccountDoc, ApiKeyDoc } from '../../domain/accounts/store';
import { Page, Tenant } from '../../domain/db';

/** What `createApp` needs; `main` builds it from MongoDB and Temporal connections. */
export interface AppDeps {
  db: Db;
  /** Seals stored secrets (api/crypto.ts). */
  secretKey: Buffer;
  /** `taskQueue` defaults to TASK_QUEUE; tests run their own worker on their own queue. */
  temporal: { client: Client; namespace: string; taskQueue?: string };
  logger: Logger;
  /** Hosts or addresses webhooks may point to although private or loopback (OFFEROPS_WEBHOOK_ALLOW). */
  webhookAllow?: readonly string[];
  rateLimit?: { limit: number; windowMs: number };
  /** How long `POST /schedules/{id}/run` waits for its run to queue the publication (default 20 s). */
  scheduleRunWaitMs?: number;
}

/** A validated request, as a handler sees it. */
export interface Request {
  tenant: Tenant;
  key: ApiKeyDoc;
  account: AccountDoc;
  params: Record<string, string>;
  /** The `Idempotency-Key` header, when sent. */
  idempotencyKey: string | null;
  query: Record<string, unknown>;
  body: Record<string, unknown> | undefined;
}

/** A response body without `request_id` (added by the router), and its status when not the documented success. */
export interface Reply {
  status?: number;
  body: Record<string, unknown>;
}

export type Handler = (req: Request, deps: AppDeps) => Promise<Reply>;

export const pageOf = (query: Record<string, unknown>): Page => ({ limit: query.limit as number, offset: query.offset as number });

/** The list envelope of spec 2.1 (without request_id). */
export function listReply<T>(items: T[], total: number, page: Page): Reply {
  return {
    body: {
      data: items,
      pagination: { total, limit: page.limit, offset: page.offset, has_more: page.offset + items.length < total },
    },
  };
}

export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);
