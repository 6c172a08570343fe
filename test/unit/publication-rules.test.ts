/**
 * The rules of a publication that need no database: which groups it goes to
 * (domain/publications/targets.ts), what a send checks of its group and
 * channel (domain/channels/send-target.ts), how the publication ends (completion.ts), and the analytics
 * counters each of those moves (domain/publications/counts.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { completedFact, deliveryFact, queuedFact } from '../../domain/publications/counts';
import { isPaced } from '../../domain/channels/pacing';
import { ConnectorError } from '../../domain/channels/connectors/types';
import { Tenant } from '../../domain/db';
import { GroupDoc } from '../../domain/groups/store';
import { finalStatus } from '../../domain/publications/completion';
import { canReceive, pickGroup } from '../../domain/publications/targets';
import { channelIdOf, checkSendable, pacingOf, sendTarget, slotRequestOf } from '../../domain/channels/send-target';
import { ChannelDoc } from '../../domain/channels/store';

const live: Tenant = { accountId: 'acc_1', env: 'live' };
const sandbox: Tenant = { accountId: 'acc_1', env: 'test' };

/** A group with what these rules read; the rest of a stored group does not matter to them. */
const group = (fields: Partial<GroupDoc> = {}): GroupDoc =>
  ({ _id: 'grp_1', name: 'Ofertas', active: true, channel_id: 'chn_1', min_interval_ms: 0, ...fields }) as GroupDoc;

const refusedWith = (message: string) => (err: unknown) => err instanceof ConnectorError && err.permanent && err.message === message;

describe('which groups can receive', () => {
  test('live data: an active group connected to a channel; the sandbox needs no channel', () => {
    assert.equal(canReceive(live, group()), true);
    assert.equal(canReceive(live, group({ channel_id: null })), false);
    assert.equal(canReceive(live, group({ active: false })), false);
    assert.equal(canReceive(sandbox, group({ channel_id: null })), true);
    assert.equal(canReceive(sandbox, group({ active: false })), false);
  });

  test('a live send goes through the group’s channel; a sandbox send through none', () => {
    assert.equal(channelIdOf(live, group()), 'chn_1');
    assert.equal(channelIdOf(sandbox, group()), null);
  });
});

describe('pickGroup: one group of a segment', () => {
  const groups = ['grp_a', 'grp_b', 'grp_c'].map((_id) => group({ _id }));
  const counts = (entries: [string, number][]) => new Map(entries);

  test('round_robin: every delivery made to the segment’s groups moves the turn on by one', () => {
    assert.equal(pickGroup('round_robin', groups, counts([]))._id, 'grp_a');
    assert.equal(pickGroup('round_robin', groups, counts([['grp_a', 1]]))._id, 'grp_b');
    assert.equal(pickGroup('round_robin', groups, counts([['grp_c', 2]]))._id, 'grp_c');
    // Seven deliveries in all, whichever groups had them: 7 mod 3.
    assert.equal(
      pickGroup(
        'round_robin',
        groups,
        counts([
          ['grp_a', 5],
          ['grp_b', 2],
        ]),
      )._id,
      'grp_b',
    );
  });

  test('least_loaded: the fewest deliveries, a group with none counting as none, ties to the lowest id', () => {
    assert.equal(
      pickGroup(
        'least_loaded',
        groups,
        counts([
          ['grp_a', 2],
          ['grp_b', 1],
          ['grp_c', 3],
        ]),
      )._id,
      'grp_b',
    );
    assert.equal(
      pickGroup(
        'least_loaded',
        groups,
        counts([
          ['grp_a', 1],
          ['grp_c', 1],
        ]),
      )._id,
      'grp_b',
    );
    assert.equal(
      pickGroup(
        'least_loaded',
        groups,
        counts([
          ['grp_a', 4],
          ['grp_b', 4],
          ['grp_c', 4],
        ]),
      )._id,
      'grp_a',
    );
    assert.equal(pickGroup('least_loaded', groups, counts([]))._id, 'grp_a');
  });
});

describe('pacing of a send', () => {
  const channel = { id: 'chn_1', minIntervalMs: 300 };

  test('a send is paced by its group’s interval and its channel’s', () => {
    assert.deepEqual(pacingOf({ _id: 'chn_1', min_interval_ms: 300 } as ChannelDoc), channel);
    assert.deepEqual(slotRequestOf(group({ min_interval_ms: 2000 }), channel), {
      groupId: 'grp_1',
      groupIntervalMs: 2000,
      channelId: 'chn_1',
      channelIntervalMs: 300,
    });
    assert.equal(isPaced(slotRequestOf(group(), channel)), true);
    assert.equal(isPaced(slotRequestOf(group({ min_interval_ms: 500 }), null)), true);
    assert.equal(isPaced(slotRequestOf(group(), { id: 'chn_1', minIntervalMs: 0 })), false);
    assert.equal(isPaced(slotRequestOf(group(), null)), false);
  });
});

describe('what a send checks before the channel is asked', () => {
  test('a group that is gone, or whose channel is gone, is refused for good', () => {
    assert.throws(() => sendTarget(live, null, undefined), refusedWith('the group no longer exists'));
    assert.throws(() => sendTarget(live, group(), null), refusedWith("the group's channel no longer exists"));
    const found = group();
    assert.deepEqual(sendTarget(live, found, { id: 'chn_1' }), { group: found, channel: { id: 'chn_1' } });
    // A sandbox send reads no channel.
    assert.deepEqual(sendTarget(sandbox, found, undefined), { group: found, channel: null });
  });

  test('an inactive group is refused; a live group with no channel is refused; a sandbox one is not', () => {
    assert.throws(() => checkSendable(live, group({ active: false }), { id: 'chn_1' }), refusedWith('the group is inactive'));
    assert.throws(() => checkSendable(live, group(), null), refusedWith('the group is not connected to a channel'));
    assert.doesNotThrow(() => checkSendable(live, group(), { id: 'chn_1' }));
    assert.doesNotThrow(() => checkSendable(sandbox, group(), null));
  });
});

describe('how a publication ends', () => {
  const ended = (...statuses: string[]) => finalStatus(statuses.map((status) => ({ status }) as { status: 'sent' }));

  test('sent when every delivery was sent, failed when none was, partial otherwise', () => {
    assert.equal(ended('sent'), 'sent');
    assert.equal(ended('sent', 'sent', 'sent'), 'sent');
    assert.equal(ended('failed'), 'failed');
    assert.equal(ended('failed', 'failed'), 'failed');
    assert.equal(ended('sent', 'failed'), 'partial');
    assert.equal(ended('failed', 'failed', 'sent'), 'partial');
  });
});

describe('what a publication counts in analytics', () => {
  const queued_at = new Date('2026-11-20T13:05:00Z');
  const publication = { offer_id: 'off_1', segment_id: 'seg_1', source: 'shopee' as const, queued_at, group_ids: ['grp_a', 'grp_b'] };

  test('queued: one publication in every dimension it has, one delivery per group, at the time it was queued', () => {
    const fact = queuedFact(publication);
    assert.equal(fact.at, queued_at);
    assert.deepEqual(fact.incs, [
      { dimension: 'totals', counter: 'publications', by: 1 },
      { dimension: 'hours', counter: 'publications', by: 1 },
      { dimension: 'offers', key: 'off_1', counter: 'publications', by: 1 },
      { dimension: 'segments', key: 'seg_1', counter: 'publications', by: 1 },
      { dimension: 'sources', key: 'shopee', counter: 'publications', by: 1 },
      { dimension: 'totals', counter: 'deliveries', by: 2 },
      { dimension: 'groups', key: 'grp_a', counter: 'deliveries', by: 1 },
      { dimension: 'groups', key: 'grp_b', counter: 'deliveries', by: 1 },
    ]);
  });

  test('a publication to one group without offer, segment or source counts in totals and hours only', () => {
    const fact = queuedFact({ offer_id: null, segment_id: null, queued_at, group_ids: ['grp_a'] });
    assert.deepEqual(
      fact.incs.map((i) => `${i.dimension}:${i.key ?? ''}:${i.counter}:${i.by}`),
      ['totals::publications:1', 'hours::publications:1', 'totals::deliveries:1', 'groups:grp_a:deliveries:1'],
    );
  });

  test('completed: partial counts as sent, failed as failed, on the day and hour it was queued', () => {
    for (const [status, counter] of [
      ['sent', 'publications_sent'],
      ['partial', 'publications_sent'],
      ['failed', 'publications_failed'],
    ] as const) {
      const fact = completedFact(publication, status);
      assert.equal(fact.at, queued_at);
      assert.deepEqual(new Set(fact.incs.map((i) => i.counter)), new Set([counter]), status);
      assert.deepEqual(
        fact.incs.map((i) => i.dimension),
        ['totals', 'hours', 'offers', 'segments', 'sources'],
      );
    }
  });

  test('one delivery: sent or failed in totals and its group, at its publication’s time', () => {
    assert.deepEqual(deliveryFact({ group_id: 'grp_a', queued_at }, 'failed'), {
      at: queued_at,
      incs: [
        { dimension: 'totals', counter: 'deliveries_failed', by: 1 },
        { dimension: 'groups', key: 'grp_a', counter: 'deliveries_failed', by: 1 },
      ],
    });
    assert.deepEqual(
      deliveryFact({ group_id: 'grp_b', queued_at }, 'sent').incs.map((i) => i.counter),
      ['deliveries_sent', 'deliveries_sent'],
    );
  });
});
