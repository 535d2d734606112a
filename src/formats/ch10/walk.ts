/**
 * The walk over a CH10 file's packet headers: from the first packet, each header is read
 * (24 bytes, 36 with a secondary header), checked (sync, checksums, lengths) and tallied
 * per channel ID, and the next is found at its packet length; packet data is never read,
 * but for the 12 bytes of the first time packet that hold its time. A damaged header is
 * reported and the walk goes on at the next offset that holds a whole header with a
 * matching checksum, as irig106lib does when its reader loses sync.
 *
 * Reads are positioned: a window of 1 MiB while packets are small (one read serves many
 * headers), one header's bytes at a time while they are over 64 KiB on average (their data
 * is skipped, not read). Only a header outside the window waits for a read. One window is held at a time, and the tallies are per channel ID
 * (at most 65,536) and per data type: memory stays bounded whatever the file's size.
 *
 * Sampled (check without `full`): the headers of the packets that start in the first
 * `sampleBytes` of the file, and those from the first whole header in its last
 * `sampleBytes` to its end; a file no longer than the two is walked whole.
 */
import type { ByteSource } from '../../inspect/shared.js';
import {
  type Ch10Header,
  DATA_TYPE,
  dataTypeName,
  HEADER,
  hasSecondary,
  headerAt,
  headerLength,
  headerProblem,
  isComputerGenerated,
  RTC_HZ,
  SECONDARY,
  secondaryOk,
} from './header.js';
import { decodeTime, TIME_BODY } from './time.js';
import type { Ch10ChannelPackets, Ch10Damage, Ch10Packets } from './types.js';

const CHUNK = 1 << 20;
/** While packets are longer than this on average, each header is read alone rather than in a window. */
const LARGE_PACKET = CHUNK / 16;
/** Damaged places kept with their offsets (all are counted). */
const DAMAGE_KEPT = 10;

/** A window over a source: bytes in it are answered without a read. */
class Window {
  #source: ByteSource;
  #buf: Uint8Array = new Uint8Array(0);
  #start = 0;
  /** `head`: bytes already read from offset 0, answered from without a read. */
  constructor(source: ByteSource, head?: Uint8Array) {
    this.#source = source;
    if (head) this.#buf = head;
  }
  /**
   * The bytes from `offset` to the window's end when the window holds at least `n` of them;
   * else a new window of `ahead` bytes (shorter at the end of the source) from there.
   */
  async rest(offset: number, n: number, ahead: number): Promise<Uint8Array> {
    const at = offset - this.#start;
    if (at < 0 || at + n > this.#buf.byteLength) await this.get(offset, n, ahead);
    return this.#buf.subarray(offset - this.#start);
  }

  /**
   * The bytes [offset, offset + n) (shorter at the end of the source) when the window holds
   * them, else undefined: no read, no wait (the walk asks this for every header).
   */
  peek(offset: number, n: number): Uint8Array | undefined {
    const at = offset - this.#start;
    const end = Math.min(offset + n, this.#source.size) - this.#start;
    return at >= 0 && end <= this.#buf.byteLength ? this.#buf.subarray(at, end) : undefined;
  }

  /** The bytes [offset, offset + n), shorter at the end of the source; a miss reads `ahead` bytes or n. */
  async get(offset: number, n: number, ahead: number): Promise<Uint8Array> {
    const hit = this.peek(offset, n);
    if (hit) return hit;
    const end = Math.min(offset + n, this.#source.size);
    const length = Math.min(Math.max(n, ahead), this.#source.size - offset);
    this.#buf = await this.#source.read(offset, Math.max(0, length));
    this.#start = offset;
    return this.#buf.subarray(0, Math.max(0, end - offset));
  }
}

interface Tally {
  packets: number;
  bytes: number;
  types: Map<number, number>;
  minRtc: number;
  maxRtc: number;
}

export interface WalkOptions {
  /** Walk only the headers in the first and last this many bytes; undefined walks all. */
  sampleBytes?: number;
  /** Bytes already read from the start of the source (the inspector's head). */
  head?: Uint8Array;
  onProgress?: (done: number, total: number) => void;
}

/** The walk's state: what is read, what is tallied. */
class Walk {
  readonly window: Window;
  readonly size: number;
  readonly tallies = new Map<number, Tally>();
  readonly damage: Ch10Damage[] = [];
  damaged = 0;
  headers = 0;
  timePackets = 0;
  firstTime: Ch10Packets['firstTime'];
  cut: Ch10Packets['cut'];
  /**
   * Up to here, a look for a header that chains after damage found none (resyncHeader):
   * damage again before it takes the first whole header, so bytes are looked over once.
   */
  noChainUntil = -1;
  #progressAt = 0;
  /** The packet length, averaged over the last packets (about 8). */
  #meanLength = 0;

  constructor(
    readonly source: ByteSource,
    head: Uint8Array | undefined,
    readonly onProgress?: (done: number, total: number) => void,
  ) {
    this.window = new Window(source, head);
    this.size = source.size;
  }

  hurt(offset: number, what: string): void {
    this.damaged += 1;
    if (this.damage.length < DAMAGE_KEPT) this.damage.push({ offset, what });
  }

  progress(pos: number): void {
    if (!this.onProgress || pos - this.#progressAt < CHUNK) return;
    this.#progressAt = pos;
    this.onProgress(pos, this.size);
  }

  /**
   * What a window read reads: 1 MiB while packets are small on average, one header's bytes
   * while they are over 64 KiB (a few small packets among large ones do not change that).
   */
  get ahead(): number {
    return this.#meanLength > LARGE_PACKET ? HEADER + SECONDARY : CHUNK;
  }

  /** Tallies a whole packet's header; true for the first time packet, whose time is read next. */
  record(h: Ch10Header): boolean {
    this.headers += 1;
    this.#meanLength =
      this.#meanLength === 0 ? h.packetLength : this.#meanLength * 0.875 + h.packetLength * 0.125;
    let t = this.tallies.get(h.channelId);
    if (!t) {
      t = { packets: 0, bytes: 0, types: new Map(), minRtc: h.rtc, maxRtc: h.rtc };
      this.tallies.set(h.channelId, t);
    }
    t.packets += 1;
    t.bytes += h.packetLength;
    t.types.set(h.dataType, (t.types.get(h.dataType) ?? 0) + 1);
    if (h.rtc < t.minRtc) t.minRtc = h.rtc;
    if (h.rtc > t.maxRtc) t.maxRtc = h.rtc;
    if (h.dataType !== DATA_TYPE.timeF1) return false;
    this.timePackets += 1;
    return this.firstTime === undefined;
  }

  /** Reads and decodes the time of the first time packet, at `pos`. */
  async readTime(h: Ch10Header, pos: number): Promise<void> {
    const time =
      h.dataLength >= TIME_BODY
        ? decodeTime(await this.window.get(pos + headerLength(h), TIME_BODY, TIME_BODY))
        : undefined;
    this.firstTime = { offset: pos, channelId: h.channelId, rtc: h.rtc, ...(time ? { time } : {}) };
  }
}

/**
 * Walks the packet headers from `first` (the offset of the first packet) to the end of the
 * source, or its sampled parts.
 */
export async function walkPackets(
  source: ByteSource,
  first: number,
  options: WalkOptions = {},
): Promise<{ packets: Ch10Packets; channels: Ch10ChannelPackets[] }> {
  const walk = new Walk(source, options.head, options.onProgress);
  const sample = options.sampleBytes;
  const ranges: Array<[number, number]> = [];
  let stopped = await walkFrom(walk, first, sample === undefined ? walk.size : sample);
  if (stopped < walk.size && sample !== undefined) {
    ranges.push([first, stopped]);
    const tailStart = Math.max(stopped, walk.size - sample);
    const tail = tailStart > stopped ? await chainedHeader(walk, tailStart) : { at: stopped };
    if (tail.at < 0) {
      walk.hurt(tailStart, `no whole packet header in the last ${walk.size - tailStart} bytes`);
      stopped = walk.size;
      ranges.push([tailStart, walk.size]);
    } else {
      stopped = await walkFrom(walk, tail.at, walk.size);
      // Headers chained before it were passed over (packets in another's data, or a damaged
      // tail's): the headers read are those from where the walk started.
      ranges.push([tail.passed ? tail.at : tailStart, stopped]);
    }
  } else {
    ranges.push([first, stopped]);
  }
  options.onProgress?.(walk.size, walk.size);
  const read = ranges.length === 1 || ranges[1]?.[0] === ranges[0]?.[1] ? 'all' : 'sampled';
  return summarize(walk, read === 'all' ? [[first, walk.size]] : ranges, read);
}

/**
 * Walks packets from `pos` while they start before `until`; returns where it stopped (the
 * end of the source, `until` or past it, or the end of the last whole packet).
 */
async function walkFrom(walk: Walk, start: number, until: number): Promise<number> {
  let pos = start;
  while (pos < until && pos < walk.size) {
    // A window reaches no further than the last header before `until` needs.
    const b =
      walk.window.peek(pos, HEADER + SECONDARY) ??
      (await walk.window.get(
        pos,
        HEADER + SECONDARY,
        Math.min(walk.ahead, until - pos + HEADER + SECONDARY),
      ));
    if (b.byteLength < HEADER) {
      endsInside(walk, pos, b);
      return walk.size;
    }
    const h = headerAt(b, 0);
    const problem = h
      ? headerProblem(h)
      : 'no packet sync pattern (0xEB25) where a packet should start';
    if (!h || problem) {
      walk.hurt(pos, problem ?? '');
      const next = await resyncHeader(walk, pos + 1);
      if (next < 0) return walk.size;
      pos = next;
      continue;
    }
    if (pos + h.packetLength > walk.size) {
      walk.cut = {
        offset: pos,
        channelId: h.channelId,
        needs: h.packetLength,
        has: walk.size - pos,
      };
      return walk.size;
    }
    if (hasSecondary(h) && !secondaryOk(b, HEADER)) {
      walk.hurt(pos, "the secondary header's checksum does not match its words");
    }
    if (walk.record(h)) await walk.readTime(h, pos);
    pos += h.packetLength;
    walk.progress(pos);
  }
  return pos;
}

/** The file ends with fewer bytes than a header: a cut header, or bytes that are no packet. */
function endsInside(walk: Walk, pos: number, b: Uint8Array): void {
  if (b[0] === 0x25 && (b.byteLength < 2 || b[1] === 0xeb)) {
    walk.cut = { offset: pos, needs: HEADER, has: b.byteLength };
  } else {
    walk.hurt(pos, `${b.byteLength} bytes after the last packet are no packet header`);
  }
}

/** The first offset from `from` holding a whole header with a matching checksum, or -1. */
async function nextHeader(walk: Walk, from: number): Promise<number> {
  let at = from;
  while (at + HEADER <= walk.size) {
    const w = await walk.window.rest(at, HEADER, CHUNK);
    const last = w.byteLength - HEADER;
    for (let i = w.indexOf(0x25); i >= 0 && i <= last; i = w.indexOf(0x25, i + 1)) {
      if (w[i + 1] !== 0xeb) continue;
      const h = headerAt(w, i);
      if (h && headerProblem(h) === undefined) return at + i;
    }
    at += last + 1;
    walk.progress(at);
  }
  return -1;
}

/** Headers in a row that take a walk back after damage (fewer when the file ends first). */
const RESYNC_CHAIN = 16;

/**
 * Where the walk goes on after damage: the first header from `from` that starts a chain of
 * RESYNC_CHAIN whole headers (or one that runs to the end of the file), looked for within a
 * MiB. The rest of a damaged packet may carry packets of another recorder (Ethernet frames
 * of packets streamed over UDP); those chain for a few packets and stop where their frame
 * does, and a walk taken up by them would count channels the recording does not have and
 * damage where each frame ends. When no header within the MiB chains that far (damage on
 * damage), the first whole header, as before, and so for damage up to where the look
 * stopped (noChainUntil); -1 when there is none.
 */
async function resyncHeader(walk: Walk, from: number): Promise<number> {
  if (from < walk.noChainUntil) return nextHeader(walk, from);
  let first = -1;
  for (let at = from; ; ) {
    const found = await nextHeader(walk, at);
    if (found < 0 || (first >= 0 && found - from > CHUNK)) {
      walk.noChainUntil = found < 0 ? walk.size : found;
      return first;
    }
    if (first < 0) first = found;
    const chain = await chainFrom(walk, found, RESYNC_CHAIN);
    if (chain.toEnd || chain.headers >= RESYNC_CHAIN) return found;
    at = found + 1;
  }
}

/**
 * Where the tail's walk starts: the first header from `from` whose chain of packets runs to
 * the end of the file (or to a cut last packet, or to fewer bytes than a header). Bytes of
 * packet data that look like a header are not taken for one: packets of another recorder
 * carried whole in a packet's data (Ethernet frames of packets streamed over UDP) follow one
 * another for a few packets, but their chain stops where their frame does, and a walk
 * started on one would report damage the file does not have. When no header chains to the
 * end (the tail is damaged), the first followed by another whole header; -1 when none is.
 * `passed`: headers that chained were passed over to reach it.
 */
async function chainedHeader(walk: Walk, from: number): Promise<{ at: number; passed?: boolean }> {
  let twoInARow = -1;
  let at = from;
  for (;;) {
    const found = await nextHeader(walk, at);
    if (found < 0) return { at: twoInARow };
    const chain = await chainFrom(walk, found);
    if (chain.toEnd) return { at: found, passed: twoInARow >= 0 };
    if (twoInARow < 0 && chain.headers >= 2) twoInARow = found;
    at = found + 1;
  }
}

/**
 * The whole headers that follow one another from `pos` (each packet's length leading to
 * the next), up to `most`, and whether they reach the end of the file. Headers only: the
 * walk reads them next, from the same window.
 */
async function chainFrom(
  walk: Walk,
  start: number,
  most = Number.POSITIVE_INFINITY,
): Promise<{ headers: number; toEnd: boolean }> {
  let headers = 0;
  for (let pos = start; headers < most; ) {
    if (pos >= walk.size) return { headers, toEnd: true };
    const b = await walk.window.get(pos, HEADER, CHUNK);
    if (b.byteLength < HEADER) return { headers, toEnd: true };
    const h = headerAt(b, 0);
    if (!h || headerProblem(h) !== undefined) return { headers, toEnd: false };
    headers += 1;
    if (pos + h.packetLength > walk.size) return { headers, toEnd: true };
    pos += h.packetLength;
  }
  return { headers, toEnd: false };
}

function summarize(
  walk: Walk,
  ranges: Array<[number, number]>,
  read: 'all' | 'sampled',
): { packets: Ch10Packets; channels: Ch10ChannelPackets[] } {
  const origin = originOf(walk.tallies);
  const seconds = (rtc: number) => (origin === undefined ? 0 : (rtc - origin) / RTC_HZ);
  const channels = [...walk.tallies.entries()]
    .sort(([a], [b]) => a - b)
    .map(([channelId, t]) => ({
      channelId,
      packets: t.packets,
      bytes: t.bytes,
      dataTypes: [...t.types.entries()]
        .sort(([a], [b]) => a - b)
        .map(([dataType, packets]) => ({ dataType, name: dataTypeName(dataType), packets })),
      first: seconds(t.minRtc),
      last: seconds(t.maxRtc),
    }));
  const packets: Ch10Packets = {
    read,
    ranges,
    headers: walk.headers,
    timePackets: walk.timePackets,
    damage: walk.damage,
    damaged: walk.damaged,
  };
  if (walk.firstTime) packets.firstTime = walk.firstTime;
  if (origin !== undefined) packets.origin = origin;
  if (walk.cut) packets.cut = walk.cut;
  Object.assign(packets, absoluteRange(walk, origin));
  return { packets, channels };
}

/** The earliest relative time counter of the packets that are not computer-generated. */
function originOf(tallies: Map<number, Tally>): number | undefined {
  let origin: number | undefined;
  for (const t of tallies.values()) {
    const data = [...t.types.keys()].some((type) => !isComputerGenerated(type));
    if (data && (origin === undefined || t.minRtc < origin)) origin = t.minRtc;
  }
  return origin;
}

/** UTC of the first and last data packet, when the first time packet gives a date and year. */
function absoluteRange(walk: Walk, origin: number | undefined): { start?: string; stop?: string } {
  const anchor = walk.firstTime;
  const ms = anchor?.time?.ms;
  if (!anchor || ms === undefined || origin === undefined) return {};
  let latest = origin;
  for (const t of walk.tallies.values()) {
    if ([...t.types.keys()].some((type) => !isComputerGenerated(type)) && t.maxRtc > latest)
      latest = t.maxRtc;
  }
  const at = (rtc: number) => new Date(ms + ((rtc - anchor.rtc) * 1000) / RTC_HZ).toISOString();
  return { start: at(origin), stop: at(latest) };
}
