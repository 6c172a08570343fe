/**
 * What every activity that queues a publication (a schedule's run, a
 * monitor's automation, a journey's publish block) hands `queuePublication`:
 * the same as the API's publish, so an offer of a marketplace the tenant has
 * an integration for is sent with its tracked link per group whoever started it.
 */
import type { PublishingDeps } from '../domain/publications/queue';
import type { ActivityDeps } from './index';

export const publishingDeps = (deps: ActivityDeps): PublishingDeps => ({
  db: deps.db,
  temporal: { client: deps.temporal, taskQueue: deps.taskQueue },
  secretKey: deps.secretKey,
  ...(deps.publicUrl ? { publicUrl: deps.publicUrl } : {}),
  ...(deps.shortLinkHosts ? { shortLinkHosts: deps.shortLinkHosts } : {}),
});
