/**
 * The walk over a ULog file's messages: every message header is read (3 bytes: size, type)
 * and the definitions are decoded; data payloads are skipped by their size, never decoded.
 * Only the first two bytes of a `D` message (its msg_id, to count it) and, until one is
 * found, the `time_utc_usec` field of a GPS message are looked at.
 */
import { messageSizes, parseFormat } from './format.js';
import { type ChunkReader, text, view } from './reader.js';
import {
  DATA_SECTION,
  type GpsProbe,
  gpsProbeOf,
  gpsTimeAt,
  gpsTimeIn,
  MSG,
  stepMessages,
  type UlogScan,
  type UlogSubscription,
} from './scan-model.js';
import type { UlogRangeScan, UlogSegment } from './scan-range.js';
import { decodeValue, parseKey, typeText, type UlogValue } from './values.js';

/**
 * 1 at the types a window's walk only counts (#walkWindow): data, untagged logs, dropouts,
 * syncs and removed subscriptions. Tagged logs (their tag read) and the rest go through `walk`.
 */
const COUNTED = new Uint8Array(256);
for (const t of [MSG.data, MSG.log, MSG.dropout, MSG.sync, MSG.removeSubscription]) COUNTED[t] = 1;

/** One walk over the messages between two offsets; state shared across the parts of a file. */
export class UlogWalker {
  readonly scan: UlogScan;
  #reader: ChunkReader;
  #gps = new Map<number, GpsProbe>();
  /**
   * By msg_id (16 bits): its subscription (as `scan.subscriptions` holds it), and the sizes
   * its messages may have after the msg_id (min -1: any). Arrays, not Maps: a lookup a data
   * message, of millions. On bench/ulog's 1 GB (21 M messages), one job, alternated: 4.63
   * and 4.84 s (a third run took 6.9 s, slowed by other work), against 4.93 to 4.98 s with
   * Maps. They grow to the largest msg_id subscribed (#fit): an inspection of a small file
   * (the tests inspect thousands) makes no 64 Ki-entry tables.
   */
  #subs: Array<UlogSubscription | undefined> = [];
  #minSize = new Int32Array(0);
  #maxSize = new Int32Array(0);
  /** 1 at each msg_id subscribed to a GPS message (#gps), for the window's walk. */
  #isGps = new Uint8Array(0);
  #onProgress: ((done: number, total: number) => void) | undefined;
  #nextProgress = 0;
  /**
   * True when a range taken in (takeRange) met what only one walk decides: a format in the
   * data section. The caller walks again.
   */
  inexact = false;
  /** The first subscription to a GPS message (scan-gps.ts looks for the first time from it). */
  gpsFrom: number | undefined;

  /** The msg_ids subscribed to GPS messages so far, and where each holds its time. */
  gpsProbes(): Array<[number, GpsProbe]> {
    return [...this.#gps];
  }

  constructor(
    reader: ChunkReader,
    scan: UlogScan,
    onProgress?: (done: number, total: number) => void,
  ) {
    this.#reader = reader;
    this.scan = scan;
    this.#onProgress = onProgress;
  }

  /**
   * Walks the messages in [from, end). Returns the offset where the walk stopped (end, or
   * where a message runs past it). With `definitions`, it stops before the first message
   * of the data section (the definitions end there, as the format and pyulog say).
   */
  async walk(from: number, end: number, definitions = false): Promise<number> {
    return stepMessages(this.#reader, from, end, end, {
      window: (pos) => this.#walkWindow(pos, end, definitions),
      message: (type, pos, size, head) => this.#message(type, pos, size, head, definitions),
      damage: (damage) => this.scan.damage.push(damage),
      done: () => false,
    });
  }

  /**
   * A message the window's walk left (`head`: its header and msg_id when it has one); true
   * when it ends the definitions (`definitions`: the first of the data section).
   */
  async #message(
    type: number,
    pos: number,
    size: number,
    head: Uint8Array,
    definitions: boolean,
  ): Promise<boolean> {
    if (definitions && DATA_SECTION[type] === 1) return true;
    this.scan.messages += 1;
    if (type === MSG.data) {
      const msgId =
        size >= 2 && head.byteLength >= 5 ? (head[3] as number) | ((head[4] as number) << 8) : -1;
      const probe = this.#data(pos, size, msgId);
      const fix = probe && (await gpsTimeAt(this.#reader, pos, size, probe));
      if (fix) this.scan.gps = fix;
    } else {
      await this.#other(type, pos, size);
    }
    const next = pos + 3 + size;
    if (next >= this.#nextProgress) this.#progress(next);
    return false;
  }

  /**
   * Walks the messages from `pos` while the window holds their header and msg_id and they
   * need no read (data messages, a GPS message whole, and the data section's messages that
   * are only counted); returns where it stopped, for `walk` to go on from. A
   * synchronous loop, with the window and the counts in locals: through the async `walk`
   * alone, the inspection of bench/ulog's 1 GB (21 M messages, read through two buffers
   * that take turns) took 0.87 to 0.91 s, and 0.40 to 0.45 s with it.
   */
  #walkWindow(from: number, end: number, definitions: boolean): number {
    const reader = this.#reader;
    const buf = reader.window;
    const base = reader.windowStart;
    const scan = this.scan;
    // Messages whose header and msg_id (5 bytes) are in the window and that end by `end`.
    const last = Math.min(base + buf.byteLength - 5, end - 3);
    let pos = from;
    if (definitions || pos < base) return pos;
    // While a GPS time is wanted, a GPS message's time is read here when the window holds
    // the message, and in `walk` when it does not.
    let gpsWanted = scan.gps === undefined && this.#gps.size > 0;
    const isGps = this.#isGps;
    let messages = 0;
    while (pos <= last) {
      const at = pos - base;
      const size = (buf[at] as number) | ((buf[at + 1] as number) << 8);
      const type = buf[at + 2] as number;
      const next = pos + 3 + size;
      if (next > end || COUNTED[type] !== 1) break;
      if (type === MSG.data) {
        if (size < 2) break;
        const msgId = (buf[at + 3] as number) | ((buf[at + 4] as number) << 8);
        if (gpsWanted && isGps[msgId] === 1) {
          if (next - base > buf.byteLength) break;
          this.#gpsHere(buf, at, pos, size, msgId);
          gpsWanted = scan.gps === undefined;
        } else this.#counted(pos, size, msgId);
      } else {
        if (scan.dataStart === undefined) scan.dataStart = pos;
        if (type === MSG.log) scan.logs += 1;
        else if (type === MSG.dropout) scan.dropouts += 1;
      }
      messages += 1;
      pos = next;
    }
    scan.messages += messages;
    if (pos >= this.#nextProgress) this.#progress(pos);
    return pos;
  }

  /**
   * Takes in a range walked apart (scan-range.ts), after the ranges before it: its counts,
   * and its entries in order, each decided with the subscriptions of its time, as `walk`
   * decides each message, but for the first GPS time (scan-gps.ts looks for it after).
   * `scan.unknownMsgIds` and `scan.badSizes` are then in the order of their ranges, not of
   * their first messages: `orderByOffset` puts them back.
   */
  takeRange(r: UlogRangeScan): void {
    const scan = this.scan;
    scan.messages += r.messages;
    scan.logs += r.logs;
    scan.dropouts += r.dropouts;
    for (const e of r.entries) {
      const pos =
        e.kind === 'data' ? (e.sizes[0]?.[2] ?? 0) : e.kind === 'damage' ? e.damage.offset : e.pos;
      if (scan.dataStart === undefined && r.dataStart !== undefined && r.dataStart <= pos) {
        scan.dataStart = r.dataStart;
      }
      if (e.kind === 'data') this.#takeSegment(e);
      else if (e.kind === 'message') {
        // A format in the data section changes the sizes and GPS messages of what follows.
        if (e.type === MSG.format) this.inexact = true;
        this.#definition(e.type, e.pos, e.body);
      } else if (e.kind === 'damage') scan.damage.push(e.damage);
      else if (e.kind === 'short') {
        scan.dataMessages += 1;
        this.#malformed(e.pos, 'a data message too short for its msg_id');
      } else if (e.tag < 0) this.#malformed(e.pos, 'a tagged log message without its tag');
      else scan.taggedLogs.set(e.tag, (scan.taggedLogs.get(e.tag) ?? 0) + 1);
    }
    if (scan.dataStart === undefined && r.dataStart !== undefined) scan.dataStart = r.dataStart;
  }

  /** A range's data messages of one msg_id, counted as `#counted` counts each. */
  #takeSegment(seg: UlogSegment): void {
    const scan = this.scan;
    const msgId = seg.msgId;
    scan.dataMessages += seg.count;
    const sub = msgId < this.#subs.length ? this.#subs[msgId] : undefined;
    if (!sub) {
      const seen = scan.unknownMsgIds.get(msgId);
      if (seen) seen.count += seg.count;
      else scan.unknownMsgIds.set(msgId, { count: seg.count, offset: seg.sizes[0]?.[2] ?? 0 });
      return;
    }
    sub.messages += seg.count;
    const min = this.#minSize[msgId] as number;
    const max = this.#maxSize[msgId] as number;
    for (const [size, n, first] of seg.sizes) {
      if (min < 0 || (size - 2 >= min && size - 2 <= max)) continue;
      const bad = scan.badSizes.get(msgId);
      if (!bad) scan.badSizes.set(msgId, { count: n, offset: first, min, max });
      else {
        bad.count += n;
        bad.offset = Math.min(bad.offset, first);
      }
    }
  }

  #progress(pos: number): void {
    this.#nextProgress = pos + (1 << 24);
    this.#onProgress?.(pos, this.#reader.size);
  }

  /** Counts a data message; returns the GPS probe to read when its time is still wanted. */
  #data(pos: number, size: number, msgId: number): GpsProbe | undefined {
    if (msgId < 0) {
      this.scan.dataMessages += 1;
      if (this.scan.dataStart === undefined) this.scan.dataStart = pos;
      this.#malformed(pos, 'a data message too short for its msg_id');
      return undefined;
    }
    if (!this.#counted(pos, size, msgId)) return undefined;
    if (this.scan.gps || this.#gps.size === 0) return undefined;
    const probe = this.#gps.get(msgId);
    return probe && probe.offset + 8 <= size - 2 ? probe : undefined;
  }

  /** Counts a data message of a msg_id; false when no subscription announced it. */
  #counted(pos: number, size: number, msgId: number): boolean {
    const scan = this.scan;
    scan.dataMessages += 1;
    if (scan.dataStart === undefined) scan.dataStart = pos;
    const sub = msgId < this.#subs.length ? this.#subs[msgId] : undefined;
    if (!sub) {
      const seen = scan.unknownMsgIds.get(msgId);
      if (seen) seen.count += 1;
      else scan.unknownMsgIds.set(msgId, { count: 1, offset: pos });
      return false;
    }
    sub.messages += 1;
    // A subscribed msg_id is inside the tables (#fit).
    const min = this.#minSize[msgId] as number;
    const max = this.#maxSize[msgId] as number;
    if (min >= 0 && (size - 2 < min || size - 2 > max)) {
      const bad = scan.badSizes.get(msgId);
      if (bad) bad.count += 1;
      else scan.badSizes.set(msgId, { count: 1, offset: pos, min, max });
    }
    return true;
  }

  /** A GPS message the window holds whole (from `at` in it): counted, its time read. */
  #gpsHere(buf: Uint8Array, at: number, pos: number, size: number, msgId: number): void {
    const probe = this.#data(pos, size, msgId);
    const fix = probe && gpsTimeIn(buf, at, pos, size, probe);
    if (fix) this.scan.gps = fix;
  }

  #malformed(offset: number, what: string): void {
    this.scan.damage.push({ offset, kind: 'malformed', what });
  }

  async #other(type: number, pos: number, size: number): Promise<void> {
    const scan = this.scan;
    if (DATA_SECTION[type] === 1 && scan.dataStart === undefined) scan.dataStart = pos;
    if (type === MSG.sync || type === MSG.removeSubscription) return;
    if (type === MSG.dropout) {
      scan.dropouts += 1;
      return;
    }
    if (type === MSG.log) {
      scan.logs += 1;
      return;
    }
    if (type === MSG.taggedLog) {
      const b = await this.#reader.get(pos + 3, 3);
      if (!b || size < 3) return this.#malformed(pos, 'a tagged log message without its tag');
      const tag = (b[1] as number) | ((b[2] as number) << 8);
      scan.taggedLogs.set(tag, (scan.taggedLogs.get(tag) ?? 0) + 1);
      return;
    }
    const body = await this.#reader.get(pos + 3, size);
    if (!body) return;
    this.#definition(type, pos, body);
  }

  #definition(type: number, pos: number, body: Uint8Array): void {
    if (type === MSG.flagBits) this.#flagBits(pos, body);
    else if (type === MSG.format) this.#format(pos, body);
    else if (type === MSG.info) {
      this.#keyed(pos, body, 0, (key, type, value) => {
        this.scan.info.push({ key, type, value });
      });
    } else if (type === MSG.multiInfo) {
      this.#keyed(pos, body, 1, (key, type, value) => this.#multi(body, key, type, value));
    } else if (type === MSG.parameter || type === MSG.defaultParameter) {
      this.#parameter(type, pos, body);
    } else if (type === MSG.addSubscription) this.#subscription(pos, body);
  }

  /**
   * The flag bits. The format wants them first; pyulog reads them anywhere in the
   * definitions (a later one replaces an earlier one) and skips them in the data section,
   * and so does this walk.
   */
  #flagBits(pos: number, body: Uint8Array): void {
    if (this.scan.dataStart !== undefined) return;
    if (body.byteLength < 40) {
      this.#malformed(pos, `a flag-bits message of ${body.byteLength} bytes (40 expected)`);
      return;
    }
    const dv = view(body);
    this.scan.flags = {
      compat: [...body.subarray(0, 8)],
      incompat: [...body.subarray(8, 16)],
      appendedOffsets: [0, 1, 2].map((i) => dv.getBigUint64(16 + 8 * i, true).toString()),
    };
  }

  #format(pos: number, body: Uint8Array): void {
    const parsed = parseFormat(text(body));
    if ('error' in parsed) {
      this.scan.damage.push({ offset: pos, kind: 'bad_format', what: parsed.error });
      return;
    }
    this.scan.formats.set(parsed.name, parsed);
  }

  /** An info, multi-info or parameter message: `[skip bytes] u8 key_len, key, value`. */
  #keyed(
    pos: number,
    body: Uint8Array,
    skip: number,
    put: (key: string, type: string, value: UlogValue) => void,
  ): void {
    const keyLength = body[skip];
    const keyEnd = skip + 1 + (keyLength ?? 0);
    if (keyLength === undefined || keyEnd > body.byteLength) {
      this.#malformed(pos, 'a key longer than its message');
      return;
    }
    const key = parseKey(text(body.subarray(skip + 1, keyEnd)));
    const value = key ? decodeValue(key, body.subarray(keyEnd)) : undefined;
    if (!key || value === undefined) {
      this.#malformed(pos, 'a key that is not `type name` with a value of that type');
      return;
    }
    put(key.name, typeText(key), value);
  }

  #multi(body: Uint8Array, key: string, type: string, value: UlogValue): void {
    const continued = body[0] !== 0;
    const list = this.scan.multiInfo;
    const last = list.findLast((m) => m.key === key);
    if (continued && last && typeof value === 'string') {
      const prev = last.values.at(-1);
      if (typeof prev === 'string') {
        last.values[last.values.length - 1] = prev + value;
        return;
      }
    }
    if (last) last.values.push(value);
    else list.push({ key, type, values: [value] });
  }

  #parameter(type: number, pos: number, body: Uint8Array): void {
    const isDefault = type === MSG.defaultParameter;
    this.#keyed(pos, body, isDefault ? 1 : 0, (name, keyType, value) => {
      const scan = this.scan;
      if (isDefault) {
        scan.defaultParameters.push({ name, type: keyType, value, defaultTypes: body[0] ?? 0 });
      } else if (scan.dataStart !== undefined) {
        if (!scan.changedParameters.includes(name)) scan.changedParameters.push(name);
      } else {
        scan.parameters.push({ name, type: keyType, value });
      }
    });
  }

  #subscription(pos: number, body: Uint8Array): void {
    if (body.byteLength < 4) {
      this.#malformed(pos, 'a subscription without its name');
      return;
    }
    const multiId = body[0] as number;
    const msgId = (body[1] as number) | ((body[2] as number) << 8);
    const messageName = text(body.subarray(3));
    const sub = { msgId, multiId, messageName, offset: pos, messages: 0 };
    this.scan.subscriptions.set(msgId, sub);
    this.#fit(msgId);
    this.#subs[msgId] = sub;
    const format = this.scan.formats.get(messageName);
    const sizes = format ? messageSizes(format, this.scan.formats) : undefined;
    this.#minSize[msgId] = sizes ? sizes[0] : -1;
    this.#maxSize[msgId] = sizes ? sizes[1] : 0;
    const probe = gpsProbeOf(messageName, multiId, this.scan.formats);
    if (probe) {
      this.#gps.set(msgId, probe);
      this.#isGps[msgId] = 1;
      this.gpsFrom ??= pos;
    }
  }

  /** Grows the msg_id tables to hold `msgId` (to a power of two, at least 64 entries). */
  #fit(msgId: number): void {
    const had = this.#subs.length;
    if (msgId < had) return;
    const size = Math.max(64, 2 ** Math.ceil(Math.log2(msgId + 1)));
    for (let k = had; k < size; k++) this.#subs.push(undefined);
    const min = new Int32Array(size).fill(-1);
    min.set(this.#minSize);
    const max = new Int32Array(size);
    max.set(this.#maxSize);
    const isGps = new Uint8Array(size);
    isGps.set(this.#isGps);
    this.#minSize = min;
    this.#maxSize = max;
    this.#isGps = isGps;
  }
}
