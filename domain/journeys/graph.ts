/**
 * The rules of a journey graph, checked on create and on every PATCH that
 * sends `blocks`: one entry, unique ids, edges to blocks that exist, the
 * number of branches each kind needs, every block reachable, no loop that
 * does not pass through a waiting block (it would spin without pause), valid
 * time zones, conditions that name an `http` block of the graph. Pure: the
 * references to other resources (templates) are checked by the service.
 * Linear in blocks and edges.
 */
import { ErrorDetail } from '../errors';
import { Schema } from '../../schemas/types';
import { BlockType, WAITING_BLOCKS } from '../../schemas/openapi/journeys';
import { isTimeZone } from '../recurrence';

export type BlockInput = Schema<'JourneyBlockInput'>;

/** What the graph rules read of a block. */
export interface GraphBlock {
  id: string;
  type: BlockType;
  config: object;
  next?: string[];
}

/** Blocks whose `next` holds exactly two branches. */
const TWO_BRANCHES: readonly BlockType[] = ['condition', 'wait_reply'];

const detail = (id: string, rule: string, message: string, where = ''): ErrorDetail => ({
  location: 'body',
  field: `blocks[${id}]${where}`,
  rule,
  message,
});

/** The `http` block a condition's field names (`http.<id>.…`), if any. */
export const httpBlockOf = (field: string): string | null => /^http\.([a-z0-9_-]+)\./.exec(field)?.[1] ?? null;

/** The blocks by id, a repeated id an error. */
function blocksById(blocks: readonly GraphBlock[], errors: ErrorDetail[]): Map<string, GraphBlock> {
  const byId = new Map<string, GraphBlock>();
  for (const b of blocks) {
    if (byId.has(b.id)) errors.push(detail(b.id, 'unique_id', `two blocks have the id ${b.id}`));
    else byId.set(b.id, b);
  }
  return byId;
}

/** The one trigger block, the graph's entry; none or several is an error (then null). */
function entryOf(blocks: readonly GraphBlock[], errors: ErrorDetail[]): GraphBlock | null {
  const entries = blocks.filter((b) => b.type === 'trigger');
  if (entries.length !== 1) {
    const first = entries[1] ?? blocks[0];
    errors.push(
      detail(
        first?.id ?? '',
        'single_entry',
        entries.length
          ? `the graph has ${entries.length} trigger blocks (${entries.map((b) => b.id).join(', ')}); exactly one is its entry`
          : 'the graph has no trigger block; exactly one is its entry',
      ),
    );
  }
  return entries.length === 1 ? entries[0]! : null;
}

/** The rules one block breaks: its branches, its edges, its time zone, the http block its condition names. */
function blockErrors(b: GraphBlock, byId: ReadonlyMap<string, GraphBlock>, entry: GraphBlock | null, errors: ErrorDetail[]): void {
  const next = b.next ?? [];
  if (TWO_BRANCHES.includes(b.type) && next.length !== 2) {
    errors.push(detail(b.id, 'branches', `a ${b.type} block needs two branches in next, it has ${next.length}`, '.next'));
  }
  for (const target of next) {
    if (!byId.has(target)) errors.push(detail(b.id, 'dangling_edge', `next names ${target}, which is no block of the journey`, '.next'));
    else if (entry && target === entry.id) errors.push(detail(b.id, 'entry_inbound', `next leads back to the trigger block ${target}`, '.next'));
  }
  if (b.type === 'wait' && 'timezone' in b.config && typeof b.config.timezone === 'string' && !isTimeZone(b.config.timezone)) {
    errors.push(detail(b.id, 'timezone', `${b.config.timezone} is not an IANA time zone`, '.config.timezone'));
  }
  if (b.type === 'condition' && 'field' in b.config && typeof b.config.field === 'string') {
    const named = httpBlockOf(b.config.field);
    if (named !== null && byId.get(named)?.type !== 'http') {
      errors.push(detail(b.id, 'unknown_block', `the field names ${named}, which is no http block of the journey`, '.config.field'));
    }
  }
}

/** Blocks no path from the entry reaches, each an error. */
function unreachableErrors(entry: GraphBlock, byId: ReadonlyMap<string, GraphBlock>, errors: ErrorDetail[]): void {
  // Breadth-first; the queue is read by index (an Array#shift would make the walk quadratic).
  const reached = new Set<string>([entry.id]);
  const queue = [entry.id];
  for (let head = 0; head < queue.length; head++) {
    for (const t of byId.get(queue[head]!)?.next ?? []) {
      if (byId.has(t) && !reached.has(t)) {
        reached.add(t);
        queue.push(t);
      }
    }
  }
  for (const b of byId.values()) {
    if (!reached.has(b.id)) errors.push(detail(b.id, 'unreachable', `no path from the trigger block ${entry.id} reaches it`));
  }
}

/** Every rule the graph breaks, each naming the block and the rule; empty when the graph is sound. */
export function graphErrors(blocks: readonly GraphBlock[]): ErrorDetail[] {
  const errors: ErrorDetail[] = [];
  const byId = blocksById(blocks, errors);
  const entry = entryOf(blocks, errors);
  for (const b of blocks) blockErrors(b, byId, entry, errors);
  if (entry) unreachableErrors(entry, byId, errors);
  for (const id of blocksOnSpinningLoops(byId)) {
    errors.push(detail(id, 'cycle_without_wait', 'it is on a loop that passes through no wait or wait_reply block'));
  }
  return errors;
}

/**
 * Blocks on a cycle made only of non-waiting blocks (one id per such cycle):
 * a depth-first search over the graph without its waiting blocks, reporting
 * the target of each back edge.
 */
function blocksOnSpinningLoops(byId: ReadonlyMap<string, GraphBlock>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const found = new Set<string>();
  const moving = (id: string) => {
    const b = byId.get(id);
    return b !== undefined && !WAITING_BLOCKS.includes(b.type);
  };
  for (const start of byId.keys()) {
    if (state.has(start) || !moving(start)) continue;
    // Iterative DFS: a stack of [block, index of the next edge to follow].
    const stack: [string, number][] = [[start, 0]];
    state.set(start, 'open');
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const next = byId.get(top[0])!.next ?? [];
      if (top[1] >= next.length) {
        state.set(top[0], 'done');
        stack.pop();
        continue;
      }
      const target = next[top[1]++]!;
      if (!moving(target)) continue;
      const s = state.get(target);
      if (s === 'open') found.add(target);
      else if (s === undefined) {
        state.set(target, 'open');
        stack.push([target, 0]);
      }
    }
  }
  return [...found];
}

/** The template ids the blocks send, with the block naming each. */
export function templatesNamed(blocks: readonly GraphBlock[]): { blockId: string; templateId: string }[] {
  return blocks.flatMap((b) =>
    (b.type === 'message' || b.type === 'publish') && 'template_id' in b.config && typeof b.config.template_id === 'string'
      ? [{ blockId: b.id, templateId: b.config.template_id }]
      : [],
  );
}

/** The groups and segments publish blocks publish to, with the block naming each. */
export function destinationsNamed(blocks: readonly GraphBlock[]): { blockId: string; field: 'group_id' | 'segment_id'; id: string }[] {
  return blocks.flatMap((b) => {
    if (b.type !== 'publish') return [];
    const config = b.config as Record<string, unknown>;
    return (['group_id', 'segment_id'] as const).flatMap((field) => {
      const id = config[field];
      return typeof id === 'string' ? [{ blockId: b.id, field, id }] : [];
    });
  });
}

/** The detail for a block whose group or segment does not exist. */
export const missingDestination = (blockId: string, field: 'group_id' | 'segment_id', id: string): ErrorDetail =>
  detail(blockId, 'exists', `${field === 'group_id' ? 'group' : 'segment'} ${id} is not one of this account's`, `.config.${field}`);

/** The detail for a block whose template does not exist. */
export const missingTemplate = (blockId: string, templateId: string): ErrorDetail =>
  detail(blockId, 'exists', `template ${templateId} is not a template of this account`, '.config.template_id');
