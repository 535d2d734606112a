/**
 * The inspection walk over one byte range of a ULog data part, for a walk shared by threads
 * (inspect.ts `walkPartInRanges`): a range is walked as the whole walk steps (scan.ts
 * `UlogWalker.walk`: each message's header, a resynchronisation at the next sync message
 * after an unknown type), without the state the messages before the range leave: which
 * msg_ids are subscribed, and to what. So what depends on that state is not decided here:
 *
 * - the data messages of each msg_id are counted, by size, with their first offsets; a
 *   subscription to the msg_id ends its count (a segment) and starts another;
 * - every other message that is not only counted (subscriptions, formats, info, parameters,
 *   tagged logs, damage) is kept, in order, for the walk to take in after the ranges
 *   before (`UlogWalker.takeRange`), which decides each segment with the subscriptions of
 *   its time.
 *
 * The stepping itself depends on the bytes alone, so a range that starts where the walk of
 * the range before stopped walks the messages the whole walk would.
 */
import type { ChunkReader } from './reader.js';
import { DATA_SECTION, MSG, stepMessages, type UlogDamage } from './scan-model.js';

/** Data messages of one msg_id between two subscriptions to it (or a range's ends). */
export interface UlogSegment {
  kind: 'data';
  msgId: number;
  count: number;
  /** Each size seen: [size after the 3-byte header, messages, first offset]. */
  sizes: Array<[number, number, number]>;
}

export type UlogRangeEntry =
  | UlogSegment
  /** A definition or subscription message, its bytes after the header. */
  | { kind: 'message'; type: number; pos: number; body: Uint8Array }
  /** A tagged log with its tag; -1 when it is too short for one. */
  | { kind: 'tagged'; pos: number; tag: number }
  /** A data message too short for its msg_id. */
  | { kind: 'short'; pos: number }
  | { kind: 'damage'; damage: UlogDamage };

/** A range's walk: where it started and stopped, its counts and its entries in file order. */
export interface UlogRangeScan {
  start: number;
  reached: number;
  messages: number;
  logs: number;
  dropouts: number;
  /** The first message of a data-section type (the walk's `dataStart`). */
  dataStart?: number;
  entries: UlogRangeEntry[];
}

/** The types only counted: as scan.ts counts them. */
const COUNTED = new Uint8Array(256);
for (const t of [MSG.log, MSG.dropout, MSG.sync, MSG.removeSubscription]) COUNTED[t] = 1;

/** The counts of one range's data messages by msg_id, open until a subscription or the end. */
class Segments {
  readonly count = new Int32Array(0x10000);
  /** The first size seen, and its messages (most msg_ids have one size). */
  readonly size = new Int32Array(0x10000);
  readonly sized = new Int32Array(0x10000);
  readonly first = new Float64Array(0x10000);
  /** Other sizes: msg_id → size → [messages, first offset]. */
  readonly others = new Map<number, Map<number, [number, number]>>();
  readonly open: number[] = [];

  add(msgId: number, size: number, pos: number): void {
    if (this.count[msgId] === 0) {
      this.open.push(msgId);
      this.size[msgId] = size;
      this.first[msgId] = pos;
    }
    (this.count[msgId] as number) += 1;
    if (this.size[msgId] === size) (this.sized[msgId] as number) += 1;
    else this.#other(msgId, size, pos);
  }

  #other(msgId: number, size: number, pos: number): void {
    const sizes = this.others.get(msgId) ?? new Map<number, [number, number]>();
    this.others.set(msgId, sizes);
    const had = sizes.get(size);
    if (had) had[0] += 1;
    else sizes.set(size, [1, pos]);
  }

  /** The segment of `msgId` so far, its counts cleared; undefined when it has none. */
  close(msgId: number): UlogSegment | undefined {
    const count = this.count[msgId] as number;
    if (count === 0) return undefined;
    const sizes: UlogSegment['sizes'] = [
      [this.size[msgId] as number, this.sized[msgId] as number, this.first[msgId] as number],
    ];
    for (const [size, [n, first]] of this.others.get(msgId) ?? []) sizes.push([size, n, first]);
    this.count[msgId] = 0;
    this.sized[msgId] = 0;
    this.others.delete(msgId);
    this.open.splice(this.open.indexOf(msgId), 1);
    return { kind: 'data', msgId, count, sizes };
  }
}

/**
 * Walks the messages that start in [start, end) of the data part ending at `partEnd` (the
 * last may run past `end`), as `UlogWalker.walk` does.
 */
export async function scanUlogRange(
  reader: ChunkReader,
  range: { start: number; end: number; partEnd: number },
): Promise<UlogRangeScan> {
  const { start, end, partEnd } = range;
  const out: UlogRangeScan = {
    start,
    reached: start,
    messages: 0,
    logs: 0,
    dropouts: 0,
    entries: [],
  };
  const segments = new Segments();
  const pos = await stepMessages(reader, start, end, partEnd, {
    window: (at) => walkWindow(reader, at, end, partEnd, segments, out),
    message: async (type, at, size, head) => {
      await slowMessage(reader, type, at, size, head, segments, out);
      return false;
    },
    damage: (damage) => out.entries.push({ kind: 'damage', damage }),
    done: () => false,
  });
  for (const msgId of [...segments.open]) out.entries.push(segments.close(msgId) as UlogSegment);
  out.reached = pos;
  return out;
}

/**
 * The messages from `from` that the window holds whole (their header and msg_id), walked
 * without an await: data messages and the types only counted. Returns where it stopped.
 */
function walkWindow(
  reader: ChunkReader,
  from: number,
  end: number,
  partEnd: number,
  segments: Segments,
  out: UlogRangeScan,
): number {
  const w = reader.window;
  const base = reader.windowStart;
  const last = Math.min(base + w.byteLength - 5, partEnd - 3);
  let pos = from;
  if (pos < base) return pos;
  // The counts in locals, the segments' tables too: a message of a msg_id counted before
  // in this segment, of its first size, is two increments.
  const { count, size: firstSize, sized } = segments;
  const stop = Math.min(end, last + 1);
  const windowEnd = Math.min(partEnd, base + w.byteLength);
  let messages = 0;
  let logs = 0;
  let dropouts = 0;
  while (pos < stop) {
    const h = pos - base;
    const size = (w[h] as number) | ((w[h + 1] as number) << 8);
    const type = w[h + 2] as number;
    const next = pos + 3 + size;
    if (next > windowEnd) break;
    if (type === MSG.data) {
      if (size < 2) break;
      const msgId = (w[h + 3] as number) | ((w[h + 4] as number) << 8);
      const n = count[msgId] as number;
      if (n > 0 && firstSize[msgId] === size) {
        count[msgId] = n + 1;
        sized[msgId] = (sized[msgId] as number) + 1;
      } else segments.add(msgId, size, pos);
    } else if (COUNTED[type] === 1) {
      if (type === MSG.log) logs += 1;
      else if (type === MSG.dropout) dropouts += 1;
    } else break;
    messages += 1;
    pos = next;
  }
  // Every message walked here is of a data-section type: the first is at `from`.
  if (messages > 0) out.dataStart ??= from;
  out.messages += messages;
  out.logs += logs;
  out.dropouts += dropouts;
  return pos;
}

/**
 * A message the window's walk left (`head`: its header and msg_id when it has one): read
 * what it needs and count it or keep it.
 */
async function slowMessage(
  reader: ChunkReader,
  type: number,
  pos: number,
  size: number,
  head: Uint8Array,
  segments: Segments,
  out: UlogRangeScan,
): Promise<void> {
  out.messages += 1;
  if (DATA_SECTION[type] === 1) out.dataStart ??= pos;
  if (type === MSG.data) {
    // Its msg_id is in the header read: the rest of the message is not.
    if (size < 2 || head.byteLength < 5) out.entries.push({ kind: 'short', pos });
    else segments.add((head[3] as number) | ((head[4] as number) << 8), size, pos);
    return;
  }
  if (type === MSG.sync || type === MSG.removeSubscription) return;
  if (type === MSG.dropout) out.dropouts += 1;
  else if (type === MSG.log) out.logs += 1;
  else if (type === MSG.taggedLog) {
    const b = await reader.get(pos + 3, 3);
    const tag = !b || size < 3 ? -1 : (b[1] as number) | ((b[2] as number) << 8);
    out.entries.push({ kind: 'tagged', pos, tag });
  } else {
    const body = await reader.get(pos + 3, size);
    if (!body) return;
    if (type === MSG.addSubscription && body.byteLength >= 3) {
      const segment = segments.close((body[1] as number) | ((body[2] as number) << 8));
      if (segment) out.entries.push(segment);
    }
    out.entries.push({ kind: 'message', type, pos, body: body.slice() });
  }
}
