/**
 * The publication workflow's decisions (workflows/publication-plan.ts), with
 * mocked activity results and no server: which groups go in child batches,
 * chunks or alone; when its sends are recorded as they come in; what a
 * chunk's results leave to send alone and when a failed chunk is tried
 * again; how its failures read and how it ends. test/workflows/publication.test.ts
 * runs the same workflow code on a Temporal server.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ChunkSendResult, SentRecord } from '../../activities/publications';
import { FAILURES_KEPT, PublicationGroup } from '../../temporal/workflows';
import {
  addFailures,
  CHUNK_ATTEMPTS,
  chunkOutcome,
  chunkRetryPauseMs,
  completesItself,
  evenBatches,
  failureText,
  groupsLabel,
  noFailures,
  planSends,
  publicationOutcome,
  RECORDINGS_MAX,
  recordingDue,
  SEND_CHUNK,
  SENT_BATCH,
} from '../../workflows/publication-plan';

const group = (id: string, kind: 'paced' | 'unpaced' | 'alone' = 'unpaced'): PublicationGroup => ({
  group_id: id,
  name: `Grupo ${id}`,
  paced: kind === 'paced',
  ...(kind === 'alone' ? { alone: true as const } : {}),
});
const groups = (n: number, kind: 'paced' | 'unpaced' | 'alone', prefix = kind): PublicationGroup[] =>
  Array.from({ length: n }, (_, i) => group(`${prefix}${i + 1}`, kind));
const ids = (gs: PublicationGroup[]) => gs.map((g) => g.group_id);
const record = (group_id: string, attempts = 1): SentRecord => ({ group_id, with_image: false, sent_at: '2026-01-01T00:00:00.000Z', attempts });

describe('planSends: batches, chunks and groups alone', () => {
  test('paced groups go one by one from the workflow; unpaced ones in chunks of 25; those that cannot deduplicate alone', () => {
    const paced = groups(3, 'paced');
    const unpaced = groups(28, 'unpaced');
    const alone = groups(2, 'alone');
    const plan = planSends([...paced, ...unpaced, ...alone], 500);
    assert.equal(plan.batched, false);
    assert.deepEqual(ids(plan.paced), ids(paced));
    assert.deepEqual(
      plan.chunks.map((c) => c.length),
      [SEND_CHUNK, 3],
    );
    assert.deepEqual(ids(plan.chunks.flat()), ids(unpaced));
    assert.deepEqual(ids(plan.alone), ids(alone));
    assert.deepEqual(ids(plan.unpaced), ids([...unpaced, ...alone]));
  });

  test('one unpaced group makes no chunk: it goes alone, before the groups that always do', () => {
    const plan = planSends([group('a', 'alone'), group('u'), group('p', 'paced')], 500);
    assert.deepEqual(plan.chunks, []);
    assert.deepEqual(ids(plan.alone), ['u', 'a']);
  });

  test('more one-by-one groups than the workflow sends itself: all of them, alone ones too, go in child batches', () => {
    const oneByOne = [...groups(5, 'paced'), ...groups(2, 'alone')];
    const plan = planSends([...oneByOne, ...groups(30, 'unpaced')], 6);
    assert.equal(plan.batched, true);
    assert.deepEqual(ids(plan.oneByOne), ids(oneByOne));
    assert.deepEqual(plan.paced, []);
    // The workflow still chunks and records its unpaced groups; the alone ones are the batches'.
    assert.deepEqual(ids(plan.unpaced), ids(groups(30, 'unpaced')));
    assert.deepEqual(plan.alone, []);
    assert.deepEqual(
      evenBatches(plan.oneByOne, 6).map((b) => b.length),
      [4, 3],
    );
  });

  test('exactly as many one-by-one groups as the limit: no batches', () => {
    assert.equal(planSends(groups(6, 'paced'), 6).batched, false);
  });

  test('child batches are as few as the limit allows, of even sizes, every group in one', () => {
    const all = groups(1001, 'paced');
    const batches = evenBatches(all, 500);
    assert.deepEqual(
      batches.map((b) => b.length),
      [334, 334, 333],
    );
    assert.deepEqual(ids(batches.flat()), ids(all));
    assert.deepEqual(
      evenBatches(all.slice(0, 500), 500).map((b) => b.length),
      [500],
    );
  });

  test('a recording holds 100 sends, or a tenth of a larger fan-out', () => {
    assert.equal(planSends(groups(50, 'unpaced'), 500).recordingSize, SENT_BATCH);
    assert.equal(planSends(groups(2000, 'unpaced'), 500).recordingSize, 200);
  });

  test('only one unpaced group completes the publication itself', () => {
    assert.equal(completesItself([group('u')]), true);
    assert.equal(completesItself([group('a', 'alone')]), true);
    assert.equal(completesItself([group('p', 'paced')]), false);
    assert.equal(completesItself([group('u'), group('v')]), false);
  });
});

describe('recordingDue: the sends are recorded as they come in', () => {
  /**
   * The workflow's recording loop over sends coming in `arrivals` at a time
   * (chunks returning): a recording whenever one is due; what is left goes to
   * completePublication. The sizes of the recordings, and the sends left.
   */
  function recordings(total: number, arrivals: number): { sizes: number[]; left: number } {
    const size = planSends(groups(total, 'unpaced'), 500).recordingSize;
    const sizes: number[] = [];
    let [sent, recorded, sending] = [0, 0, total];
    while (sending > 0) {
      const n = Math.min(arrivals, sending);
      [sent, sending] = [sent + n, sending - n];
      while (recordingDue(sent - recorded, sending, size)) {
        const batch = Math.min(size, sent - recorded);
        sizes.push(batch);
        recorded += batch;
      }
    }
    return { sizes, left: sent - recorded };
  }

  test('a fan-out of 2,000 in chunks of 25: recordings of 200, then smaller ones as its last sends come in', () => {
    const { sizes, left } = recordings(2000, SEND_CHUNK);
    assert.deepEqual(sizes, [...Array<number>(9).fill(200), 100, 50, 25]);
    assert.ok(sizes.filter((s) => s === 200).length <= RECORDINGS_MAX);
    // The last chunk's sends came in when none was under way any more: completePublication writes them.
    assert.equal(left, SEND_CHUNK);
  });

  test('a fan-out of 250 sent one by one: a full recording, then each time as many wait as are still under way', () => {
    const { sizes, left } = recordings(250, 1);
    assert.deepEqual(sizes, [100, 75, 38, 19, 9, 5, 2, 1]);
    // The last send came in when none was under way any more: completePublication writes it.
    assert.equal(left, 1);
  });

  test('nothing under way, nothing recorded: the rest goes with the completion', () => {
    assert.equal(recordingDue(5, 0, 100), false);
    assert.equal(recordingDue(99, 200, 100), false);
    assert.equal(recordingDue(100, 200, 100), true);
    // As many waiting as still under way: recorded now, so that the deliveries show as sent while the rest go.
    assert.equal(recordingDue(30, 30, 100), true);
  });
});

describe('a chunk of unpaced groups: its results, its attempts', () => {
  const chunk = ['g1', 'g2', 'g3', 'g4', 'g5'].map((id) => group(id));

  test("each group of the chunk goes on as its mocked deliverToGroups' result says", () => {
    const results: ChunkSendResult[] = [
      { group_id: 'g1', message_id: 'm1', record: record('g1', 2) },
      { group_id: 'g2', slot: '2026-01-01T00:00:05.000Z' },
      { group_id: 'g3', error: 'the gateway answered 503' },
      { group_id: 'g4', error: 'not connected', disconnected: true },
      // g5: no result (the chunk did not reach it)
    ];
    assert.deepEqual(chunkOutcome(chunk, results, 2), [
      { sent: record('g1', 2) },
      // Waiting for a slot spent no attempt; nor did a send whose channel was not connected.
      { alone: { tried: 1, slot: '2026-01-01T00:00:05.000Z' } },
      { alone: { tried: 2 } },
      { alone: { tried: 1 } },
      { alone: { tried: 2 } },
    ]);
  });

  test('a chunk that failed as a whole every time: each group goes alone, every attempt counted', () => {
    assert.deepEqual(
      chunkOutcome(chunk, undefined, CHUNK_ATTEMPTS),
      chunk.map(() => ({ alone: { tried: CHUNK_ATTEMPTS } })),
    );
  });

  test('a chunk failed as a whole is tried again after 2 s, then 4 s; after the third attempt, no more', () => {
    assert.equal(chunkRetryPauseMs(1), 2000);
    assert.equal(chunkRetryPauseMs(2), 4000);
    assert.equal(chunkRetryPauseMs(CHUNK_ATTEMPTS), undefined);
  });
});

describe("the publication's end", () => {
  test('the first three failures are kept in order, the others counted', () => {
    const failures = noFailures();
    addFailures(failures, 1, ['Grupo 1 (g1): refused']);
    // A child batch reports its count and its first few.
    addFailures(failures, 4, ['Grupo 2 (g2): refused', 'Grupo 3 (g3): 503', 'Grupo 4 (g4): 503']);
    assert.deepEqual(failures, { count: 5, first: ['Grupo 1 (g1): refused', 'Grupo 2 (g2): refused', 'Grupo 3 (g3): 503'] });
    assert.equal(failures.first.length, FAILURES_KEPT);
    assert.equal(
      failureText(failures),
      'no group received the publication: Grupo 1 (g1): refused; Grupo 2 (g2): refused; Grupo 3 (g3): 503; and 2 more',
    );
    assert.equal(failureText(noFailures()), 'no group received the publication (its deliveries say why)');
  });

  test("completePublication's state decides the result: sent, partial, or a failed workflow", () => {
    assert.deepEqual(publicationOutcome('sent'), { status: 'sent' });
    assert.deepEqual(publicationOutcome('partial'), { status: 'partial' });
    assert.equal(publicationOutcome('failed'), 'failed');
  });

  test('summaries name groups by name and id, a long list by its ends', () => {
    assert.equal(groupsLabel([group('g1')]), '1 group: Grupo g1 (g1)');
    assert.equal(groupsLabel(['g1', 'g2', 'g3'].map((id) => group(id))), '3 groups: Grupo g1 (g1) … Grupo g3 (g3)');
    assert.equal(groupsLabel([{ group_id: 'g9', name: null, paced: true }]), '1 group: g9');
  });
});
