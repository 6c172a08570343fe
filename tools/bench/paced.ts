/**
 * The paced fan-outs of `npm run bench:publish` (BENCH_PACED): a live
 * publication to groups of many http channels with a short interval, sent to
 * a gateway of the benchmark's own on loopback that answers at once and
 * counts every request per idempotency key. What it measures is the paced
 * path's cost and its histories (the publication's and its batches'), not the
 * chat network; the pacing sets a floor on the time (a channel's sends one
 * interval plus the 200 ms guard apart).
 */
import { Db } from 'mongodb';
import type { Client } from '@temporalio/client';
import { createApiKey } from '../../domain/accounts/store';
import { createChannel } from '../../domain/channels/store';
import { createGroup } from '../../domain/groups/store';
import { SCOPES } from '../../schemas/openapi/common';
import { publicationWorkflowId } from '../../temporal/names';
import { listen, portOf } from './harness';

/** Channels a paced fan-out's groups are spread over, and each channel's interval (ms). */
export const PACED_CHANNELS = Number(process.env.BENCH_PACED_CHANNELS ?? 50);
const PACED_INTERVAL_MS = 100;
const TOKEN = 'bench-gateway-token';

/** A gateway speaking our http protocol that answers 200 at once, counting the requests per idempotency key. */
export async function benchGateway(): Promise<{ url: string; sends: Map<string, number>; close(): void }> {
  const sends = new Map<string, number>();
  const server = await listen(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const { idempotency_key: key } = JSON.parse(body) as { idempotency_key: string };
    sends.set(key, (sends.get(key) ?? 0) + 1);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: `msg-${key}` }));
  });
  return { url: `http://127.0.0.1:${portOf(server)}`, sends, close: () => server.close() };
}

export interface PacedSetup {
  db: Db;
  secretKey: Buffer;
  accountId: string;
  gatewayUrl: string;
}

/**
 * A live key of the account, and a segment of `size` groups spread over PACED_CHANNELS new channels (each
 * PACED_INTERVAL_MS apart, the groups unpaced themselves), created `parallel` at a time.
 */
export async function pacedSegment(s: PacedSetup, size: number, parallel: number, newSegment: (key: string) => Promise<string>) {
  const tenant = { accountId: s.accountId, env: 'live' as const };
  const { apiKey } = await createApiKey(s.db, { accountId: s.accountId, env: 'live', scopes: SCOPES });
  const channels: string[] = [];
  for (let c = 0; c < PACED_CHANNELS; c++) {
    const channel = await createChannel(
      s.db,
      tenant,
      { type: 'http', url: s.gatewayUrl, token: TOKEN, minIntervalMs: PACED_INTERVAL_MS },
      s.secretKey,
    );
    channels.push(channel._id);
  }
  const id = await newSegment(apiKey);
  const groups: string[] = [];
  for (let i = 0; i < size; i += parallel) {
    const batch = Array.from({ length: Math.min(parallel, size - i) }, (_, j) => {
      const n = i + j;
      const channel = { id: channels[n % channels.length]!, type: 'http' as const, address: `5599${String(n).padStart(7, '0')}@g.us` };
      return createGroup(s.db, tenant, { name: `Bench paced ${size} ${n}`, segment_id: id, channel, minIntervalMs: 0 });
    });
    groups.push(...(await Promise.all(batch)).map((g) => g._id));
  }
  return { apiKey, id, groups };
}

/** The largest history (events) among a publication's batches, how many there are, and their activities. */
export async function batchHistories(client: Client, publicationId: string): Promise<{ batches: number; largest: number; activities: number }> {
  const events = (await client.workflow.getHandle(publicationWorkflowId(publicationId)).fetchHistory()).events ?? [];
  const ids = events.flatMap((e) => e.childWorkflowExecutionStartedEventAttributes?.workflowExecution?.workflowId ?? []);
  let largest = 0;
  let activities = 0;
  for (const id of ids) {
    const handle = client.workflow.getHandle(id);
    largest = Math.max(largest, (await handle.describe()).historyLength);
    activities += ((await handle.fetchHistory()).events ?? []).filter((e) => e.activityTaskScheduledEventAttributes).length;
  }
  return { batches: ids.length, largest, activities };
}
