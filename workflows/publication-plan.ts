/**
 * What the publication workflow decides, pure (no workflow API, no activity):
 * which groups go in which child batch and chunk and which go alone, when a
 * batch of sends is recorded, what a chunk's results leave to send alone,
 * when a failed chunk is tried again, how its failures read and how the
 * publication ends. workflows/publication.ts runs these decisions with its
 * activities, timers and children; test/unit/publication-plan.test.ts checks
 * them against mocked activity results.
 */
import type { ChunkSendResult, SentRecord } from '../activities/publications';
import { FAILURES_KEPT, PublicationGroup } from '../temporal/workflows';
import { retryPauseMs } from './send-timing';

/** Attempts of one chunk of unpaced groups before each of its unsent groups goes alone. */
export const CHUNK_ATTEMPTS = 3;

/** Unpaced groups one deliverToGroups sends to. */
export const SEND_CHUNK = 25;

/** The most paced groups one reserveDeliverySlots reserves for, and the fewest sends one recordSentDeliveries writes. */
export const SENT_BATCH = 100;
/**
 * The full recordings of sends in one fan-out at most (a few smaller ones
 * follow as its last sends come in): a larger fan-out records more sends in
 * each, since every recording rewrites documents that grow with the fan-out
 * (its publication, the day's analytics buckets of its groups) and the
 * recordings' cost would otherwise grow with its square.
 */
export const RECORDINGS_MAX = 10;

/**
 * The most groups one workflow sends one by one (paced, or alone), unless
 * the input says (batch_groups); a publication with more sends them in child
 * workflows (pacedDeliveries) of at most as many each, so that no history grows with the publication
 * (Temporal warns past 10,240 events and stops a workflow at 51,200).
 * A paced group costs about 7 events when its send goes at the first try
 * (a timer started and fired, an activity scheduled, started and completed,
 * and its share of workflow tasks; 6.2 and 7.0 measured in two batches of
 * 300, decision 24), a retry about 8 more: 500 groups make about 3,500, room
 * for a retry of each under the 10,240-event warning.
 */
export const ONE_BY_ONE_MAX = 500;

/** A group as summaries name it: "Grupo 1 (grp_…)", or its id alone when the name is unknown. */
export const named = (g: PublicationGroup): string => (g.name === null ? g.group_id : `${g.name.replace(/\s+/g, ' ')} (${g.group_id})`);
/** Groups as summaries name them: "25 groups: Grupo 1 (grp_…) … Grupo 25 (grp_…)". */
export const groupsLabel = (groups: PublicationGroup[]): string =>
  `${groups.length} ${groups.length === 1 ? 'group' : 'groups'}: ${named(groups[0]!)}${groups.length > 1 ? ` … ${named(groups[groups.length - 1]!)}` : ''}`;
/** A group as pacing timers name it: "Grupo 1", or its id. */
export const shortName = (g: PublicationGroup): string => (g.name === null ? g.group_id : g.name.replace(/\s+/g, ' '));

/** `items` in consecutive batches of `size` (the last one shorter). */
export const batchesOf = <T>(items: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/** `groups` in as few batches of at most `max` as can hold them, of even sizes (the child workflows of a large publication). */
export function evenBatches<T>(groups: T[], max: number): T[][] {
  const count = Math.ceil(groups.length / max);
  return batchesOf(groups, Math.ceil(groups.length / count));
}

/** Whether a publication is one unpaced send, which completes the publication itself. */
export const completesItself = (groups: PublicationGroup[]): boolean => groups.length === 1 && !groups[0]!.paced;

/** How a publication of several groups sends them (`max`: the most it sends one by one itself). */
export interface SendPlan {
  /** Its one-by-one groups (paced, or alone) exceed `max`: they go in child batches (`oneByOne`), not from this workflow. */
  batched: boolean;
  /** The groups sent one by one: paced, or unpaced but alone. */
  oneByOne: PublicationGroup[];
  /** The paced groups this workflow sends itself (none when batched). */
  paced: PublicationGroup[];
  /** The unpaced groups this workflow sends and records (in chunks or alone). */
  unpaced: PublicationGroup[];
  /** The chunks of unpaced groups, one deliverToGroups each: none when fewer than two groups can go in one. */
  chunks: PublicationGroup[][];
  /** The unpaced groups this workflow sends alone, each with deliverToGroup, in this order. */
  alone: PublicationGroup[];
  /** The sends one recordSentDeliveries writes when full. */
  recordingSize: number;
}

/** Which groups go in child batches, which in chunks, which alone, and how many sends a recording holds. */
export function planSends(groups: PublicationGroup[], max: number): SendPlan {
  const oneByOne = groups.filter((g) => g.paced || g.alone);
  const batched = oneByOne.length > max;
  // The unpaced groups this workflow sends (and records): when batched, those that go alone are the batches'.
  const unpaced = groups.filter((g) => !g.paced && !(batched && g.alone));
  const chunked = unpaced.filter((g) => !g.alone);
  const chunks = chunked.length > 1 ? batchesOf(chunked, SEND_CHUNK) : [];
  return {
    batched,
    oneByOne,
    paced: batched ? [] : groups.filter((g) => g.paced),
    unpaced,
    chunks,
    alone: [...(chunks.length ? [] : chunked), ...unpaced.filter((g) => g.alone)],
    recordingSize: Math.max(SENT_BATCH, Math.ceil(unpaced.length / RECORDINGS_MAX)),
  };
}

/**
 * Whether the sends waiting to be recorded (`waiting`) make a recording now:
 * when they fill one (`size`), or when as many wait as sends are still under
 * way (`sending`), so that a fan-out's deliveries show as sent while it runs.
 */
export const recordingDue = (waiting: number, sending: number, size: number): boolean => sending > 0 && waiting >= Math.min(size, sending);

/** How a group of a chunk goes on once the chunk's last attempt (`attempt`) is over: sent, or alone with these options. */
export type ChunkGroupNext = { sent: SentRecord } | { alone: { tried: number; slot?: string } };

/**
 * What each group of `chunk` does after its last attempt `attempt` returned
 * `results` (undefined: every attempt failed as a whole): a group sent is
 * recorded; one that waits for a slot (pacing set since) goes alone in it;
 * any other goes alone, every attempt counted but the last when its channel
 * was not connected (that one spent none).
 */
export function chunkOutcome(chunk: PublicationGroup[], results: ChunkSendResult[] | undefined, attempt: number): ChunkGroupNext[] {
  const byGroup = new Map((results ?? []).map((r) => [r.group_id, r]));
  return chunk.map((group) => {
    const result = byGroup.get(group.group_id);
    if (result && 'record' in result) return { sent: result.record };
    if (result && 'slot' in result) return { alone: { tried: attempt - 1, slot: result.slot } };
    return { alone: { tried: result && 'disconnected' in result ? attempt - 1 : attempt } };
  });
}

/** The pause before trying a chunk again after its attempt `attempt` failed as a whole; undefined when its attempts are spent. */
export const chunkRetryPauseMs = (attempt: number): number | undefined => (attempt >= CHUNK_ATTEMPTS ? undefined : retryPauseMs(attempt));

/** Why groups were not sent to: how many, and the first few as the workflow's failure says them ("Grupo 1 (grp_…): <the recorded error>"). */
export interface Failures {
  count: number;
  first: string[];
}

export const noFailures = (): Failures => ({ count: 0, first: [] });

/** Counts `count` more failures, keeping the first FAILURES_KEPT texts (`texts`, in order). */
export function addFailures(failures: Failures, count: number, texts: string[]): void {
  failures.count += count;
  failures.first.push(...texts.slice(0, FAILURES_KEPT - failures.first.length));
}

/** What a failed publication's workflow says: the first reasons its groups were not sent to. */
export function failureText(failures: Failures): string {
  if (!failures.count) return 'no group received the publication (its deliveries say why)';
  const more = failures.count > failures.first.length ? `; and ${failures.count - failures.first.length} more` : '';
  return `no group received the publication: ${failures.first.join('; ')}${more}`;
}

/** How the publication's workflow ends for the state completePublication (or its one send) gave: its result, or failed. */
export const publicationOutcome = (status: string): { status: 'sent' | 'partial' } | 'failed' =>
  status === 'failed' ? 'failed' : { status: status === 'partial' ? 'partial' : 'sent' };
