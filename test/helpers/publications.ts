/** Publications and the groups they go to, as tests set them up. */
import { Db } from 'mongodb';
import { createChannel } from '../../domain/channels/store';
import { Tenant } from '../../domain/db';
import { createGroup } from '../../domain/groups/store';
import { newId } from '../../domain/ids';
import { PublicationDoc } from '../../domain/publications/store';

/** A queued publication's document as the request stores it (text only, no offer), for tests that write one directly. */
export function queuedPublicationDoc(tenant: Tenant, groupIds: string[], segmentId: string | null = null): PublicationDoc {
  const now = new Date();
  return {
    _id: newId('pub'),
    account_id: tenant.accountId,
    env: tenant.env,
    offer_id: null,
    group_id: null,
    segment_id: segmentId,
    schedule_id: null,
    template_id: null,
    text: 'Hello',
    image_url: null,
    with_image: false,
    status: 'queued',
    group_ids: groupIds,
    event_id: null,
    request_hash: null,
    queued_at: now,
    completed_at: null,
    created_at: now,
    updated_at: now,
  };
}

/**
 * `channels` http channels to a gateway (`intervalMs` between each one's sends), each with `perChannel` groups in
 * `segmentId`, named `<name> <channel>-<group>` (addresses `<prefix><channel, 2 digits><group, 4 digits>@g.us`): each
 * group's id and its address.
 */
export async function groupsOverChannels(
  db: Db,
  tenant: Tenant,
  opts: {
    gateway: { url: string; token: string };
    secretKey: Buffer;
    segmentId: string;
    channels: number;
    perChannel: number;
    intervalMs: number;
    name: string;
    prefix: string;
  },
): Promise<Map<string, string>> {
  const addresses = new Map<string, string>();
  for (let c = 0; c < opts.channels; c++) {
    const channel = await createChannel(db, tenant, { type: 'http', ...opts.gateway, minIntervalMs: opts.intervalMs }, opts.secretKey);
    for (let i = 0; i < opts.perChannel; i++) {
      const address = `${opts.prefix}${String(c).padStart(2, '0')}${String(i).padStart(4, '0')}@g.us`;
      const group = await createGroup(db, tenant, {
        name: `${opts.name} ${c}-${i}`,
        segment_id: opts.segmentId,
        channel: { id: channel._id, type: 'http', address },
        minIntervalMs: 0,
      });
      addresses.set(group._id, address);
    }
  }
  return addresses;
}
