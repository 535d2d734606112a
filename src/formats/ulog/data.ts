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
import { MSG } from './scan.js';

export interface UlogDataHandlers {
  /**
   * A data message of a wanted msg_id: its bytes after the msg_id (timestamp first; a view
   * valid during the call) and the file offset of the message.
   */
  onData(msgId: number, message: Uint8Array, offset: number): void;
  /** A logged text: tag -1 for untagged (`L`) messages; the file offset of the message. */
  onLog?(tag: number, timestampUs: bigint, text: string, offset: number): void;
  /** The walk jumps: messages before the next ones were skipped. */
  onGap(): void;
}

/** Sizes a subscribed msg_id's messages may have after the msg_id: [without end padding, whole]. */
export type UlogSizes = ReadonlyMap<number, readonly [number, number]>;

const CHAIN = 16;
/** The largest message: a 3-byte header and 65535 bytes. */
const MAX_MESSAGE = 3 + 0xffff;
/** How far past a range's start a message boundary is searched for. */
const RESYNC_REACH = 1 << 20;
const KNOWN = new Set<number>(Object.values(MSG));

/**
 * Walks the messages of each [start, end) range (ranges inside one data part `part`);
 * `sizes` gives each subscribed msg_id's message size (without the msg_id).
 */
export async function walkUlogData(
  reader: ChunkReader,
  part: readonly [number, number],
  ranges: ReadonlyArray<readonly [number, number]>,
  sizes: UlogSizes,
  handlers: UlogDataHandlers,
): Promise<void> {
  let reached = part[0];
  for (const [start, end] of ranges) {
    let pos = start <= reached ? reached : await boundary(reader, start, part[1], sizes);
    if (pos < 0) continue;
    if (pos > reached) handlers.onGap();
    // A window reaches at most one whole message past the range: what the range needs.
    const until = Math.min(part[1], end + MAX_MESSAGE);
    while (pos < end && pos + 3 <= part[1]) {
      // From the window without an await when it holds the bytes: this loop runs per message.
      const head = reader.peek(pos, 3) ?? (await reader.get(pos, 3, until));
      if (!head) break;
      const size = (head[0] as number) | ((head[1] as number) << 8);
      const type = head[2] as number;
      if (!KNOWN.has(type) || pos + 3 + size > part[1]) {
        const next = await boundary(reader, pos + 1, part[1], sizes);
        if (next < 0) break;
        handlers.onGap();
        pos = next;
        continue;
      }
      if (type === MSG.data || type === MSG.log || type === MSG.taggedLog) {
        const body = reader.peek(pos + 3, size) ?? (await reader.get(pos + 3, size, until));
        if (body) handle(type, body, pos, sizes, handlers);
      }
      pos += 3 + size;
    }
    reached = pos;
  }
}

function handle(
  type: number,
  body: Uint8Array,
  pos: number,
  sizes: UlogSizes,
  handlers: UlogDataHandlers,
): void {
  if (type === MSG.data) {
    if (body.byteLength < 2) return;
    const msgId = (body[0] as number) | ((body[1] as number) << 8);
    if (sizes.has(msgId)) handlers.onData(msgId, body.subarray(2), pos);
    return;
  }
  if (!handlers.onLog) return;
  const tagged = type === MSG.taggedLog;
  const at = tagged ? 3 : 1;
  if (body.byteLength < at + 8) return;
  const v = view(body);
  const tag = tagged ? v.getUint16(1, true) : -1;
  handlers.onLog(tag, v.getBigUint64(at, true), text(body.subarray(at + 8)), pos);
}

/** The first message boundary at or after `from` (within reach); -1 when none is found. */
async function boundary(
  reader: ChunkReader,
  from: number,
  end: number,
  sizes: UlogSizes,
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
  sizes: UlogSizes,
): Promise<boolean> {
  let pos = p;
  for (let n = 0; n < CHAIN; n++) {
    if (pos === end) return true;
    const head = await reader.get(pos, Math.min(5, end - pos));
    if (!head || head.byteLength < 3) return false;
    const size = (head[0] as number) | ((head[1] as number) << 8);
    const type = head[2] as number;
    if (!KNOWN.has(type) || pos + 3 + size > end) return false;
    if (type === MSG.data) {
      if (head.byteLength < 5) return false;
      const msgId = (head[3] as number) | ((head[4] as number) << 8);
      const allowed = sizes.get(msgId);
      if (!allowed || size - 2 < allowed[0] || size - 2 > allowed[1]) return false;
    }
    pos += 3 + size;
  }
  return true;
}
