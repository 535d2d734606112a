/**
 * ULog (PX4) inspection: the header, the definitions (flag bits with appended-data
 * offsets, formats, info, multi-info, parameters, default parameters) and the
 * subscriptions of the data section, skipping every data payload.
 *
 * Why our own walk and not `@foxglove/ulog` (a well-kept TypeScript reader): its
 * `ULog.open()` reads the definitions and then always builds a time index of the whole
 * data section, copying every data message's bytes, reading its timestamp, and keeping
 * one index entry per message in memory before sorting them. There is no way to get the
 * definitions and subscriptions without that pass. Measured by `npm run bench -- ulog` on
 * generated PX4-like logs (21.6 million messages in 1 GB), one run on a loaded 2-core
 * machine: its `open()` alone took 5.1 s and 423 MiB on 100 MB, 263 s and 2.7 GiB on 1 GB;
 * this walk took 2.3 s and 101 MiB on 1 GB. It also stops at the first appended-data offset
 * (the appended parts are not read), and throws on a subscription to an undefined format
 * or an unknown message type instead of resynchronising. This walk reads each message's
 * 3-byte header, decodes only definitions, counts data messages per subscription without
 * decoding them, keeps one window of 1 MiB in memory, and reads a GPS message's
 * `time_utc_usec` until it finds one. The package stays a dev dependency: the benchmark's
 * baseline and a cross-check of our fixtures.
 */

import {
  type BaseProfile,
  type ByteSource,
  type FieldProfile,
  InspectError,
  refuseEmptyFile,
  throughSource,
} from '../../inspect/shared.js';
import { type Issue, type IssueCode, issue, pushAll } from '../../model/plain.js';
import { throughTurns } from '../../values/index.js';
import { boundary, type UlogDataHandlers, type UlogSizes, walkUlogData } from './data.js';
import {
  type FlattenProblem,
  fieldOffset,
  flattenFormat,
  hasTimestamp,
  MAX_FIELDS,
  MAX_NESTING,
  messageSizes,
  PRIMITIVE_SIZES,
  resolveField,
  type UlogFormat,
  type UlogLeaf,
} from './format.js';
import { ChunkReader, text, view } from './reader.js';
import { UlogWalker } from './scan.js';
import { type SharedWalk, walkPartsInRanges } from './scan-jobs.js';
import {
  emptyScan,
  type UlogFlags,
  type UlogGpsFix,
  type UlogInfo,
  type UlogMultiInfo,
  type UlogParameter,
  type UlogScan,
  type UlogSubscription,
} from './scan-model.js';
import { scalarAt } from './values.js';

export type { UlogDataHandlers, UlogSizes } from './data.js';
export type { UlogFieldDef, UlogFormat, UlogLeaf } from './format.js';
export type {
  UlogFlags,
  UlogGpsFix,
  UlogInfo,
  UlogMultiInfo,
  UlogParameter,
  UlogSubscription,
} from './scan-model.js';
export type { UlogScalar, UlogValue } from './values.js';

/** The magic at the start of every ULog file (the version byte follows). */
export const ULOG_MAGIC = [0x55, 0x4c, 0x6f, 0x67, 0x01, 0x12, 0x35] as const;

/** One channel of the log: a field of a subscribed message instance. */
export interface UlogFieldProfile extends FieldProfile {
  /** The platform's channel name: `<message>_<multi_id>.<field>`. */
  name: string;
  messageName: string;
  instance: number;
  /** `x`, `accel[2]`, `esc[0].rpm`, a char array as one text field. */
  fieldName: string;
  /** The ULog type: `float`, `uint64_t`, `char[16]` ... */
  physicalType: string;
}

export interface UlogProfile extends BaseProfile {
  format: 'ulog';
  fields: UlogFieldProfile[];
  /** Format version from the header. */
  version: number;
  /** The header's timestamp: microseconds since boot when logging started (decimal). */
  startTimestamp: string;
  flags?: UlogFlags & { dataAppended: boolean; defaultParameters: boolean };
  /** Byte ranges [start, end) of the definitions, the data section and the appended parts. */
  sections: { definitions: [number, number]; data: [number, number]; appended: [number, number][] };
  formats: UlogFormat[];
  info: UlogInfo[];
  multiInfo: UlogMultiInfo[];
  parameters: UlogParameter[];
  defaultParameters: UlogParameter[];
  changedParameters: string[];
  subscriptions: UlogSubscription[];
  /** Logged text messages: untagged, and per tag. */
  logs: { untagged: number; tagged: Array<{ tag: number; count: number }> };
  /** Messages walked, data messages among them, dropouts. */
  counts: { messages: number; data: number; dropouts: number };
  /** The first GPS message with a UTC time, when the log has one. */
  gps?: UlogGpsFix;
}

export interface UlogInspectOptions {
  onProgress?: (done: number, total: number) => void;
  /** The data parts walked by threads too (scan-jobs.ts): `check --full` on several cores. */
  shared?: SharedWalk | undefined;
}

/** Inspects a ULog file by path. Throws InspectError when it cannot be read as ULog. */
export async function inspectUlog(
  path: string,
  options: UlogInspectOptions = {},
): Promise<UlogProfile> {
  // The walk holds one window at a time: the file is read into two buffers that take turns,
  // as `check` reads it. With a new zeroed 1 MiB buffer a read, the walk waited for its
  // reads: bench/ulog's 1 GB was inspected in 1.21 to 1.37 s, and 0.44 to 0.46 s so.
  return throughTurns(path, (s) => inspectUlogSource(s, options));
}

/** Inspects ULog bytes from any source (a file, memory, a counting wrapper in tests). */
export async function inspectUlogSource(
  source: ByteSource,
  options: UlogInspectOptions = {},
): Promise<UlogProfile> {
  refuseEmptyFile(source);
  const reader = new ChunkReader(source);
  const scan = await readHeader(reader, source.name);
  const walker = new UlogWalker(reader, scan, options.onProgress);
  // The definitions first (flag bits, wherever pyulog finds them among them), then the parts.
  const definitionsEnd = await walker.walk(16, reader.size, true);
  refuseIncompatible(scan, source.name);
  const issues: Issue[] = [];
  const parts = dataParts(scan, definitionsEnd, reader.size, source.name, issues);
  const stops = options.shared
    ? await walkPartsInRanges(walker, reader, parts, options.shared, options.onProgress)
    : await walkParts(walker, parts);
  if (!stops) {
    // What only one walk decides: the file is walked again, by one, once no read is pending.
    await reader.settle();
    return inspectUlogSource(source, { ...options, shared: undefined });
  }
  for (const [i, [start, end]] of parts.entries()) {
    const stopped = stops[i] as number;
    if (i > 0) scan.appended.push([start, end]);
    // The main part may stop mid-message where appended data begins; the last may not.
    if (stopped < end && i === parts.length - 1) {
      scan.damage.push({
        offset: stopped,
        kind: 'truncated',
        what: `the file ends inside a message (${end - stopped} bytes left at offset ${stopped})`,
      });
    }
  }
  options.onProgress?.(reader.size, reader.size);
  // The bytes read are reported once every read has settled, from disk as from memory.
  await reader.settle();
  return profileOf(scan, source, parts, issues);
}

/** Walks the data parts in this thread, one after the other; where each walk stopped. */
async function walkParts(walker: UlogWalker, parts: Array<[number, number]>): Promise<number[]> {
  const stops: number[] = [];
  for (const [start, end] of parts) stops.push(await walker.walk(start, end));
  return stops;
}

/**
 * A subscribed message's size after its msg_id: `size` with every field, `minSize` without
 * the padding at its end, which a logger may leave out (PX4's logger does; the format
 * allows it).
 */
export interface UlogMessageLayout {
  msgId: number;
  messageName: string;
  instance: number;
  size: number;
  minSize: number;
  /** The top-level `timestamp`: its offset and type, when it is a primitive at a known offset. */
  timestamp?: { offset: number; type: string };
}

/** The formats of a profile by name, one map per profile (format sizes are memoised per map). */
const FORMATS = new WeakMap<UlogProfile, Map<string, UlogFormat>>();

function formatsOf(profile: UlogProfile): Map<string, UlogFormat> {
  let formats = FORMATS.get(profile);
  if (!formats) {
    formats = new Map(profile.formats.map((f) => [f.name, f]));
    FORMATS.set(profile, formats);
  }
  return formats;
}

/** The layout of each subscription whose format has a known size. */
export function ulogLayouts(profile: UlogProfile): UlogMessageLayout[] {
  const formats = formatsOf(profile);
  const out: UlogMessageLayout[] = [];
  for (const s of profile.subscriptions) {
    const format = formats.get(s.messageName);
    const sizes = format ? messageSizes(format, formats) : undefined;
    if (!format || !sizes) continue;
    const [minSize, size] = sizes;
    const layout: UlogMessageLayout = {
      msgId: s.msgId,
      messageName: s.messageName,
      instance: s.multiId,
      size,
      minSize,
    };
    const timestamp = fieldOffset(format, 'timestamp', formats);
    if (timestamp && PRIMITIVE_SIZES[timestamp.type] !== undefined) layout.timestamp = timestamp;
    out.push(layout);
  }
  return out;
}

/**
 * The messages whose fields become channels (subscribed, with a format that has a top-level
 * timestamp), each with its instances in subscription order.
 */
export function ulogChannelMessages(profile: UlogProfile): Map<string, number[]> {
  const formats = formatsOf(profile);
  const out = new Map<string, number[]>();
  for (const s of profile.subscriptions) {
    const format = formats.get(s.messageName);
    if (!format || !hasTimestamp(format)) continue;
    const instances = out.get(s.messageName) ?? [];
    if (!instances.includes(s.multiId)) instances.push(s.multiId);
    out.set(s.messageName, instances);
  }
  return out;
}

/**
 * The channel `fieldName` names in the logged message `messageName` (with its type and byte
 * offset), found by following the name through the format, never by unrolling it; undefined
 * when the message has no format, no top-level timestamp (the platform leaves it out) or
 * no such channel.
 */
export function ulogFieldLeaf(
  profile: UlogProfile,
  messageName: string,
  fieldName: string,
): UlogLeaf | undefined {
  const formats = formatsOf(profile);
  const format = formats.get(messageName);
  if (!format || !hasTimestamp(format)) return undefined;
  return resolveField(format, formats, fieldName);
}

/** A field's value in a message: a number, a 64-bit integer as decimal text, text for chars. */
export function ulogFieldValue(message: Uint8Array, leaf: UlogLeaf): string | number | boolean {
  const at = leaf.offset ?? -1;
  if (at < 0) return Number.NaN;
  const m = /^char(?:\[(\d+)\])?$/.exec(leaf.type);
  if (m) return text(message.subarray(at, at + Number(m[1] ?? 1)));
  const size = PRIMITIVE_SIZES[leaf.type];
  if (size === undefined || at + size > message.byteLength) return Number.NaN;
  return scalarAt(leaf.type, view(message), at);
}

/**
 * Walks byte ranges of one data part of a ULog file or source (see `walkUlogData`), handing
 * over the data messages of the msg_ids in `sizes` and the logged texts. Throws
 * InspectError when the file cannot be opened. `readAhead` false: a source whose reads are
 * done in the call (ChunkReader).
 */
export async function readUlogData(
  data: string | ByteSource,
  part: readonly [number, number],
  ranges: ReadonlyArray<readonly [number, number]>,
  sizes: UlogSizes,
  handlers: UlogDataHandlers,
  readAhead = true,
): Promise<number> {
  return throughSource(data, (source) =>
    walkUlogData(new ChunkReader(source, { readAhead }), part, ranges, sizes, handlers),
  );
}

/**
 * The first offset at or after `from` in a data part ending at `end` from which messages
 * follow one another as the format says (16 of them, or all up to `end`): a message
 * boundary, where a walk may start; -1 when none is found within 1 MiB.
 */
export async function ulogBoundary(
  source: ByteSource,
  from: number,
  end: number,
  sizes: UlogSizes,
): Promise<number> {
  return boundary(new ChunkReader(source), from, end, sizes);
}

async function readHeader(reader: ChunkReader, name: string): Promise<UlogScan> {
  const head = (await reader.get(0, Math.min(16, reader.size))) ?? new Uint8Array(0);
  const magic = ULOG_MAGIC.slice(0, head.byteLength);
  if (!magic.every((b, i) => head[i] === b)) {
    throw ulogError(
      'ulog_bad_magic',
      name,
      `${name}: not a ULog file (it does not start with the ULog magic bytes 55 4c 6f 67 01 12 35)`,
      'Check that this is the log you meant; a .ulg file that is not ULog cannot be imported.',
    );
  }
  if (head.byteLength < 16) {
    throw ulogError(
      'ulog_too_short',
      name,
      `${name}: ${reader.size} bytes, shorter than the 16-byte ULog header`,
      'The file was cut short: copy it from the vehicle again.',
    );
  }
  return emptyScan(head[7] as number, view(head).getBigUint64(8, true).toString());
}

/** Incompatible flags other than "data appended" mean a reader must not go on (the format says so). */
function refuseIncompatible(scan: UlogScan, name: string): void {
  const incompat = scan.flags?.incompat ?? [];
  const unknown = incompat.some((b, i) => (i === 0 ? b & ~1 : b) !== 0);
  if (!unknown) return;
  throw ulogError(
    'ulog_incompatible',
    name,
    `${name}: the log sets incompatible flag bits this reader does not know (${incompat.join(' ')})`,
    'The log was written by a newer logger; no reader that follows the format may read it.',
  );
}

/**
 * The parts to walk: [first, main end) then each appended part up to the next or the end.
 * An offset at the end of the file is an appended part with nothing in it yet (a logger
 * that marked where it would append, then wrote nothing): nothing to read, nothing wrong.
 */
function dataParts(
  scan: UlogScan,
  first: number,
  size: number,
  name: string,
  issues: Issue[],
): Array<[number, number]> {
  const appended = (scan.flags?.incompat[0] ?? 0) & 1;
  const offsets = appended
    ? (scan.flags?.appendedOffsets ?? []).map(Number).filter((o) => o !== 0)
    : [];
  const valid: number[] = [];
  for (const o of offsets) {
    if (o === size && o >= first) continue;
    if (o >= first && o < size && o > (valid.at(-1) ?? 0)) valid.push(o);
    else {
      issues.push(
        ulogIssue('ulog_appended_offset_invalid', `appended-data offset ${o} is outside the data`, {
          hint: 'The appended part is not read; the rest of the log is.',
          name,
        }),
      );
    }
  }
  const bounds = [first, ...valid, size];
  return bounds.slice(0, -1).map((start, i) => [start, bounds[i + 1] as number]);
}

export function ulogIssue(
  code: IssueCode,
  message: string,
  extra: { hint?: string; name: string },
): Issue {
  return issue(code, '', message, { hint: extra.hint || undefined, source: { file: extra.name } });
}

function ulogError(code: IssueCode, name: string, message: string, hint: string): InspectError {
  return new InspectError(ulogIssue(code, message, { hint, name }));
}

function profileOf(
  scan: UlogScan,
  source: ByteSource,
  parts: Array<[number, number]>,
  issues: Issue[],
): UlogProfile {
  const dataStart = scan.dataStart ?? parts[0]?.[1] ?? source.size;
  const fields = fieldsOf(scan, source.name, issues);
  pushAll(issues, damageIssues(scan, source.name));
  const flags = scan.flags;
  const profile: UlogProfile = {
    format: 'ulog',
    file: { path: source.name, size: source.size },
    bytesRead: source.bytesRead,
    fields,
    issues,
    version: scan.version,
    startTimestamp: scan.timestamp,
    sections: {
      definitions: [16, dataStart],
      data: [dataStart, parts[0]?.[1] ?? source.size],
      appended: scan.appended,
    },
    formats: [...scan.formats.values()],
    info: scan.info,
    multiInfo: scan.multiInfo,
    parameters: scan.parameters,
    defaultParameters: scan.defaultParameters,
    changedParameters: scan.changedParameters,
    subscriptions: [...scan.subscriptions.values()],
    logs: {
      untagged: scan.logs,
      tagged: [...scan.taggedLogs].map(([tag, count]) => ({ tag, count })),
    },
    counts: { messages: scan.messages, data: scan.dataMessages, dropouts: scan.dropouts },
  };
  if (flags) {
    profile.flags = {
      ...flags,
      dataAppended: ((flags.incompat[0] ?? 0) & 1) === 1,
      defaultParameters: ((flags.compat[0] ?? 0) & 1) === 1,
    };
  }
  if (scan.gps) profile.gps = scan.gps;
  return profile;
}

/** Issues of one kind shown at most; the rest are counted in one more. */
const SHOWN = 5;

/**
 * One field profile per (subscription, flattened field), in subscription order, at most
 * MAX_FIELDS of them for the whole log (every instance counts): a log whose nested arrays
 * unroll past that gets `ulog_fields_over_limit` and the rest is left out. Issues of one
 * kind (a missing format, a message without timestamp, an unreadable field) are counted;
 * the first few are shown.
 */
function fieldsOf(scan: UlogScan, name: string, issues: Issue[]): UlogFieldProfile[] {
  const fields: UlogFieldProfile[] = [];
  const flattened = new Map<string, ReturnType<typeof flattenFormat>>();
  const found = { missing: [] as string[], untimed: [] as string[], unreadable: [] as string[] };
  const seen = new Set<string>();
  let over: { at: string; left: number } | undefined;
  for (const sub of scan.subscriptions.values()) {
    // A message subscribed again (after a remove) under a new msg_id is the same channels.
    const id = `${sub.messageName}_${sub.multiId}`;
    if (seen.has(id)) continue;
    seen.add(id);
    if (over) {
      over.left += 1;
      continue;
    }
    const format = scan.formats.get(sub.messageName);
    if (!format) {
      found.missing.push(`${sub.messageName} (instance ${sub.multiId})`);
      continue;
    }
    if (!hasTimestamp(format)) {
      found.untimed.push(sub.messageName);
      continue;
    }
    let flat = flattened.get(format.name);
    if (!flat) {
      flat = flattenFormat(format, scan.formats, MAX_FIELDS - fields.length);
      flattened.set(format.name, flat);
      for (const p of flat.problems) found.unreadable.push(problemText(format.name, p));
    }
    const take = Math.min(flat.leaves.length, MAX_FIELDS - fields.length);
    for (const leaf of flat.leaves.slice(0, take)) {
      fields.push({
        name: `${id}.${leaf.field}`,
        messageName: sub.messageName,
        instance: sub.multiId,
        fieldName: leaf.field,
        physicalType: leaf.type,
        samples: [],
      });
    }
    if (flat.capped || take < flat.leaves.length) over = { at: id, left: 0 };
  }
  pushAll(issues, fieldIssues(found, name));
  if (over) issues.push(overLimitIssue(over, name));
  return fields;
}

function fieldIssues(
  found: { missing: string[]; untimed: string[]; unreadable: string[] },
  name: string,
): Issue[] {
  return [
    ...counted(found.missing, name, 'ulog_format_missing', {
      one: (m) => `${m} is subscribed but has no format definition: its data cannot be read`,
      more: (n) => `and ${n} more subscribed messages have no format definition`,
      hint: 'The log is damaged or was written by a broken logger.',
    }),
    ...counted(found.untimed, name, 'ulog_format_without_timestamp', {
      one: (m) => `${m} has no top-level timestamp field: the platform leaves it out`,
      more: (n) => `and ${n} more subscribed messages have no top-level timestamp`,
    }),
    ...counted(found.unreadable, name, 'ulog_field_unreadable', {
      one: (m) => m,
      more: (n) => `and ${n} more fields that cannot be read`,
      hint: 'Those fields are left out; the log is probably damaged.',
    }),
  ];
}

/** The first SHOWN findings of one kind as issues, the rest counted in one more. */
function counted(
  list: readonly string[],
  name: string,
  code: IssueCode,
  text: { one: (x: string) => string; more: (n: number) => string; hint?: string },
): Issue[] {
  const extra = { name, ...(text.hint ? { hint: text.hint } : {}) };
  const out = list.slice(0, SHOWN).map((x) => ulogIssue(code, text.one(x), extra));
  if (list.length > SHOWN) out.push(ulogIssue(code, text.more(list.length - SHOWN), extra));
  return out;
}

function overLimitIssue(over: { at: string; left: number }, name: string): Issue {
  const rest = over.left > 0 ? ` and the ${over.left} message instance(s) after it` : '';
  return ulogIssue(
    'ulog_fields_over_limit',
    `the subscribed messages unroll to more than ${MAX_FIELDS.toLocaleString('en-US')} fields (nested arrays multiply): the rest of ${over.at}${rest} is left out`,
    {
      hint: 'A real log has a few thousand fields; nested arrays this large mean a damaged or hostile log.',
      name,
    },
  );
}

function problemText(format: string, p: FlattenProblem): string {
  return p.kind === 'unknown_type'
    ? `${format}: field ${p.field} has type ${p.type}, which no format defines`
    : `${format}: field ${p.field} nests formats deeper than ${MAX_NESTING} levels (a cyclic definition?)`;
}

function damageIssues(scan: UlogScan, name: string): Issue[] {
  const out: Issue[] = [];
  const shown = scan.damage.slice(0, 5);
  for (const d of shown) {
    const code = d.kind === 'truncated' ? 'ulog_truncated' : 'ulog_damaged';
    out.push(
      ulogIssue(code, `at offset ${d.offset}: ${d.what}`, {
        hint:
          d.kind === 'truncated'
            ? 'A log cut short (power lost, copy interrupted) imports up to the last whole message.'
            : 'With parseErrorPolicy FAIL_ON_ERROR the import fails here; IGNORE_ERROR skips the damaged part.',
        name,
      }),
    );
  }
  if (scan.damage.length > shown.length) {
    out.push(
      ulogIssue('ulog_damaged', `and ${scan.damage.length - shown.length} more damaged places`, {
        name,
      }),
    );
  }
  for (const [msgId, bad] of [...scan.badSizes].slice(0, SHOWN)) {
    const sub = scan.subscriptions.get(msgId);
    const range = bad.min === bad.max ? `${bad.max}` : `${bad.min} to ${bad.max}`;
    out.push(
      issue(
        'ulog_damaged',
        '',
        `at offset ${bad.offset}: ${bad.count} data message(s) of ${sub?.messageName ?? '?'} (instance ${sub?.multiId ?? '?'}) of a size its format does not allow (${range} bytes after the msg_id)`,
        {
          hint: 'Those messages cannot be read (pyulog drops them as corrupt).',
          source: { file: name, offset: bad.offset },
        },
      ),
    );
  }
  if (scan.badSizes.size > SHOWN) {
    out.push(
      ulogIssue(
        'ulog_damaged',
        `and ${scan.badSizes.size - SHOWN} more subscriptions with data messages of a size their format does not allow`,
        { name },
      ),
    );
  }
  for (const [msgId, seen] of [...scan.unknownMsgIds].slice(0, 5)) {
    out.push(
      ulogIssue(
        'ulog_damaged',
        `at offset ${seen.offset}: ${seen.count} data message(s) with msg_id ${msgId}, which no subscription announced`,
        { hint: 'Those messages cannot be read; the platform skips them.', name },
      ),
    );
  }
  return out;
}
