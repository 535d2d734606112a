/**
 * The closed loop on generated PX4 ULog files (`closedLoop`, test/helpers/closed-loop.ts): a
 * draft `infer` writes lints clean, is canonical for `fmt`, and `check` and `check --full`
 * find no error in it that infer did not report. The logs are written by the fixtures' own
 * writer (scripts/fixtures/ulog-writer.ts), small (tens to hundreds of messages), with what
 * the ULog format lets real logs vary: topics whose formats hold fields of every type
 * (integers of 8 to 64 bits, float, double, bool, char arrays, arrays of numbers, nested
 * formats, `_padding` fields), formats in any order, several instances of one topic
 * (multi_id), subscriptions before and among the data, messages with or without their end
 * padding (PX4's logger leaves it out), a `timestamp` of `uint64_t` or a narrower type that
 * wraps, first or not; times going forward, repeating or stepping back (check warns at most:
 * infer does not read values), NaN and ±inf, a bool byte of 2 (true, as C reads it), logged
 * strings untagged and tagged, dropouts and syncs, info, multi-info, parameters, default
 * parameters and parameters changed among the data, a GPS topic with or without a UTC time,
 * a start time given or not, flag bits absent or longer than 40 bytes, version 1 or 2, data
 * appended in up to three parts after parts that may end inside a message, and a last
 * message cut short.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type FieldSpec,
  type FormatSpec,
  sizeOf,
  UlogWriter,
} from '../../scripts/fixtures/ulog-writer.js';
import { closedLoop, shown } from '../helpers/closed-loop.js';
import { seeded as random } from '../helpers/seeded.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-closed-loop-ulog-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const NUMBERS = [
  'int8_t',
  'uint8_t',
  'int16_t',
  'uint16_t',
  'int32_t',
  'uint32_t',
  'int64_t',
  'uint64_t',
  'float',
  'double',
  'bool',
] as const;

/**
 * Field names of a format: C identifiers, as PX4's message definitions name them, some of
 * them words YAML reads as something else when unquoted.
 */
const fieldName = fc.oneof(
  fc.stringMatching(/^[a-z][a-z0-9_]{0,9}$/).filter((n) => n !== 'timestamp'),
  fc.constantFrom(
    ...['x', 'y', 'n', 'q', 'yes', 'no', 'on', 'off', 'null', 'true', 'false', 'nan', 'inf'],
    ...['e5', 'timestamp_sample', 'device_id', 'error_count', 'instance', 'name', 'type'],
  ),
);

/** What a field holds: a number or an array of them, text, or an earlier nested format. */
const fieldKind = (nested: number) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.record({ type: fc.constantFrom(...NUMBERS) }) },
    {
      weight: 2,
      arbitrary: fc.record({
        type: fc.constantFrom(...NUMBERS),
        array: fc.integer({ min: 1, max: 5 }),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record(
        { type: fc.constant('char'), array: fc.integer({ min: 1, max: 24 }) },
        { requiredKeys: ['type'] },
      ),
    },
    ...(nested > 0
      ? [
          {
            weight: 2,
            arbitrary: fc.record(
              { nested: fc.nat(nested - 1), array: fc.integer({ min: 1, max: 3 }) },
              { requiredKeys: ['nested'] },
            ),
          },
        ]
      : []),
  );

type Kind = { type: string; array?: number } | { nested: number; array?: number };

/** `arb` one time in `1 + rarity`, else undefined. */
const sometimes = <T>(arb: fc.Arbitrary<T>, rarity = 2) =>
  fc.oneof({ weight: rarity, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });

/** Fields of one format: unique names, maybe a `_padding1` among them, a `_padding0` last. */
const fieldsArb = (nested: number, max: number) =>
  fc.record({
    fields: fc.uniqueArray(fc.tuple(fieldName, fieldKind(nested)), {
      minLength: 1,
      maxLength: max,
      selector: ([n]) => n,
    }),
    padding: sometimes(fc.integer({ min: 1, max: 7 }), 1),
    /** Where a padding field among the others goes, and its bytes (older PX4 versions). */
    midPadding: sometimes(fc.tuple(fc.nat(5), fc.integer({ min: 1, max: 3 })), 3),
    /** A nested format may carry its own timestamp, as PX4's esc_report does. */
    timestamp: fc.boolean(),
  });

/** Names of PX4 topics and of types PX4 nests in them. */
const TOPICS = [
  'sensor_accel',
  'sensor_gyro',
  'vehicle_attitude',
  'actuator_outputs',
  'battery_status',
  'esc_status',
  'vehicle_status',
  'estimator_states',
];
const NESTED = ['esc_report', 'gimbal_axis', 'battery_cell'];
const GPS_TOPICS = ['vehicle_gps_position', 'sensor_gps'] as const;

const subArb = fc.record({
  /** Data messages of the subscription (0: subscribed and silent). */
  count: fc.oneof({ weight: 1, arbitrary: fc.constant(0) }, { weight: 6, arbitrary: fc.nat(40) }),
  /** Microseconds between its messages (0: every message repeats the time before). */
  period: fc.constantFrom(0, 1, 250, 1000, 4000, 20_000, 100_000),
  /** Subscribed among the data rather than before it. */
  late: fc.boolean(),
  /** The message (by index) whose time steps back behind the one before, if any. */
  back: sometimes(fc.nat(40), 3),
});

const logSpec = fc.record({
  nested: fc.array(fieldsArb(1, 4), { maxLength: 2 }),
  topics: fc.array(
    fc.record({
      fields: fc.nat(1000),
      /**
       * Its timestamp: `uint64_t` (what PX4 writes) or a narrower type the format allows,
       * which wraps around (`uint8_t` in milliseconds); first, or after other fields.
       */
      time: fc.record({
        type: fc.oneof(
          { weight: 6, arbitrary: fc.constant('uint64_t') },
          { weight: 1, arbitrary: fc.constantFrom('uint32_t', 'uint16_t', 'uint8_t') },
        ),
        at: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.nat(6) }),
      }),
      /** Instances (multi_id 0, 1 ...), each a subscription. */
      subs: fc.array(subArb, { minLength: 1, maxLength: 3 }),
    }),
    { minLength: 1, maxLength: 3 },
  ),
  topicFields: fc.array(fieldsArb(2, 6), { minLength: 3, maxLength: 3 }),
  /** A GPS topic: its instances' counts and the message that first has a UTC time. */
  gps: sometimes(
    fc.record({
      name: fc.constantFrom(...GPS_TOPICS),
      counts: fc.array(fc.integer({ min: 1, max: 10 }), { minLength: 1, maxLength: 2 }),
      fixAt: fc.nat(12),
    }),
    1,
  ),
  /** The start time: given to infer, or none (the GPS, if any, then places the log). */
  start: fc.boolean(),
  /** Microseconds since boot at the first message (the second crosses 2^32). */
  boot: fc.constantFrom(1_000_000n, 4_294_000_000n, 123_456_789_012n),
  endPadding: fc.boolean(),
  logs: fc.nat(4),
  tagged: fc.array(fc.tuple(fc.constantFrom(0, 1, 7, 9, 300), fc.integer({ min: 1, max: 3 })), {
    maxLength: 2,
  }),
  dropouts: fc.nat(3),
  syncs: fc.nat(3),
  /** The format version in the header (a reader reads later ones too). */
  version: fc.constantFrom(1, 2),
  /** The flag bits (older logs have none; appended data and default parameters need them). */
  flagBits: fc.boolean(),
  /** Bytes past the 40 of the flag bits, which a later version may add and a reader ignores. */
  flagBytes: fc.oneof(
    { weight: 4, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.nat(16) },
  ),
  info: fc.boolean(),
  params: fc.nat(4),
  defaultParams: fc.boolean(),
  changedParams: fc.nat(2),
  /** Data appended after the main part (which may end inside a message). */
  appended: sometimes(
    fc.record({
      /** Where each part begins, in hundredths of the data section's messages (up to three). */
      at: fc.uniqueArray(fc.integer({ min: 20, max: 90 }), { minLength: 1, maxLength: 3 }),
      /** The part before ends inside a message. */
      cut: fc.boolean(),
    }),
  ),
  /** Bytes cut off the last message (power lost as it was written). */
  truncate: sometimes(fc.integer({ min: 1, max: 8 })),
  seed: fc.nat(),
});

type LogSpec = typeof logSpec extends fc.Arbitrary<infer T> ? T : never;
type FieldsSpec = LogSpec['nested'][number];

type TimeSpec = LogSpec['topics'][number]['time'];

/**
 * A format of the spec's fields: a topic's `timestamp` where its spec puts it, a nested
 * format's (when it has one) first; a `_padding1` among them, `_padding0` last.
 */
function formatOf(name: string, spec: FieldsSpec, nested: readonly string[], time?: TimeSpec) {
  const fields: FieldSpec[] = [];
  for (const [n, kind] of spec.fields as Array<[string, Kind]>) {
    // A nested format the spec does not have (or not yet, for a nested one) is a float.
    const type = 'nested' in kind ? (nested[kind.nested] ?? 'float') : kind.type;
    fields.push({ type, name: n, ...(kind.array !== undefined ? { array: kind.array } : {}) });
  }
  if (time) {
    fields.splice(Math.min(time.at, fields.length), 0, { type: time.type, name: 'timestamp' });
  } else if (spec.timestamp) fields.unshift({ type: 'uint64_t', name: 'timestamp' });
  if (spec.midPadding !== undefined) {
    const [at, size] = spec.midPadding;
    fields.splice(Math.min(at, fields.length), 0, {
      type: 'uint8_t',
      name: '_padding1',
      array: size,
    });
  }
  if (spec.padding !== undefined) {
    fields.push({ type: 'uint8_t', name: '_padding0', array: spec.padding });
  }
  return { name, fields };
}

function gpsFormat(name: string): FormatSpec {
  return {
    name,
    fields: [
      { type: 'uint64_t', name: 'timestamp' },
      { type: 'uint64_t', name: 'time_utc_usec' },
      { type: 'int32_t', name: 'lat' },
      { type: 'int32_t', name: 'lon' },
      { type: 'float', name: 'alt' },
      { type: 'uint8_t', name: 'fix_type' },
      { type: 'bool', name: 'vel_ned_valid' },
      { type: 'uint8_t', name: '_padding0', array: 6 },
    ],
  };
}

/** Writes one value of a primitive type at `at`. */
function putNumber(dv: DataView, at: number, type: string, r: () => number): void {
  const special = r();
  const int = (bits: number, signed: boolean): bigint => {
    const span = 1n << BigInt(bits);
    // The ends of the type now and then: 0, -1 or the largest, the least and largest signed.
    const ends = [0n, span - 1n, span / 2n, span / 2n - 1n];
    const raw =
      special < 0.1
        ? (ends[Math.floor(r() * 4)] as bigint)
        : BigInt(Math.floor(r() * 2 ** 20)) * BigInt(1 + Math.floor(r() * 2 ** 20));
    const v = raw % span;
    return signed ? BigInt.asIntN(bits, v) : v;
  };
  const float = () =>
    special < 0.06
      ? Number.NaN
      : special < 0.08
        ? Number.POSITIVE_INFINITY
        : special < 0.1
          ? Number.NEGATIVE_INFINITY
          : (r() - 0.5) * 10 ** Math.floor(r() * 12 - 4);
  const setters: Record<string, () => void> = {
    int8_t: () => dv.setInt8(at, Number(int(8, true))),
    uint8_t: () => dv.setUint8(at, Number(int(8, false))),
    int16_t: () => dv.setInt16(at, Number(int(16, true)), true),
    uint16_t: () => dv.setUint16(at, Number(int(16, false)), true),
    int32_t: () => dv.setInt32(at, Number(int(32, true)), true),
    uint32_t: () => dv.setUint32(at, Number(int(32, false)), true),
    int64_t: () => dv.setBigInt64(at, int(64, true), true),
    uint64_t: () => dv.setBigUint64(at, int(64, false), true),
    float: () => dv.setFloat32(at, float(), true),
    double: () => dv.setFloat64(at, float(), true),
    // Mostly 0 and 1; now and then 2, which C and pyulog read as true.
    bool: () => dv.setUint8(at, special < 0.05 ? 2 : r() < 0.5 ? 0 : 1),
  };
  const set = setters[type];
  if (!set) throw new Error(`no primitive ${type}`);
  set();
}

const WORDS = ['PX4', 'ok', 'armed', 'mode 3', 'é', 'calib', 'x'];

/** Fills one value of `type` (a primitive, `char`, or a format) from `at`; returns its end. */
function fill(
  dv: DataView,
  at: number,
  field: FieldSpec,
  formats: readonly FormatSpec[],
  r: () => number,
): number {
  const count = field.array ?? 1;
  if (field.type === 'char') {
    // Text padded with NULs, or filling the array whole (no NUL).
    const words = Array.from({ length: 1 + Math.floor(r() * 4) }, () => WORDS[Math.floor(r() * 7)]);
    const bytes = new TextEncoder().encode(words.join(' ')).subarray(0, count);
    new Uint8Array(dv.buffer, dv.byteOffset + at, count).set(bytes);
    return at + count;
  }
  const nested = formats.find((f) => f.name === field.type);
  let pos = at;
  for (let i = 0; i < count; i++) {
    if (field.name.startsWith('_padding')) {
      dv.setUint8(pos, Math.floor(r() * 256));
      pos += 1;
    } else if (nested) {
      for (const f of nested.fields) pos = fill(dv, pos, f, formats, r);
    } else {
      putNumber(dv, pos, field.type, r);
      pos += sizeOf(field.type, formats);
    }
  }
  return pos;
}

/** A time in microseconds as a timestamp of `type` holds it: wrapped, `uint8_t` in milliseconds. */
function putTime(dv: DataView, at: number, type: string, us: bigint): void {
  if (type === 'uint64_t') dv.setBigUint64(at, us, true);
  else if (type === 'uint32_t') dv.setUint32(at, Number(BigInt.asUintN(32, us)), true);
  else if (type === 'uint16_t') dv.setUint16(at, Number(BigInt.asUintN(16, us)), true);
  else dv.setUint8(at, Number(BigInt.asUintN(8, us / 1000n)));
}

/** The bytes of a data message of `format` after its msg_id: timestamp first, then the values. */
function messageBody(
  format: FormatSpec,
  formats: readonly FormatSpec[],
  timestamp: bigint,
  r: () => number,
  endPadding: boolean,
  set: Array<[string, bigint]> = [],
): Uint8Array {
  const size = sizeOf(format.name, formats);
  const b = new Uint8Array(size);
  const dv = new DataView(b.buffer);
  let pos = 0;
  let end = size;
  for (const f of format.fields) {
    const start = pos;
    pos = fill(dv, pos, f, formats, r);
    if (f.name === 'timestamp') putTime(dv, start, f.type, timestamp);
    const value = set.find(([n]) => n === f.name)?.[1];
    if (value !== undefined) dv.setBigUint64(start, value, true);
    // The padding at the end is left out unless the spec keeps it (PX4's logger does not).
    if (!f.name.startsWith('_padding')) end = pos;
  }
  return endPadding ? b : b.subarray(0, end);
}

/** One message of the data section, in the order written. */
type DataEvent = { order: number; write: (w: UlogWriter) => void };

interface Sub {
  format: FormatSpec;
  multiId: number;
  msgId: number;
  late: boolean;
}

/** The formats and subscriptions of a spec; the first subscription of each topic is not late. */
function layoutOf(s: LogSpec): { formats: FormatSpec[]; subs: Array<Sub & { spec: Count }> } {
  const nestedNames = s.nested.map((_, i) => NESTED[i] as string);
  const formats: FormatSpec[] = s.nested.map((n, i) =>
    formatOf(NESTED[i] as string, n, nestedNames.slice(0, i)),
  );
  const subs: Array<Sub & { spec: Count }> = [];
  let msgId = 0;
  for (const [t, topic] of s.topics.entries()) {
    const fieldsSpec = s.topicFields[topic.fields % s.topicFields.length] as FieldsSpec;
    const format = formatOf(TOPICS[t] as string, fieldsSpec, nestedNames, topic.time);
    formats.push(format);
    for (const [multiId, spec] of topic.subs.entries()) {
      subs.push({ format, multiId, msgId: msgId++, late: spec.late, spec });
    }
  }
  if (s.gps) {
    const format = gpsFormat(s.gps.name);
    formats.push(format);
    for (const [multiId, count] of s.gps.counts.entries()) {
      const spec = { count, period: 200_000, back: undefined };
      subs.push({ format, multiId, msgId: msgId++, late: false, spec });
    }
  }
  return { formats, subs };
}

/** The data messages of a subscription: how many, how far apart, which one steps back. */
interface Count {
  count: number;
  period: number;
  back: number | undefined;
}

/**
 * The data messages of each subscription, with their times, in the order a logger writes
 * them; a late subscription is written just before its first message.
 */
function dataEvents(s: LogSpec, formats: FormatSpec[], subs: Array<Sub & { spec: Count }>) {
  const r = random(s.seed);
  const events: DataEvent[] = [];
  for (const sub of subs) {
    const { count, period, back } = sub.spec;
    const offset = Math.floor(r() * 1000);
    let t = s.boot + BigInt(offset);
    for (let k = 0; k < count; k++) {
      const order = offset + k * Math.max(period, 1) + r() * 0.5;
      if (k > 0) t = k === back ? t - BigInt(1 + Math.floor(r() * 5000)) : t + BigInt(period);
      const gps = sub.format.name === s.gps?.name;
      const utc = gps && k >= (s.gps?.fixAt ?? 0) ? 1_714_564_800_000_000n + BigInt(k) : 0n;
      const set: Array<[string, bigint]> = gps ? [['time_utc_usec', utc]] : [];
      const body = messageBody(sub.format, formats, t, r, s.endPadding, set);
      const subscribe = sub.late && k === 0;
      events.push({
        order,
        write: (w) => {
          if (subscribe) w.subscribe(sub.multiId, sub.msgId, sub.format.name);
          w.data(sub.msgId, body);
        },
      });
    }
  }
  return events;
}

/** Logged strings, dropouts, syncs and changed parameters among the data. */
function otherEvents(s: LogSpec, span: number): DataEvent[] {
  const r = random(s.seed ^ 0x5bd1e995);
  const at = () => r() * span;
  const time = (order: number) => s.boot + BigInt(Math.floor(order));
  const events: DataEvent[] = [];
  for (let i = 0; i < s.logs; i++) {
    const order = at();
    events.push({ order, write: (w) => w.log(Math.floor(r() * 8), time(order), `line ${i}`) });
  }
  for (const [tag, n] of s.tagged) {
    for (let i = 0; i < n; i++) {
      const order = at();
      const text = `tag ${tag}: ${WORDS[i % WORDS.length]}`;
      events.push({ order, write: (w) => w.taggedLog(3 + (i % 4), tag, time(order), text) });
    }
  }
  for (let i = 0; i < s.dropouts; i++) {
    events.push({ order: at(), write: (w) => w.dropout(1 + Math.floor(r() * 500)) });
  }
  for (let i = 0; i < s.syncs; i++) events.push({ order: at(), write: (w) => w.sync() });
  for (let i = 0; i < s.changedParams; i++) {
    events.push({ order: at(), write: (w) => w.parameter(`MPC_P${i}`, 2 + i, i % 2 === 0) });
  }
  return events;
}

/**
 * The definitions: flag bits (returns where the appended offsets go), the formats in any
 * order (a nested one may come after the format that uses it), info, parameters.
 */
function definitions(w: UlogWriter, s: LogSpec, formats: readonly FormatSpec[]): number {
  const flags = s.flagBits || s.appended !== undefined || s.defaultParams;
  const patchAt = flags ? w.length + 3 + 16 : -1;
  if (flags) {
    const bits = new Uint8Array(40 + s.flagBytes).fill(0xa5, 40);
    bits[0] = s.defaultParams ? 1 : 0;
    bits[8] = s.appended ? 1 : 0;
    w.message('B', bits);
  }
  const r = random(s.seed ^ 0x27d4eb2f);
  const order = formats.map((f) => ({ f, key: r() })).sort((a, b) => a.key - b.key);
  for (const { f } of order) w.format(f);
  if (s.info) {
    w.infoText('sys_name', 'PX4');
    w.infoText('ver_hw', 'PX4_FMU_V6X');
    w.infoInt32('ver_sw_release', 0x010e0000);
    w.multiInfo('perf_counter_preflight-00', 'sensors: 1012 events, ', false);
    w.multiInfo('perf_counter_preflight-00', '23us elapsed', true);
  }
  for (let i = 0; i < s.params; i++) w.parameter(`PARAM_${i}`, i * 3 - 2, i % 2 === 1);
  if (s.defaultParams) w.defaultParameter('PARAM_0', 0, 1, true);
  return patchAt;
}

/** The log of a spec: its bytes. */
function writeLog(s: LogSpec): Uint8Array {
  const { formats, subs } = layoutOf(s);
  const w = new UlogWriter(s.boot, s.version);
  const patchAt = definitions(w, s, formats);
  const data = dataEvents(s, formats, subs);
  const span = data.reduce((m, e) => Math.max(m, e.order), 1);
  const events = [...data, ...otherEvents(s, span)].sort((a, b) => a.order - b.order);
  for (const sub of subs) if (!sub.late) w.subscribe(sub.multiId, sub.msgId, sub.format.name);
  const splits = new Set(
    (s.appended?.at ?? []).map((at) => Math.floor((events.length * at) / 100)),
  );
  const appendedAt: number[] = [];
  let last = w.length;
  for (const [i, e] of events.entries()) {
    if (splits.has(i) && i > 0) {
      // A part ends inside a message when the logger stopped mid-write.
      if (s.appended?.cut) w.raw(Uint8Array.from([20, 0, 0x44, 0, 0, 1, 2]));
      appendedAt.push(w.length);
    }
    last = w.length;
    e.write(w);
  }
  if (s.info && appendedAt.length === 0) {
    last = w.length;
    w.multiInfo('perf_top-00', 'PID COMMAND CPU(ms)', false);
  }
  const bytes = w.bytes();
  const dv = new DataView(bytes.buffer);
  for (const [i, at] of appendedAt.entries()) dv.setBigUint64(patchAt + 8 * i, BigInt(at), true);
  // Cut inside the last message only (a data message's subscription stays whole).
  const cut = Math.min(s.truncate ?? 0, bytes.byteLength - last - 1);
  return cut > 0 ? bytes.subarray(0, bytes.byteLength - cut) : bytes;
}

describe('generated ULog files: infer → lint → fmt → check', () => {
  test('topics of every field type, instances, logs, metadata, appended data, cut ends', async () => {
    await fc.assert(
      fc.asyncProperty(logSpec, async (s) => {
        const path = join(dir, 'flight.ulg');
        await writeFile(path, writeLog(s));
        const options = s.start ? { relativeStartTime: '2024-05-01T12:00:00Z' } : {};
        expect(shown(await closedLoop(path, dir, 'flight', options))).toEqual([]);
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});
