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
import { type Issue, type IssueCode, issue, pushAll } from '../model/plain.js';
import { type ByteSource, openForInspection, refuseEmptyFile } from './byte-source.js';
import { type BaseProfile, type FieldProfile, InspectError } from './profile.js';
import { type UlogDataHandlers, walkUlogData } from './ulog/data.js';
import {
  flattenFormat,
  hasTimestamp,
  PRIMITIVE_SIZES,
  typeSize,
  type UlogFormat,
  type UlogLeaf,
} from './ulog/format.js';
import { ChunkReader, text, view } from './ulog/reader.js';
import {
  emptyScan,
  MSG,
  type UlogFlags,
  type UlogGpsFix,
  type UlogInfo,
  type UlogMultiInfo,
  type UlogParameter,
  type UlogScan,
  type UlogSubscription,
  UlogWalker,
} from './ulog/scan.js';
import { scalarAt } from './ulog/values.js';

export type { UlogDataHandlers } from './ulog/data.js';
export type { UlogFieldDef, UlogFormat, UlogLeaf } from './ulog/format.js';
export type {
  UlogFlags,
  UlogGpsFix,
  UlogInfo,
  UlogMultiInfo,
  UlogParameter,
  UlogSubscription,
} from './ulog/scan.js';
export type { UlogScalar, UlogValue } from './ulog/values.js';

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
}

/** Inspects a ULog file by path. Throws InspectError when it cannot be read as ULog. */
export async function inspectUlog(
  path: string,
  options: UlogInspectOptions = {},
): Promise<UlogProfile> {
  const source = await openForInspection(path);
  try {
    return await inspectUlogSource(source, options);
  } finally {
    await source.close();
  }
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
  const first = await walkFlagBits(walker, reader);
  refuseIncompatible(scan, source.name);
  const issues: Issue[] = [];
  const parts = dataParts(scan, first, reader.size, source.name, issues);
  for (const [i, [start, end]] of parts.entries()) {
    const stopped = await walker.walk(start, end);
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
  return profileOf(scan, source, parts, issues);
}

/** A subscribed message's size (after its msg_id) and its channels with their byte offsets. */
export interface UlogMessageLayout {
  msgId: number;
  messageName: string;
  instance: number;
  size: number;
  leaves: UlogLeaf[];
}

/** The layout of each subscription whose format has a known size. */
export function ulogLayouts(profile: UlogProfile): UlogMessageLayout[] {
  const formats = new Map(profile.formats.map((f) => [f.name, f]));
  const out: UlogMessageLayout[] = [];
  for (const s of profile.subscriptions) {
    const format = formats.get(s.messageName);
    const size = format ? typeSize(format.name, formats) : undefined;
    if (!format || size === undefined) continue;
    const { leaves } = flattenFormat(format, formats);
    out.push({ msgId: s.msgId, messageName: s.messageName, instance: s.multiId, size, leaves });
  }
  return out;
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
 * Walks byte ranges of one data part of a ULog file (see `walkUlogData`), handing over
 * the data messages of the msg_ids in `sizes` and the logged texts. Throws InspectError
 * when the file cannot be opened.
 */
export async function readUlogData(
  path: string,
  part: readonly [number, number],
  ranges: ReadonlyArray<readonly [number, number]>,
  sizes: ReadonlyMap<number, number>,
  handlers: UlogDataHandlers,
): Promise<void> {
  const source = await openForInspection(path);
  try {
    await walkUlogData(new ChunkReader(source), part, ranges, sizes, handlers);
  } finally {
    await source.close();
  }
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

/** Walks the first message when it is the flag bits; returns where the rest begins. */
async function walkFlagBits(walker: UlogWalker, reader: ChunkReader): Promise<number> {
  const head = await reader.get(16, 3);
  if (!head || head[2] !== MSG.flagBits) return 16;
  const end = 16 + 3 + ((head[0] as number) | ((head[1] as number) << 8));
  if (end > reader.size) return 16;
  return walker.walk(16, end);
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

/** The parts to walk: [first, main end) then each appended part up to the next or the end. */
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
    if (o > first && o < size && o > (valid.at(-1) ?? 0)) valid.push(o);
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

/** One field profile per (subscription, flattened field), in subscription order. */
function fieldsOf(scan: UlogScan, name: string, issues: Issue[]): UlogFieldProfile[] {
  const fields: UlogFieldProfile[] = [];
  const flattened = new Map<string, ReturnType<typeof flattenFormat>>();
  const seen = new Set<string>();
  for (const sub of scan.subscriptions.values()) {
    // A message subscribed again (after a remove) under a new msg_id is the same channels.
    const id = `${sub.messageName}_${sub.multiId}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const format = scan.formats.get(sub.messageName);
    if (!format) {
      issues.push(
        ulogIssue(
          'ulog_format_missing',
          `${sub.messageName} (instance ${sub.multiId}) is subscribed but has no format definition: its data cannot be read`,
          { hint: 'The log is damaged or was written by a broken logger.', name },
        ),
      );
      continue;
    }
    if (!hasTimestamp(format)) {
      issues.push(
        ulogIssue(
          'ulog_format_without_timestamp',
          `${sub.messageName} has no top-level uint64_t timestamp: the platform leaves it out`,
          { name },
        ),
      );
      continue;
    }
    let flat = flattened.get(format.name);
    if (!flat) {
      flat = flattenFormat(format, scan.formats);
      flattened.set(format.name, flat);
      for (const p of flat.problems) issues.push(problemIssue(format.name, p, name));
    }
    for (const leaf of flat.leaves) {
      fields.push({
        name: `${sub.messageName}_${sub.multiId}.${leaf.field}`,
        messageName: sub.messageName,
        instance: sub.multiId,
        fieldName: leaf.field,
        physicalType: leaf.type,
        samples: [],
      });
    }
  }
  return fields;
}

function problemIssue(
  format: string,
  p: ReturnType<typeof flattenFormat>['problems'][number],
  name: string,
): Issue {
  const what =
    p.kind === 'unknown_type'
      ? `field ${p.field} has type ${p.type}, which no format defines`
      : p.kind === 'too_deep'
        ? `field ${p.field} nests formats deeper than 32 levels (a cyclic definition?)`
        : 'more than 100,000 fields once nested arrays are unrolled; the rest is left out';
  return ulogIssue('ulog_field_unreadable', `${format}: ${what}`, {
    hint: 'Those fields are left out; the log is probably damaged.',
    name,
  });
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
