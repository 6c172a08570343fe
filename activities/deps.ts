/**
 * What the activities are given: the worker's connections and settings
 * (worker/main.ts builds them), and the views of them the domain takes.
 */
import { Client } from '@temporalio/client';
import { Db } from 'mongodb';
import { AfterAnswer } from '../domain/after-answer';
import type { PublishingDeps } from '../domain/publications/queue';
import { PublicationContents, SendingDeps } from '../domain/publications/sending';
import { DomainDeps } from '../domain/resource';
import { reportInternalError } from './failures';

export interface ActivityDeps {
  db: Db;
  temporal: Client;
  /** The queue workflows started by activities go to (default TASK_QUEUE). */
  taskQueue?: string;
  /** The publication workflows' batch size, when the operator set one (OFFEROPS_PUBLICATION_BATCH_GROUPS). */
  batchGroups?: number;
  /** Unseals stored secrets (domain/sealing.ts). */
  secretKey: Buffer;
  /** Hosts or addresses webhooks may reach although private or loopback (OFFEROPS_WEBHOOK_ALLOW). */
  webhookAllow?: readonly string[];
  /** Where tracked links are served (OFFEROPS_PUBLIC_URL; default DEFAULT_PUBLIC_URL, like the API's). */
  publicUrl?: string;
  /** Hosts treated as short links besides the marketplaces' own (OFFEROPS_SHORTLINK_HOSTS): not converted on the publish path. */
  shortLinkHosts?: readonly string[];
  /** Extra CA certificate (PEM) trusted for webhook destinations (tests' self-signed receiver). */
  webhookCa?: string;
  /** How long a webhook attempt may take in all (default ATTEMPT_TIMEOUT_MS, 15 s). */
  webhookTimeoutMs?: number;
  /** How long a monitor source may send nothing before it is given up (default 30 s). */
  monitorIdleTimeoutMs?: number;
  /** How long finished rate-limit windows are kept (ms). */
  windowGraceMs?: number;
  /** How old an undispatched event must be before the sweep dispatches it (ms): younger ones are the API's. */
  dispatchGraceMs?: number;
  /**
   * Where a publication's bookkeeping goes once a step has written its state
   * (the counts, the relay of `publication.completed`, forgetting it in
   * flight): run after the activity's result, not while the workflow waits
   * for it. The worker's own, closed when the worker stops. Without it, awaited.
   */
  afterAnswer?: AfterAnswer;
}

/** What each activity is handed: the worker's deps and what the worker keeps for its life (createActivities makes it once). */
export interface ActivityContext extends ActivityDeps {
  /** The contents of the publications this worker sends, each read once. */
  contents: PublicationContents;
}

/** The database and Temporal as the domain takes them. */
export const domainDeps = (deps: ActivityDeps): DomainDeps => ({
  db: deps.db,
  temporal: { client: deps.temporal, taskQueue: deps.taskQueue, ...(deps.batchGroups ? { batchGroups: deps.batchGroups } : {}) },
});

/**
 * What every activity that queues a publication (a schedule's run, a
 * monitor's automation, a journey's publish block) hands `queuePublication`:
 * the same as the API's publish, so an offer of a marketplace the tenant has
 * an integration for is sent with its tracked link per group whoever started it.
 */
export const publishingDeps = (deps: ActivityDeps): PublishingDeps => ({
  ...domainDeps(deps),
  secretKey: deps.secretKey,
  ...(deps.publicUrl ? { publicUrl: deps.publicUrl } : {}),
  ...(deps.shortLinkHosts ? { shortLinkHosts: deps.shortLinkHosts } : {}),
});

/** What a publication's send steps take: failures that must not fail a step go to the activity's log. */
export const sendingDeps = (ctx: ActivityContext): SendingDeps => ({
  ...domainDeps(ctx),
  secretKey: ctx.secretKey,
  contents: ctx.contents,
  report: (what, err) => void reportInternalError(what, err),
  ...(ctx.afterAnswer ? { afterAnswer: ctx.afterAnswer } : {}),
});
