/**
 * ULog data messages, for the row reader of the preview: walks byte ranges of the data
 * section message by message and hands over the payload of each data message of a wanted
 * msg_id and the text of each logged message. A range that starts inside the file is first
 * re-synchronised to a message boundary: the first offset from which 16 messages in a row
 * (or every message up to the range's end) have a known type and, for data messages, a
 * subscribed msg_id and a size its format allows (with or without the padding at its end,
 * which a logger may leave out). One window of 1 MiB is held at a time.
 */
import { type ChunkReader, text, view } from './reader.js';
import { KNOWN, MSG } from './scan-model.js';

export interface UlogDataHandlers {
  /**
   * A data message of a wanted msg_id: its bytes after the msg_id (timestamp first; a view
   * valid during the call) and the file offset of the message.
   */
  onData(msgId: number, message: Uint8Array, offset: number): void;
  /**
   * Instead of `onData` when given: the message's bytes after the msg_id are
   * `bytes[at, at + size)` (bytes valid during the call), no view made for each message.
   */
  onDataIn?(msgId: number, bytes: Uint8Array, at: number, size: number, offset: number): void;
  /** A logged text: tag -1 for untagged (`L`) messages; the file offset of the message. */
  onLog?(tag: number, timestampUs: bigint, text: string, offset: number): void;
  /** The walk jumps: messages before the next ones were skipped. */
  onGap(): void;
  /**
   * The walk is about to leave the window the bytes handed over so far are in (a read, a
   * search for a boundary, the walk's end): bytes kept from it are valid until this returns.
   */
  onLeave?(): void;
}

/** Sizes a subscribed msg_id's messages may have after the msg_id: [without end padding, whole]. */
export type UlogSizes = ReadonlyMap<number, readonly [number, number]>;

const CHAIN = 16;
/** The largest message: a 3-byte header and 65535 bytes. */
const MAX_MESSAGE = 3 + 0xffff;
/** How far past a range's start a message boundary is searched for. */
const RESYNC_REACH = 1 << 20;
/** 1 at each msg_id of `sizes`, up to the largest (a msg_id past it reads as undefined). */
function wantedOf(sizes: UlogSizes): Uint8Array {
  let last = 0;
  for (const msgId of sizes.keys()) last = Math.max(last, msgId);
  const wanted = new Uint8Array(last + 1);
  for (const msgId of sizes.keys()) wanted[msgId] = 1;
  return wanted;
}

/**
 * Walks the messages of each [start, end) range (ranges inside one data part `part`);
 * `sizes` gives each subscribed msg_id's message size (without the msg_id). Returns where
 * the walk stopped: the end of the message it ended in (at or past the last range's end),
 * or before it when it could go no further.
 */
export async function walkUlogData(
  reader: ChunkReader,
  part: readonly [number, number],
  ranges: ReadonlyArray<readonly [number, number]>,
  sizes: UlogSizes,
  handlers: UlogDataHandlers,
): Promise<number> {
  let reached = part[0];
  const wanted = wantedOf(sizes);
  const leave = () => handlers.onLeave?.();
  for (const [start, end] of ranges) {
    if (start > reached) leave();
    let pos = start <= reached ? reached : await boundary(reader, start, part[1], sizes);
    if (pos < 0) continue;
    if (pos > reached) handlers.onGap();
    // A window reaches at most one whole message past the range: what the range needs.
    const until = Math.min(part[1], end + MAX_MESSAGE);
    while (pos < end && pos + 3 <= part[1]) {
      // The messages the window holds whole, in a loop without an await.
      pos = walkWindow(reader, pos, end, part[1], wanted, handlers);
      if (pos >= end || pos + 3 > part[1]) break;
      let w = reader.window;
      let h = pos - reader.windowStart;
      if (h < 0 || h + 3 > w.byteLength) {
        leave();
        if (!(await reader.get(pos, 3, until))) break;
        w = reader.window;
        h = pos - reader.windowStart;
      }
      const size = (w[h] as number) | ((w[h + 1] as number) << 8);
      const type = w[h + 2] as number;
      if (KNOWN[type] !== 1 || pos + 3 + size > part[1]) {
        leave();
        const next = await boundary(reader, pos + 1, part[1], sizes);
        if (next < 0) break;
        handlers.onGap();
        pos = next;
        continue;
      }
      if (type === MSG.data || type === MSG.log || type === MSG.taggedLog) {
        let b = h + 3;
        if (b + size > w.byteLength) {
          leave();
          const got = await reader.get(pos + 3, size, until);
          w = reader.window;
          b = got ? pos + 3 - reader.windowStart : -1;
        }
        if (b >= 0) handle(type, w, b, size, pos, wanted, handlers);
      }
      pos += 3 + size;
    }
    reached = pos;
  }
  leave();
  return reached;
}

/**
 * Walks the messages from `from` that the window holds whole, of known types and inside
 * the part, handing them over; returns where it stopped (at or past `end`, or at a message
 * `walkUlogData` reads or resynchronises from). A synchronous loop: through the async walk
 * alone, bench/ulog's 1 GB took 1.1 s of a one-job full check in that loop (profiled).
 */
function walkWindow(
  reader: ChunkReader,
  from: number,
  end: number,
  partEnd: number,
  wanted: Uint8Array,
  handlers: UlogDataHandlers,
): number {
  const w = reader.window;
  const base = reader.windowStart;
  const windowEnd = Math.min(base + w.byteLength, partEnd);
  let pos = from;
  if (pos < base) return pos;
  while (pos < end && pos + 3 <= windowEnd) {
    const h = pos - base;
    const size = (w[h] as number) | ((w[h + 1] as number) << 8);
    const type = w[h + 2] as number;
    const next = pos + 3 + size;
    if (KNOWN[type] !== 1 || next > windowEnd) break;
    if (type === MSG.data || type === MSG.log || type === MSG.taggedLog)
      handle(type, w, h + 3, size, pos, wanted, handlers);
    pos = next;
  }
  return pos;
}

/** The message whose bytes after its header are `w[b, b + size)`, to its handler. */
function handle(
  type: number,
  w: Uint8Array,
  b: number,
  size: number,
  pos: number,
  wanted: Uint8Array,
  handlers: UlogDataHandlers,
): void {
  if (type === MSG.data) {
    if (size < 2) return;
    const msgId = (w[b] as number) | ((w[b + 1] as number) << 8);
    if (wanted[msgId] !== 1) return;
    if (handlers.onDataIn) handlers.onDataIn(msgId, w, b + 2, size - 2, pos);
    else handlers.onData(msgId, w.subarray(b + 2, b + size), pos);
    return;
  }
  if (!handlers.onLog) return;
  const body = w.subarray(b, b + size);
  const tagged = type === MSG.taggedLog;
  const at = tagged ? 3 : 1;
  if (body.byteLength < at + 8) return;
  const v = view(body);
  const tag = tagged ? v.getUint16(1, true) : -1;
  handlers.onLog(tag, v.getBigUint64(at, true), text(body.subarray(at + 8)), pos);
}

/**
 * The first message boundary at or after `from` (within reach); -1 when none is found.
 * `sizes` undefined: before the subscriptions are known (a range of the inspection walk), a
 * data message of any msg_id and size is taken.
 */
export async function boundary(
  reader: ChunkReader,
  from: number,
  end: number,
  sizes: UlogSizes | undefined,
): Promise<number> {
  const last = Math.min(end - 3, from + RESYNC_REACH);
  for (let p = from; p <= last; p++) {
    if (await chainAt(reader, p, end, sizes)) return p;
  }
  return -1;
}

/** True when CHAIN messages from `p` (or all up to `end`) look whole and known. */
async function chainAt(
  reader: ChunkReader,
  p: number,
  end: number,
  sizes: UlogSizes | undefined,
): Promise<boolean> {
  let pos = p;
  for (let n = 0; n < CHAIN; n++) {
    if (pos === end) return true;
    const head = await reader.get(pos, Math.min(5, end - pos));
    if (!head || head.byteLength < 3) return false;
    const size = (head[0] as number) | ((head[1] as number) << 8);
    const type = head[2] as number;
    if (KNOWN[type] !== 1 || pos + 3 + size > end) return false;
    if (type === MSG.data && sizes) {
      if (head.byteLength < 5) return false;
      const msgId = (head[3] as number) | ((head[4] as number) << 8);
      const allowed = sizes.get(msgId);
      if (!allowed || size - 2 < allowed[0] || size - 2 > allowed[1]) return false;
    }
    pos += 3 + size;
  }
  return true;
}
