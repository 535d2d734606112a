/**
 * Parses one TDMS segment's metadata block (the bytes between the lead-in and the raw
 * data): the object list, each object's raw data index and its properties. Pure: bytes
 * in, objects out; a block that runs out or holds impossible values throws TdmsFormatError.
 */
import { DAQMX_SCALER_TYPES, TDMS_TYPES, tdmsTimestampText, tdmsTypeName } from './types.js';

/** A value of a property as JSON can hold it: 64-bit integers beyond 2^53 become strings. */
export type TdmsValue = string | number | boolean;

export interface TdmsProperty {
  name: string;
  /** Short type name (`f64`, `string`, `timestamp` ...). */
  type: string;
  value: TdmsValue;
}

export interface DaqmxScaler {
  /** The scaler's raw type (`i16`, `u32` ...). */
  type: string;
  rawBufferIndex: number;
  /** Byte offset within the stride (format-changing) or bit offset (digital line). */
  offset: number;
  scaleId: number;
}

export interface DaqmxIndex {
  digitalLine: boolean;
  valueCount: number;
  scalers: DaqmxScaler[];
  rawDataWidths: number[];
}

/** The raw data index of an object in one segment. */
export type RawIndex =
  | { kind: 'none' }
  | { kind: 'same' }
  | { kind: 'plain'; typeCode: number; valueCount: number; byteCount?: number }
  | { kind: 'daqmx'; typeCode: number; daqmx: DaqmxIndex };

export interface SegmentObject {
  path: string;
  index: RawIndex;
  properties: TdmsProperty[];
}

export class TdmsFormatError extends Error {}

const DAQMX_FORMAT_CHANGING = 0x1269;
const DAQMX_DIGITAL_LINE = 0x126a;
const decoder = new TextDecoder('utf-8');

/** A cursor over a metadata block, little- or big-endian. */
export class MetaCursor {
  private pos = 0;
  private readonly view: DataView;
  constructor(
    private readonly bytes: Uint8Array,
    private readonly little: boolean,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  get offset(): number {
    return this.pos;
  }
  get remaining(): number {
    return this.bytes.byteLength - this.pos;
  }
  need(n: number, what: string): void {
    if (n > this.remaining) {
      throw new TdmsFormatError(
        `${what} needs ${n} bytes at metadata byte ${this.pos}, only ${this.remaining} left`,
      );
    }
  }
  u8(what: string): number {
    this.need(1, what);
    return this.view.getUint8(this.pos++);
  }
  u32(what: string): number {
    this.need(4, what);
    const v = this.view.getUint32(this.pos, this.little);
    this.pos += 4;
    return v;
  }
  u64(what: string): bigint {
    this.need(8, what);
    const v = this.view.getBigUint64(this.pos, this.little);
    this.pos += 8;
    return v;
  }
  i64(what: string): bigint {
    this.need(8, what);
    const v = this.view.getBigInt64(this.pos, this.little);
    this.pos += 8;
    return v;
  }
  /** A count of items each at least `minSize` bytes: a count the block cannot hold is an error. */
  count(what: string, minSize: number): number {
    const n = this.u32(what);
    if (n * minSize > this.remaining) {
      throw new TdmsFormatError(`${what} ${n} does not fit the ${this.remaining} bytes left`);
    }
    return n;
  }
  string(what: string): string {
    const n = this.u32(`${what} length`);
    this.need(n, what);
    const s = decoder.decode(this.bytes.subarray(this.pos, this.pos + n));
    this.pos += n;
    return s;
  }
  skip(n: number, what: string): void {
    this.need(n, what);
    this.pos += n;
  }
  value(typeCode: number, what: string): TdmsValue {
    const v = this.view;
    const at = this.pos;
    const take = (n: number) => {
      this.need(n, what);
      this.pos += n;
    };
    switch (typeCode) {
      case 0x01:
        take(1);
        return v.getInt8(at);
      case 0x02:
        take(2);
        return v.getInt16(at, this.little);
      case 0x03:
        take(4);
        return v.getInt32(at, this.little);
      case 0x04:
        return safeInteger(this.i64(what));
      case 0x05:
        take(1);
        return v.getUint8(at);
      case 0x06:
        take(2);
        return v.getUint16(at, this.little);
      case 0x07:
        take(4);
        return v.getUint32(at, this.little);
      case 0x08:
        return safeInteger(this.u64(what));
      case 0x09:
      case 0x19:
        take(4);
        return v.getFloat32(at, this.little);
      case 0x0a:
      case 0x1a:
        take(8);
        return v.getFloat64(at, this.little);
      case 0x20:
        return this.string(what);
      case 0x21:
        take(1);
        return v.getUint8(at) !== 0;
      case 0x44: {
        // Little-endian: the fraction, then the seconds; big-endian: the seconds first.
        const fraction = this.little ? this.u64(what) : undefined;
        const seconds = this.i64(what);
        return tdmsTimestampText(seconds, fraction ?? this.u64(what));
      }
      default: {
        const size = TDMS_TYPES.get(typeCode)?.size;
        if (size === undefined || size === 0) {
          throw new TdmsFormatError(`${what} has ${tdmsTypeName(typeCode)}, which has no size`);
        }
        take(size);
        return `(${tdmsTypeName(typeCode)})`;
      }
    }
  }
}

function safeInteger(v: bigint): number | string {
  return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER)
    ? Number(v)
    : v.toString();
}

function countOf(v: bigint, what: string): number {
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new TdmsFormatError(`${what} ${v} is too large`);
  return Number(v);
}

/** Parses a metadata block: u32 object count, then each object. */
export function parseMetadata(bytes: Uint8Array, bigEndian: boolean): SegmentObject[] {
  const c = new MetaCursor(bytes, !bigEndian);
  const n = c.count('object count', 12);
  const objects: SegmentObject[] = [];
  for (let i = 0; i < n; i++) {
    const path = c.string(`object ${i + 1} path`);
    const index = readRawIndex(c, path);
    const properties = readProperties(c, path);
    objects.push({ path, index, properties });
  }
  return objects;
}

function readRawIndex(c: MetaCursor, path: string): RawIndex {
  const header = c.u32(`${path}: raw data index`);
  if (header === 0xffffffff) return { kind: 'none' };
  if (header === 0) return { kind: 'same' };
  if (header === DAQMX_FORMAT_CHANGING || header === DAQMX_DIGITAL_LINE) {
    return readDaqmxIndex(c, path, header === DAQMX_DIGITAL_LINE);
  }
  const start = c.offset;
  const typeCode = c.u32(`${path}: data type`);
  if (!TDMS_TYPES.has(typeCode) || typeCode === 0xffffffff) {
    throw new TdmsFormatError(`${path}: unknown data type 0x${typeCode.toString(16)}`);
  }
  const dimension = c.u32(`${path}: dimension`);
  if (dimension !== 1) throw new TdmsFormatError(`${path}: array dimension ${dimension}, not 1`);
  const valueCount = countOf(c.u64(`${path}: value count`), `${path}: value count`);
  const out: RawIndex = { kind: 'plain', typeCode, valueCount };
  if (typeCode === 0x20) out.byteCount = countOf(c.u64(`${path}: string bytes`), path);
  // The header is the index's length: skip what a later version may add.
  const used = c.offset - start + 4;
  if (header > used) c.skip(header - used, `${path}: raw data index`);
  return out;
}

function readDaqmxIndex(c: MetaCursor, path: string, digitalLine: boolean): RawIndex {
  const typeCode = c.u32(`${path}: DAQmx data type`);
  c.u32(`${path}: DAQmx dimension`);
  const valueCount = countOf(c.u64(`${path}: DAQmx value count`), path);
  const nScalers = c.count(`${path}: DAQmx scaler count`, digitalLine ? 17 : 20);
  const scalers: DaqmxScaler[] = [];
  for (let i = 0; i < nScalers; i++) {
    const code = c.u32(`${path}: scaler type`);
    const rawBufferIndex = c.u32(`${path}: scaler buffer`);
    const offset = c.u32(`${path}: scaler offset`);
    if (digitalLine) c.u8(`${path}: scaler format`);
    else c.u32(`${path}: scaler format`);
    const scaleId = c.u32(`${path}: scale id`);
    const type = DAQMX_SCALER_TYPES.get(code)?.name ?? `daqmx type ${code}`;
    scalers.push({ type, rawBufferIndex, offset, scaleId });
  }
  const nWidths = c.count(`${path}: DAQmx raw data width count`, 4);
  const rawDataWidths: number[] = [];
  for (let i = 0; i < nWidths; i++) rawDataWidths.push(c.u32(`${path}: raw data width`));
  return { kind: 'daqmx', typeCode, daqmx: { digitalLine, valueCount, scalers, rawDataWidths } };
}

function readProperties(c: MetaCursor, path: string): TdmsProperty[] {
  const n = c.count(`${path}: property count`, 8);
  const out: TdmsProperty[] = [];
  for (let i = 0; i < n; i++) {
    const name = c.string(`${path}: property name`);
    const typeCode = c.u32(`${path}: property ${name} type`);
    if (!TDMS_TYPES.has(typeCode)) {
      throw new TdmsFormatError(
        `${path}: property ${name} has unknown type 0x${typeCode.toString(16)}`,
      );
    }
    const value = c.value(typeCode, `${path}: property ${name}`);
    out.push({ name, type: tdmsTypeName(typeCode), value });
  }
  return out;
}

/** `/'Group'/'Chan''s'` → ['Group', "Chan's"]; undefined when not a TDMS path. */
export function splitTdmsPath(path: string): string[] | undefined {
  if (path === '/') return [];
  const parts: string[] = [];
  const re = /\/'((?:[^']|'')*)'/y;
  let at = 0;
  while (at < path.length) {
    re.lastIndex = at;
    const m = re.exec(path);
    if (!m) return undefined;
    parts.push((m[1] ?? '').replace(/''/g, "'"));
    at = re.lastIndex;
  }
  return parts.length > 0 && parts.length <= 2 ? parts : undefined;
}

/** ['Group', "Chan's"] → `/'Group'/'Chan''s'`. */
export function joinTdmsPath(parts: readonly string[]): string {
  if (parts.length === 0) return '/';
  return parts.map((p) => `/'${p.replace(/'/g, "''")}'`).join('');
}
