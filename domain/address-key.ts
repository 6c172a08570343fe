/**
 * What makes a group's destination unique within its tenant: its channel and
 * a hash of its address when it is connected, its own id when it is not. A
 * unique index on it (domain/db.ts) keeps two groups from sending to one chat
 * through one channel, however many imports run at once.
 */
import { createHash } from 'node:crypto';

export function groupAddressKey(group: { _id: string; channel_id: string | null; address: string | null }): string {
  if (!group.channel_id || !group.address) return group._id;
  return `${group.channel_id}:${createHash('sha256').update(group.address).digest('hex').slice(0, 32)}`;
}
