/**
 * The shapes a ULog walk fills and the format's constants, for the walk (scan.ts), the walk
 * over a byte range (scan-range.ts), the GPS search after shared ranges (scan-gps.ts) and the
 * data walk (data.ts).
 */
import { fieldOffset, type UlogFormat } from './format.js';
import { type ChunkReader, view } from './reader.js';
import type { UlogValue } from './values.js';

/** Message types, by their one-letter code. */
export const MSG = {
  flagBits: 0x42, // B
  format: 0x46, // F
  info: 0x49, // I
  multiInfo: 0x4d, // M
  parameter: 0x50, // P
  defaultParameter: 0x51, // Q
  addSubscription: 0x41, // A
  removeSubscription: 0x52, // R
  data: 0x44, // D
  log: 0x4c, // L
  taggedLog: 0x43, // C
  sync: 0x53, // S
  dropout: 0x4f, // O
} as const;

/**
 * 1 at each known message type: a table lookup per message, where a Set's or a Map's cost
 * counts on files of millions of messages.
 */
export const KNOWN = new Uint8Array(256);
for (const t of Object.values(MSG)) KNOWN[t] = 1;

/** 1 at each type of the data section: the first one ends the definitions. */
export const DATA_SECTION = new Uint8Array(256);
for (const t of [
  MSG.addSubscription,
  MSG.removeSubscription,
  MSG.data,
  MSG.log,
  MSG.taggedLog,
  MSG.sync,
  MSG.dropout,
])
  DATA_SECTION[t] = 1;

/** The magic of a sync message, used to find the next whole message after damage. */
export const SYNC_MAGIC = [0x2f, 0x73, 0x13, 0x20, 0x25, 0x0c, 0xbb, 0x12] as const;

/** GPS messages whose `time_utc_usec` gives a log its absolute time. */
export const GPS_MESSAGES = ['vehicle_gps_position', 'sensor_gps'] as const;

export interface UlogFlags {
  compat: number[];
  incompat: number[];
  /** File offsets (decimal strings) of appended data; "0" when unused. */
  appendedOffsets: string[];
}

export interface UlogInfo {
  key: string;
  type: string;
  value: UlogValue;
}
export interface UlogMultiInfo {
  key: string;
  type: string;
  values: UlogValue[];
}
export interface UlogParameter {
  name: string;
  /** `int32_t` or `float` as the format says; any other type is read too, as pyulog does. */
  type: string;
  value: UlogValue;
  /** Default parameters: bit 0 the system-wide default, bit 1 the current configuration's. */
  defaultTypes?: number;
}
export interface UlogSubscription {
  msgId: number;
  multiId: number;
  messageName: string;
  /** Offset of the `A` message. */
  offset: number;
  /** Data messages seen for it. */
  messages: number;
}
export interface UlogGpsFix {
  messageName: string;
  multiId: number;
  /** Microseconds since 1970 (decimal string), from the first GPS message that had one. */
  timeUtcUsec: string;
  /** Offset of that data message. */
  offset: number;
}
/** Something in the file that is not what the format says: where, what, and what the walk did. */
export interface UlogDamage {
  offset: number;
  what: string;
  kind: 'unknown_type' | 'malformed' | 'truncated' | 'unknown_msg_id' | 'bad_format';
}

/** What the walk collected. */
export interface UlogScan {
  version: number;
  timestamp: string;
  flags?: UlogFlags;
  formats: Map<string, UlogFormat>;
  info: UlogInfo[];
  multiInfo: UlogMultiInfo[];
  parameters: UlogParameter[];
  defaultParameters: UlogParameter[];
  /** Parameters set again in the data section. */
  changedParameters: string[];
  subscriptions: Map<number, UlogSubscription>;
  /** Offset of the first data-section message (the end of the definitions). */
  dataStart?: number;
  /** [start, end) of each appended part that was read. */
  appended: Array<[number, number]>;
  logs: number;
  taggedLogs: Map<number, number>;
  messages: number;
  dataMessages: number;
  dropouts: number;
  gps?: UlogGpsFix;
  damage: UlogDamage[];
  /** D messages whose msg_id no subscription announced, by msg_id. */
  unknownMsgIds: Map<number, { count: number; offset: number }>;
  /**
   * Data messages of a size their format does not allow (shorter than it without its end
   * padding, or longer than it whole; pyulog drops them as corrupt), by msg_id.
   */
  badSizes: Map<number, { count: number; offset: number; min: number; max: number }>;
}

export function emptyScan(version: number, timestamp: string): UlogScan {
  return {
    version,
    timestamp,
    formats: new Map(),
    info: [],
    multiInfo: [],
    parameters: [],
    defaultParameters: [],
    changedParameters: [],
    subscriptions: new Map(),
    appended: [],
    logs: 0,
    taggedLogs: new Map(),
    messages: 0,
    dataMessages: 0,
    dropouts: 0,
    damage: [],
    unknownMsgIds: new Map(),
    badSizes: new Map(),
  };
}

/** Where the time sits in a subscribed GPS message (after its msg_id). */
export interface GpsProbe {
  offset: number;
  messageName: string;
  multiId: number;
}

/**
 * The probe of a subscription to `messageName`: a GPS message whose format has a uint64
 * `time_utc_usec`; undefined for any other.
 */
export function gpsProbeOf(
  messageName: string,
  multiId: number,
  formats: ReadonlyMap<string, UlogFormat>,
): GpsProbe | undefined {
  if (!(GPS_MESSAGES as readonly string[]).includes(messageName)) return undefined;
  const format = formats.get(messageName);
  const at = format && fieldOffset(format, 'time_utc_usec', formats);
  return at?.type === 'uint64_t' ? { offset: at.offset, messageName, multiId } : undefined;
}

/**
 * The GPS time of the data message at `h` in `w` (held whole), as `gpsTimeAt` reads it;
 * most messages before a fix hold zeros, which make no DataView and no BigInt.
 */
export function gpsTimeIn(
  w: Uint8Array,
  h: number,
  pos: number,
  size: number,
  probe: GpsProbe | undefined,
): UlogGpsFix | undefined {
  if (!probe || probe.offset + 8 > size - 2) return undefined;
  const o = h + 5 + probe.offset;
  let any = 0;
  for (let k = 0; k < 8; k++) any |= w[o + k] as number;
  if (any === 0) return undefined;
  return fixOf(probe, view(w).getBigUint64(o, true), pos);
}

/** The GPS time of the data message at `pos` when it is long enough to hold one and does. */
export async function gpsTimeAt(
  reader: ChunkReader,
  pos: number,
  size: number,
  probe: GpsProbe | undefined,
): Promise<UlogGpsFix | undefined> {
  if (!probe || probe.offset + 8 > size - 2) return undefined;
  const bytes = await reader.get(pos + 5 + probe.offset, 8);
  const usec = bytes ? view(bytes).getBigUint64(0, true) : 0n;
  if (usec === 0n) return undefined;
  return fixOf(probe, usec, pos);
}

function fixOf(probe: GpsProbe, usec: bigint, pos: number): UlogGpsFix {
  return {
    messageName: probe.messageName,
    multiId: probe.multiId,
    timeUtcUsec: usec.toString(),
    offset: pos,
  };
}

/**
 * After an unknown message type at `pos`: where a walk goes on (the next sync message, as
 * the platform's own reader does, or `end` when none follows) and the damage it notes.
 */
export async function resyncAfter(
  reader: ChunkReader,
  pos: number,
  end: number,
  type: number,
): Promise<{ next: number; damage: UlogDamage }> {
  const magic = await reader.find(SYNC_MAGIC, pos + 1, end);
  const sync = magic >= 3 ? magic - 3 : -1;
  const what = `unknown message type 0x${type.toString(16).padStart(2, '0')}`;
  return {
    next: sync > pos ? sync : end,
    damage: {
      offset: pos,
      kind: 'unknown_type',
      what:
        sync > pos
          ? `${what}; skipped ${sync - pos} bytes to the next sync message at ${sync}`
          : `${what}; no sync message follows, the rest (${end - pos} bytes) was not read`,
    },
  };
}

/** What a walk over a data part does with the messages `stepMessages` steps over. */
export interface MessageStep {
  /** Walks the messages from `pos` that the window holds, without an await; where it stopped. */
  window(pos: number): number;
  /** A message the window's walk left, of a known type and whole in the part; true to stop. */
  message(type: number, pos: number, size: number, head: Uint8Array): Promise<boolean>;
  /** The damage of an unknown type (the walk goes on at the next sync message). */
  damage(damage: UlogDamage): void;
  /** Whether the walk is done, asked after each window. */
  done(): boolean;
}

/**
 * Steps a file's messages as every walk over it does (one walk, scan.ts, also over the
 * definitions; the range walk; the GPS search): from `from`, those that start before
 * `until` and end by `end`, a window's worth at a time without an await, the others one by
 * one; after an unknown type, at the next sync message. Returns where it stopped.
 */
export async function stepMessages(
  reader: ChunkReader,
  from: number,
  until: number,
  end: number,
  step: MessageStep,
): Promise<number> {
  let pos = from;
  while (pos < until && pos + 3 <= end) {
    pos = step.window(pos);
    if (step.done() || pos >= until || pos + 3 > end) break;
    // A message the window's walk left: rare in the data (subscriptions, tagged logs, damage).
    const head = await reader.get(pos, Math.min(5, end - pos));
    if (!head) break;
    const size = (head[0] as number) | ((head[1] as number) << 8);
    const type = head[2] as number;
    if (KNOWN[type] !== 1) {
      const { next, damage } = await resyncAfter(reader, pos, end, type);
      step.damage(damage);
      pos = next;
      continue;
    }
    const next = pos + 3 + size;
    if (next > end || (await step.message(type, pos, size, head))) break;
    pos = next;
  }
  return pos;
}
