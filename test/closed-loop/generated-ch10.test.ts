/**
 * The closed loop (`closedLoop`, test/helpers/closed-loop.ts) on generated IRIG 106 Chapter
 * 10 recordings: a draft `infer` writes lints clean, is canonical for `fmt`, and `check` and
 * `check --full` find no error in it that infer did not report (or, for a file infer
 * refuses, check refuses it with the same code). The recordings are written with the
 * fixtures' CH10 writer (scripts/fixtures/ch10.ts), mostly a few KiB; one in six grows to 3
 * or 4 MiB by large packets (video, or Ethernet frames carrying another recorder's packets
 * streamed over UDP), so that the sampled check reads the two ends of the file and not all
 * of it. They vary what importkit reads of a real recording: the TMATS setup record
 * (program name or none, IRIG 106 release, comment lines without `;`, one attribute a line
 * or several, CRLF or LF, NUL padding, the declared source count exact, inflated or absent,
 * one or two recorder groups, channels with or without an ID, a name or an enable flag,
 * data conversions, its channel-specific word, a secondary header), time packets (format 1,
 * day and month or day of the year, 10 or 12 bytes, time source and format, leap-year
 * flag, on a listed channel or not, or none at all), data packets of every data type
 * family on channel IDs listed or not, interleaved and slightly out of time order, of
 * varied sizes, with secondary headers in each time format, data checksums of 8, 16 or 32
 * bits, extra filler, the flags a recorder sets (RTC sync error, overflow, IPTS source),
 * sequence numbers that wrap; bodies of random bytes with sync patterns and NaN words in
 * them, or Ethernet frames that carry whole packets; computer-generated packets (events,
 * index, user-defined, streaming setup) and reserved data types; relative time counters
 * that start anywhere, up to a wrap of the 48-bit counter; bytes before the first packet;
 * one damaged header; the last packet cut short; odd file names, extensions, asset and run
 * names.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ch10Packet, concat, timeBody, tmatsTextBody } from '../../scripts/fixtures/ch10.js';
import { closedLoop, type LoopOptions, shown } from '../helpers/closed-loop.js';
import { seeded as random } from '../helpers/seeded.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-closed-loop-ch10-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Ticks of the relative time counter per second, and the counter's span (48 bits). */
const HZ = 10_000_000;
const RTC_SPAN = 2 ** 48;

/**
 * The recorder channel types (TMATS `R-x\CDT-n`) and the data types of their packets
 * (IRIG 106 Chapter 11, Table 11-4): one family each.
 */
const KINDS: ReadonlyArray<{ cdt: string; types: readonly number[] }> = [
  { cdt: 'PCMIN', types: [0x09] },
  { cdt: '1553IN', types: [0x19, 0x1a] },
  { cdt: 'ANAIN', types: [0x21] },
  { cdt: 'DISIN', types: [0x29] },
  { cdt: 'MSGIN', types: [0x30] },
  { cdt: '429IN', types: [0x38] },
  { cdt: 'VIDIN', types: [0x40, 0x41, 0x42] },
  { cdt: 'IMGIN', types: [0x48, 0x49, 0x4a] },
  { cdt: 'UARTIN', types: [0x50] },
  { cdt: '1394IN', types: [0x58, 0x59] },
  { cdt: 'PARIN', types: [0x60] },
  { cdt: 'ETHIN', types: [0x68, 0x69] },
  { cdt: 'TSPIIN', types: [0x70, 0x71, 0x72] },
  { cdt: 'CANIN', types: [0x78] },
  { cdt: 'FCIN', types: [0x79, 0x7a] },
];

/** Computer-generated packets (channel 0): user-defined, recording events, index, streaming setup. */
const COMPUTER_TYPES = [0x00, 0x02, 0x03, 0x04] as const;
/** Data types no release defines yet (a reader passes over them). */
const RESERVED_TYPES = [0x0f, 0x13, 0x7b, 0x7f, 0x80, 0xc3, 0xff] as const;

/** IRIG 106 releases: `G\106` and the data type version of the packet headers (0x01 is 106-04). */
const RELEASES: ReadonlyArray<[string, number]> = [
  ['04', 0x01],
  ['05', 0x02],
  ['07', 0x03],
  ['09', 0x04],
  ['11', 0x05],
  ['13', 0x06],
  ['15', 0x07],
  ['17', 0x08],
  ['19', 0x09],
  ['22', 0x0a],
];

/** Names of files, assets, runs and channels, among them ones YAML could take for something else. */
const NAMES = fc.oneof(
  { weight: 3, arbitrary: fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,8}$/) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      ...['sortie 4', "it's", 'x.y', 'yes', 'null', '~', '1e3', '007', '-', '#c', '[0]'],
      ...['{k}', '&a', '*b', 'a: b', ' lead', 'trail ', 'é', '温度', 'true', '.inf', '@x'],
    ),
  },
);

/** Values of TMATS text attributes: no `;` (it ends a value), latin-1 only (the record's text). */
const TMATS_WORDS = fc.oneof(
  fc.stringMatching(/^[A-Z][A-Z0-9_-]{0,10}$/),
  fc.constantFrom('BUS A', 'PCM: main', 'Température', 'x/y', 'yes', '1e3', "O'BRIEN", '#1'),
);

/** A value one time in four, else null. */
const sometimes = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });

/** A value one time in six, else null. */
const rarely = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });

const channelSpec = fc.record({
  kind: fc.nat(KINDS.length - 1),
  /** Which of the kind's data types its packets have. */
  format: fc.nat(2),
  /** The TMATS record lists it (with an ID), lists it without an ID, or does not list it. */
  listed: fc.constantFrom('id', 'id', 'id', 'no-id', 'unlisted'),
  name: fc.option(TMATS_WORDS, { freq: 4 }),
  enabled: fc.constantFrom(undefined, 'T', 'T', 'F', 't'),
  recorder: fc.constantFrom(1, 1, 1, 2),
  packets: fc.nat(6),
  /** Body bytes of its packets (the channel-specific word included). */
  bytes: fc.integer({ min: 4, max: 420 }),
  secondary: fc.constantFrom('none', 'none', 'all', 'some'),
  checksum: fc.constantFrom(0, 0, 1, 2, 3),
  /** An Ethernet channel (format 0) whose frames carry another recorder's packets, streamed over UDP. */
  streamed: fc.boolean(),
});

const timeSpec = fc.record({
  /** The time channel: listed as TIMIN (under ID `id`), or on an ID the record does not list. */
  listed: fc.constantFrom(true, true, true, false),
  id: fc.constantFrom(1, 2, 100, 0x7fff, 0xffff),
  /** The time of the first time packet (a clock at the epoch, or anywhere to 2099). */
  ms: fc.oneof(
    fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2099, 11, 31, 23, 59, 59) }),
    fc.constantFrom(Date.UTC(1970, 0, 1), Date.UTC(2024, 1, 29, 23, 59, 59, 500)),
  ),
  date: fc.constantFrom('dmy', 'day'),
  /** Day-of-year bodies of 10 bytes (three time words, as the format defines them) or 12. */
  shortDay: fc.boolean(),
  /** The channel-specific word: time source (internal, external, internal from RMM, none) and format. */
  source: fc.constantFrom(0, 1, 2, 15),
  timeFormat: fc.constantFrom(0, 1, 2, 3, 4, 5, 15),
  /** Time packets after the first: one a second. */
  more: fc.nat(4),
  /** Where the first one is written: just after the TMATS record, or among the data. */
  first: fc.boolean(),
});

const tmatsSpec = fc.record({
  programName: fc.option(TMATS_WORDS, { freq: 5 }),
  release: fc.nat(RELEASES.length - 1),
  comments: fc.array(fc.record({ text: TMATS_WORDS, semicolon: fc.boolean() }), { maxLength: 2 }),
  /** One attribute a line (CRLF or LF), or several a line. */
  layout: fc.constantFrom('crlf', 'lf', 'packed'),
  /** `R-x\N`: the sources listed, more (a recorder's capacity), or absent. */
  declared: fc.constantFrom('exact', 'more', 'absent'),
  conversions: fc.nat(2),
  /** NUL bytes after the text, inside the data length. */
  nuls: fc.constantFrom(0, 0, 1, 3, 8),
  secondary: fc.boolean(),
  /** The channel-specific word's setup record configuration change bit. */
  srcc: fc.boolean(),
});

const ch10Spec = fc.record({
  file: NAMES,
  ext: fc.constantFrom('.ch10', '.ch10', '.c10', '.CH10'),
  options: fc.record(
    { assetName: NAMES, runName: NAMES },
    { requiredKeys: [] },
  ) as fc.Arbitrary<LoopOptions>,
  tmats: tmatsSpec,
  time: fc.option(timeSpec, { freq: 6 }),
  channels: fc.array(channelSpec, { maxLength: 5 }),
  /** Channel IDs of the data channels (the time channel's is its own). */
  ids: fc.uniqueArray(
    fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 0xffff })),
    { minLength: 5, maxLength: 5 },
  ),
  /** Seconds the recording spans. */
  seconds: fc.integer({ min: 1, max: 4 }),
  /** The relative time counter at the TMATS record: small, large, or about to wrap. */
  rtc: fc.oneof(
    fc.integer({ min: 0, max: 2 ** 32 }),
    fc.integer({ min: 0, max: RTC_SPAN - 1 }),
    fc.integer({ min: 1, max: 3 * HZ }).map((before) => RTC_SPAN - before),
  ),
  computer: fc.array(fc.constantFrom(...COMPUTER_TYPES), { maxLength: 3 }),
  reserved: fc.array(
    fc.record({ type: fc.constantFrom(...RESERVED_TYPES), onListed: fc.boolean() }),
    { maxLength: 2 },
  ),
  /** The first sequence number of each channel (they wrap at 256). */
  sequence: fc.constantFrom(0, 0, 250, 255),
  /** Packets written out of time order, by up to this many seconds. */
  jitter: fc.constantFrom(0, 0, 0.05, 0.5),
  /** Filler words after the data, beyond those that align the packet. */
  filler: fc.constantFrom(0, 0, 0, 1, 3),
  /** Bytes before the first packet. */
  leading: sometimes(fc.constantFrom(1, 3, 4, 100)),
  /** A packet (by its place in the file; 0 is the TMATS record) whose header is damaged. */
  damaged: sometimes(fc.nat()),
  /** Bytes cut off the end, within the last packet. */
  cut: sometimes(fc.integer({ min: 1, max: 600 })),
  /**
   * Large packets among the small ones (the file grows past 2 MiB): video, or Ethernet
   * frames that carry another recorder's packets, streamed over UDP.
   */
  large: rarely(
    fc.record({
      kind: fc.constantFrom('video', 'ethernet'),
      /** Enough that the file outgrows the two ends a sampled check reads and the packet between. */
      packets: fc.integer({ min: 7, max: 8 }),
      bytes: fc.integer({ min: 400_000, max: 524_000 }),
      /** Where they go among the other packets, in hundredths. */
      at: fc.integer({ min: 0, max: 100 }),
      listed: fc.boolean(),
    }),
  ),
  seed: fc.nat(),
});

type Ch10Spec = typeof ch10Spec extends fc.Arbitrary<infer T> ? T : never;

/** One packet before it is written. */
interface Packet {
  channelId: number;
  dataType: number;
  body: Uint8Array;
  /** Seconds after the TMATS record, by the relative time counter. */
  at: number;
  /** Where it is written: by this key, ascending. */
  order: number;
  secondary: boolean;
  checksum: number;
  /** Packet flag bits a recorder sets besides the secondary header and checksum ones. */
  flags: number;
}

/** The sum of `n` little-endian 16-bit words from `from`, modulo 2^16 (the header checksums). */
function wordSum(v: DataView, from: number, n: number): number {
  let sum = 0;
  for (let i = 0; i < n; i++) sum = (sum + v.getUint16(from + 2 * i, true)) & 0xffff;
  return sum;
}

/**
 * The bytes of a packet: the writer's header (sync, channel, lengths, sequence, data type,
 * relative time counter), then what the writer leaves out: the data type version, the flags
 * (secondary header time format, data checksum, the recorder's bits), the secondary
 * header's time, filler beyond alignment and the data checksum after it (8, 16 or 32-bit
 * sum of the body), with the checksums of both headers made again.
 */
function packetBytes(
  p: Packet,
  rtc: number,
  sequence: number,
  version: number,
  fillerWords: number,
  absoluteMs: number,
): Uint8Array {
  const base = ch10Packet(p.channelId, p.dataType, p.body, {
    sequence,
    rtc,
    ...(p.secondary ? { secondary: true } : {}),
  });
  const head = 24 + (p.secondary ? 12 : 0);
  const sumBytes = [0, 1, 2, 4][p.checksum] as number;
  const length = Math.ceil((head + p.body.byteLength + sumBytes) / 4) * 4 + 4 * fillerWords;
  const out = new Uint8Array(length);
  out.set(base.subarray(0, head + p.body.byteLength));
  const v = new DataView(out.buffer);
  v.setUint32(4, length, true);
  v.setUint8(12, version);
  // Secondary header time: IRIG 106 Chapter 4 binary (0), IEEE 1588 (1) or extended RTC (2).
  const timeFormat = p.secondary ? Math.floor(rtc / 7) % 3 : 0;
  v.setUint8(14, (p.secondary ? 0x80 | (timeFormat << 2) : 0) | p.flags | p.checksum);
  if (p.secondary) {
    const ms = Math.max(0, Math.round(absoluteMs));
    if (timeFormat === 1) {
      v.setUint32(24, (ms % 1000) * 1_000_000, true);
      v.setUint32(28, Math.floor(ms / 1000) >>> 0, true);
    } else if (timeFormat === 2) {
      v.setBigUint64(24, BigInt(ms) * 1_000_000n, true);
    } else {
      const tenMs = Math.floor(ms / 10);
      v.setUint16(24, (ms % 10) * 1000, true);
      v.setUint16(26, tenMs & 0xffff, true);
      v.setUint16(28, Math.floor(tenMs / 65536) & 0xffff, true);
    }
    v.setUint16(34, wordSum(v, 24, 5), true);
  }
  v.setUint16(22, wordSum(v, 0, 11), true);
  if (sumBytes > 0) {
    let sum = 0n;
    for (let i = 0; i < p.body.byteLength; i += sumBytes) {
      let word = 0n;
      for (let b = 0; b < sumBytes; b++) word |= BigInt(p.body[i + b] ?? 0) << BigInt(8 * b);
      sum += word;
    }
    const wrapped = BigInt.asUintN(8 * sumBytes, sum);
    if (sumBytes === 1) v.setUint8(length - 1, Number(wrapped));
    else if (sumBytes === 2) v.setUint16(length - 2, Number(wrapped), true);
    else v.setUint32(length - 4, Number(wrapped), true);
  }
  return out;
}

/** A body of random bytes, now and then a sync pattern or a NaN word among them. */
function bodyOf(bytes: number, r: () => number): Uint8Array {
  const body = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) body[i] = Math.floor(r() * 256);
  const v = new DataView(body.buffer);
  for (let i = 4; i + 4 <= bytes; i += 4) {
    const x = r();
    if (x < 0.03) v.setUint16(i, 0xeb25, true);
    else if (x < 0.06) v.setFloat32(i, Number.NaN, true);
    else if (x < 0.07 && (i & ~7) + 8 <= bytes) v.setFloat64(i & ~7, Number.NaN, true);
  }
  return body;
}

/**
 * The body of an Ethernet data packet, format 0 (0x68), of at most `bytes`: the
 * channel-specific word (the frame count), then frames, each with its intra-packet header
 * (time stamp, frame ID word with its length) and a MAC frame: Ethernet, IPv4 and UDP
 * headers, a Chapter 10 UDP transfer header (format 1, full packets) and one to three whole
 * packets of another recorder (its own channel IDs, sequence numbers and checksums), padded
 * to a 32-bit boundary.
 */
function streamedBody(bytes: number, r: () => number): Uint8Array {
  const frames: Uint8Array[] = [];
  let length = 4;
  let sequence = 0;
  for (;;) {
    const inner = Array.from({ length: 1 + Math.floor(r() * 3) }, (_, k) =>
      ch10Packet(
        0x100 + k,
        [0x19, 0x09, 0x11][k] as number,
        bodyOf(12 + 4 * Math.floor(r() * 20), r),
        {
          sequence: sequence & 0xff,
          rtc: 1_000_000 + sequence * 1000,
        },
      ),
    );
    const udp = new Uint8Array(4);
    new DataView(udp.buffer).setUint32(0, 0x1 | ((sequence & 0xffffff) << 8), true);
    const mac = concat([new Uint8Array(12).fill(0x02), Uint8Array.of(0x08, 0x00)]);
    const ip = new Uint8Array(28).fill(0x45, 0, 1);
    const frame = concat([mac, ip, udp, ...inner]);
    const iph = new Uint8Array(12);
    new DataView(iph.buffer).setUint32(8, frame.byteLength & 0x3fff, true);
    const padded = new Uint8Array(Math.ceil(frame.byteLength / 4) * 4);
    padded.set(frame);
    if (length + 12 + padded.byteLength > bytes && frames.length > 0) break;
    frames.push(iph, padded);
    length += 12 + padded.byteLength;
    sequence += 1;
  }
  const csdw = new Uint8Array(4);
  new DataView(csdw.buffer).setUint16(0, frames.length / 2, true);
  return concat([csdw, ...frames]);
}

/** A time packet's body: format 1, with the spec's channel-specific word. */
function timeBodyOf(t: NonNullable<Ch10Spec['time']>, ms: number): Uint8Array {
  const date = t.date as 'dmy' | 'day';
  const body = timeBody(ms, date);
  const v = new DataView(body.buffer);
  const year = new Date(ms).getUTCFullYear();
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const csdw = v.getUint32(0, true) & ~0xff;
  v.setUint32(
    0,
    csdw | t.source | (t.timeFormat << 4) | (leap && date === 'day' ? 1 << 8 : 0),
    true,
  );
  return date === 'day' && t.shortDay ? body.subarray(0, 10) : body;
}

/** The TMATS setup record's text, as the spec lays it out. */
function tmatsText(
  s: Ch10Spec,
  listed: Array<{ recorder: number; attrs: Array<[string, string]> }>,
) {
  const t = s.tmats;
  const [release] = RELEASES[t.release] as [string, number];
  const attrs: Array<[string, string]> = [];
  if (t.programName !== null) attrs.push(['G\\PN', t.programName]);
  attrs.push(['G\\106', release]);
  const recorders = [...new Set(listed.map((c) => c.recorder))].sort();
  for (const r of recorders.length > 0 ? recorders : [1]) {
    const own = listed.filter((c) => c.recorder === r);
    attrs.push([`R-${r}\\ID`, `REC-${r}`]);
    if (t.declared !== 'absent')
      attrs.push([`R-${r}\\N`, String(t.declared === 'exact' ? own.length : own.length + 16)]);
    attrs.push([`R-${r}\\RI1`, 'ACME']);
    for (const c of own) attrs.push(...c.attrs);
  }
  for (let i = 1; i <= t.conversions; i++) {
    attrs.push([`C-${i}\\DCN`, `CONV-${i}`], [`C-${i}\\DCT`, 'COE']);
    attrs.push([`C-${i}\\CO\\N`, '1'], [`C-${i}\\CO-1`, String(0.0125 * i)]);
  }
  const eol = t.layout === 'lf' ? '\n' : '\r\n';
  const comments = t.comments.map((c) => `G\\COM:${c.text}${c.semicolon ? ';' : ''}${eol}`);
  let body: string;
  if (t.layout === 'packed') {
    // Several attributes a line (Chapter 9 allows it), a line for each group of four.
    const lines: string[] = [];
    for (let i = 0; i < attrs.length; i += 4)
      lines.push(
        attrs
          .slice(i, i + 4)
          .map(([k, v]) => `${k}:${v};`)
          .join(''),
      );
    body = lines.map((l) => `${l}\r\n`).join('');
  } else body = attrs.map(([k, v]) => `${k}:${v};${eol}`).join('');
  // Comment lines first: a `G\COM` without its `;` ends at the end of its line.
  return comments.join('') + body + '\0'.repeat(t.nuls);
}

/** The data channels of a spec: their IDs, kinds and TMATS attributes. */
function channelsOf(s: Ch10Spec) {
  const index = new Map<number, number>();
  const listed: Array<{ recorder: number; attrs: Array<[string, string]> }> = [];
  const entry = (recorder: number, attrs: (n: number) => Array<[string, string]>) => {
    const n = (index.get(recorder) ?? 0) + 1;
    index.set(recorder, n);
    listed.push({ recorder, attrs: attrs(n) });
  };
  if (s.time?.listed) {
    const id = s.time.id;
    entry(1, (n) => [
      [`R-1\\TK1-${n}`, String(id)],
      [`R-1\\DSI-${n}`, 'IRIG-TIME'],
      [`R-1\\CDT-${n}`, 'TIMIN'],
      [`R-1\\CHE-${n}`, 'T'],
    ]);
  }
  const taken = new Set<number>(s.time ? [s.time.id] : []);
  const channels = s.channels.flatMap((c, i) => {
    const id = s.ids[i] as number;
    if (taken.has(id)) return [];
    taken.add(id);
    const kind = KINDS[c.kind] as (typeof KINDS)[number];
    const dataType = kind.types[c.format % kind.types.length] as number;
    if (c.listed !== 'unlisted') {
      const r = c.recorder;
      entry(r, (n) => [
        ...(c.listed === 'id' ? [[`R-${r}\\TK1-${n}`, String(id)] as [string, string]] : []),
        ...(c.name !== null ? [[`R-${r}\\DSI-${n}`, c.name] as [string, string]] : []),
        [`R-${r}\\CDT-${n}`, kind.cdt] as [string, string],
        ...(c.enabled !== undefined ? [[`R-${r}\\CHE-${n}`, c.enabled] as [string, string]] : []),
      ]);
    }
    return [{ ...c, id, dataType }];
  });
  // The large packets' channel: listed (as VIDIN or ETHIN), or not.
  const largeId = [...Array(100).keys()].map((i) => 200 + i).find((i) => !taken.has(i)) as number;
  if (s.large?.listed) {
    entry(1, (n) => [
      [`R-1\\TK1-${n}`, String(largeId)],
      [`R-1\\DSI-${n}`, s.large?.kind === 'video' ? 'VIDEO-1' : 'NET-1'],
      [`R-1\\CDT-${n}`, s.large?.kind === 'video' ? 'VIDIN' : 'ETHIN'],
    ]);
  }
  return { channels, listed, largeId };
}

/** The packets after the TMATS record, each with its time and its place in the file. */
function packetsOf(s: Ch10Spec, { channels, largeId }: ReturnType<typeof channelsOf>) {
  const r = random(s.seed);
  const packets: Packet[] = [];
  const jitter = () => r() * s.jitter;
  const flags = () => (r() < 0.1 ? 0x20 : 0) | (r() < 0.1 ? 0x10 : 0);
  if (s.time) {
    const t = s.time;
    const start = r() * 0.5;
    for (let k = 0; k <= Math.min(t.more, s.seconds); k++) {
      const at = start + k;
      packets.push({
        channelId: t.id,
        dataType: 0x11,
        body: timeBodyOf(t, t.ms + k * 1000),
        at,
        // The first right after the TMATS record, or among the data.
        order: k === 0 && t.first ? -1 : at + jitter(),
        secondary: false,
        checksum: 0,
        flags: flags(),
      });
    }
  }
  for (const c of channels) {
    for (let k = 0; k < c.packets; k++) {
      const at = r() * s.seconds;
      const secondary = c.secondary === 'all' || (c.secondary === 'some' && r() < 0.5);
      packets.push({
        channelId: c.id,
        dataType: c.dataType,
        body:
          c.streamed && c.dataType === 0x68
            ? streamedBody(c.bytes + 200, r)
            : bodyOf(c.bytes + Math.floor(r() * 16), r),
        at,
        order: at + jitter(),
        secondary,
        checksum: c.checksum,
        flags: flags() | (secondary && r() < 0.5 ? 0x40 : 0),
      });
    }
  }
  for (const type of s.computer) {
    // A recording index (0x03) is written last, the others anywhere.
    const at = type === 0x03 ? s.seconds : r() * s.seconds;
    packets.push({
      channelId: 0,
      dataType: type,
      body: bodyOf(8 + Math.floor(r() * 60), r),
      at,
      order: type === 0x03 ? Number.POSITIVE_INFINITY : at,
      secondary: false,
      checksum: 0,
      flags: 0,
    });
  }
  for (const x of s.reserved) {
    const listed = channels.find((c) => c.listed === 'id');
    const at = r() * s.seconds;
    packets.push({
      channelId: x.onListed && listed ? listed.id : 0x8000 + Math.floor(r() * 100),
      dataType: x.type,
      body: bodyOf(4 + Math.floor(r() * 40), r),
      at,
      order: at + jitter(),
      secondary: false,
      checksum: 0,
      flags: 0,
    });
  }
  if (s.large) {
    const l = s.large;
    const from = (s.seconds * l.at) / 100;
    // Video (MPEG-2 transport stream): its bytes are never read, zeros will do. The
    // Ethernet frames are made once, for every large packet.
    const body = l.kind === 'video' ? new Uint8Array(l.bytes) : streamedBody(l.bytes, r);
    for (let k = 0; k < l.packets; k++) {
      const at = from + k * 0.001;
      packets.push({
        channelId: largeId,
        dataType: l.kind === 'video' ? 0x40 : 0x68,
        body,
        at,
        order: at,
        secondary: false,
        checksum: 0,
        flags: 0,
      });
    }
  }
  return packets.sort((a, b) => a.order - b.order);
}

/** The recording of a spec: its bytes. */
function writeRecording(s: Ch10Spec): Uint8Array {
  const layout = channelsOf(s);
  const [, version] = RELEASES[s.tmats.release] as [string, number];
  const text = tmatsText(s, layout.listed);
  const tmats = tmatsTextBody(text);
  new DataView(tmats.buffer).setUint32(0, version | (s.tmats.srcc ? 1 << 8 : 0), true);
  const rtcOf = (at: number) => (s.rtc + Math.round(at * HZ)) % RTC_SPAN;
  const sequences = new Map<number, number>();
  const next = (id: number) => {
    const n = sequences.get(id) ?? s.sequence;
    sequences.set(id, (n + 1) % 256);
    return n;
  };
  const msOf = (at: number) => (s.time?.ms ?? Date.UTC(2024, 2, 1)) + at * 1000;
  const tmatsPacket: Packet = {
    channelId: 0,
    dataType: 0x01,
    body: tmats,
    at: 0,
    order: -2,
    secondary: s.tmats.secondary,
    checksum: 0,
    flags: 0,
  };
  const parts = [tmatsPacket, ...packetsOf(s, layout)].map((p) =>
    packetBytes(p, rtcOf(p.at), next(p.channelId), version, s.filler, msOf(p.at)),
  );
  if (s.damaged !== null) {
    // One bit of a header word flipped: its checksum no longer matches.
    const part = parts[s.damaged % parts.length] as Uint8Array;
    part[4 + (s.damaged % 10)] = (part[4 + (s.damaged % 10)] as number) ^ 0x10;
  }
  const last = parts.at(-1) as Uint8Array;
  const cut = s.cut === null ? 0 : Math.min(s.cut, last.byteLength - 1);
  const leading =
    s.leading === null ? [] : [new Uint8Array(s.leading).fill(s.leading % 2 === 0 ? 0 : 0xff)];
  const whole = concat([...leading, ...parts]);
  return whole.subarray(0, whole.byteLength - cut);
}

describe('generated CH10 recordings: infer → lint → fmt → check', () => {
  test('TMATS records, time packets, data types, channels, headers, damage and cut ends', async () => {
    await fc.assert(
      fc.asyncProperty(ch10Spec, async (s) => {
        const path = join(dir, `${s.file}${s.ext}`);
        await writeFile(path, writeRecording(s));
        try {
          expect(shown(await closedLoop(path, dir, 'ch10', s.options))).toEqual([]);
        } finally {
          await rm(path, { force: true });
        }
      }),
      { numRuns: 100 },
    );
  }, 120_000);
});
