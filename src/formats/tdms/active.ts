/**
 * The object list a segment's raw data follows, kept from segment to segment as NI's
 * incremental metadata says: a segment without kTocNewObjList keeps the previous list,
 * replaces the objects it lists in place and appends the new ones. The list is changed in
 * place, one listed object at a time, and keeps what each segment needs (the objects with
 * data, in order, and the bytes of one chunk) up to date as it changes: a segment costs
 * what its metadata lists plus, when it holds whole chunks, its objects with data. Copying
 * the list for every segment made a file adding one object per segment quadratic (20,000
 * segments of 55 bytes: 31 s to inspect).
 */
import type { RawIndex, TdmsProperty } from './metadata.js';
import { TDMS_TYPES } from './types.js';

/** What the walk keeps of one object across the segments. */
export interface ObjectState {
  path: string;
  properties: Map<string, TdmsProperty>;
  /** The last raw data index with data (plain or DAQmx). */
  index?: Extract<RawIndex, { kind: 'plain' | 'daqmx' }>;
  /** Values in all segments; undefined when a chunk size could not be known. */
  valueCount: number | undefined;
  /**
   * Values before the next segment, a count not known taken as 0: where the indices of its
   * values in the next segment begin (the raw reader's), and what a walk start keeps. A
   * walk that begins at a start (walk-starts.ts) begins with the start's.
   */
  seen: number;
  /** Segments in which the object has data. */
  segments: number;
}

/** An object of the list with the raw data index in force ('none': no data in this segment). */
export interface Active {
  state: ObjectState;
  index: RawIndex;
}

/** Bytes of one chunk an index takes: undefined when its type's size is unknown. */
function bytesOf(index: RawIndex): bigint | undefined {
  if (index.kind === 'daqmx') {
    const d = index.daqmx;
    return BigInt(d.valueCount) * BigInt(d.rawDataWidths.reduce((s, w) => s + w, 0));
  }
  if (index.kind !== 'plain') return 0n;
  if (index.byteCount !== undefined) return BigInt(index.byteCount);
  const size = TDMS_TYPES.get(index.typeCode)?.size;
  return size === undefined ? undefined : BigInt(size) * BigInt(index.valueCount);
}

/** Bytes of one value of a plain index; undefined for strings, DAQmx data and unknown sizes. */
export function valueSize(index: RawIndex): number | undefined {
  if (index.kind !== 'plain' || index.typeCode === 0x20) return undefined;
  return TDMS_TYPES.get(index.typeCode)?.size;
}

/** Whether an index puts values in the segment's raw data (values that take bytes). */
function holdsData(index: RawIndex): boolean {
  if (index.kind === 'daqmx') return index.daqmx.valueCount > 0;
  if (index.kind !== 'plain' || index.valueCount === 0) return false;
  return bytesOf(index) !== 0n;
}

export class ActiveList {
  private items: Active[] = [];
  private place = new Map<ObjectState, number>();
  /** The objects with data in list order, and where each is in it; undefined: rebuild. */
  private data: Active[] | undefined = [];
  private dataPlace = new Map<ObjectState, number>();
  private dataCount = 0;
  /** Bytes per chunk of the plain objects with data. */
  private plainBytes = 0n;
  /** Objects with data whose type has no known size. */
  private unsized = 0;
  /**
   * DAQmx objects with data, and the bytes per chunk of the raw buffer they share (as the
   * last DAQmx index set says: every DAQmx object of a segment describes the same buffer).
   */
  private daqmx = 0;
  private daqmxBytes = 0n;
  /** Bytes of one value of each object with data (an interleaved row), and the objects whose values have no fixed size (strings, DAQmx). */
  private rowBytes = 0;
  private rowUnsized = 0;

  /** A new object list (kTocNewObjList): the segment lists every object anew. */
  clear(): void {
    this.items = [];
    this.place = new Map();
    this.data = [];
    this.dataPlace = new Map();
    this.dataCount = 0;
    this.plainBytes = 0n;
    this.unsized = 0;
    this.daqmx = 0;
    this.daqmxBytes = 0n;
    this.rowBytes = 0;
    this.rowUnsized = 0;
  }

  /** Sets an object's index: in place when it is in the list, else appended. */
  set(state: ObjectState, index: RawIndex): void {
    const at = this.place.get(state);
    if (at === undefined) {
      const entry: Active = { state, index };
      this.place.set(state, this.items.push(entry) - 1);
      if (!holdsData(index)) return;
      this.count(index, 1);
      if (this.data) this.dataPlace.set(state, this.data.push(entry) - 1);
      return;
    }
    const old = (this.items[at] as Active).index;
    // The index in force again ("same as before", the object repeated): nothing changes.
    // A logger repeating its list every segment made this a count of each object's bytes
    // (BigInt) twice a segment: 7% of a full check of 100,000 segments of 8 channels.
    if (old === index) return;
    const entry: Active = { state, index };
    this.items[at] = entry;
    const was = holdsData(old);
    const is = holdsData(index);
    if (was) this.count(old, -1);
    if (is) this.count(index, 1);
    if (was !== is) this.data = undefined;
    else if (is && this.data) this.data[this.dataPlace.get(state) as number] = entry;
  }

  private count(index: RawIndex, sign: 1 | -1): void {
    this.dataCount += sign;
    const size = valueSize(index);
    if (size === undefined) this.rowUnsized += sign;
    else this.rowBytes += sign * size;
    if (index.kind === 'daqmx') {
      this.daqmx += sign;
      if (sign > 0) this.daqmxBytes = bytesOf(index) ?? 0n;
      return;
    }
    const bytes = bytesOf(index);
    if (bytes === undefined) this.unsized += sign;
    else this.plainBytes += sign > 0 ? bytes : -bytes;
  }

  /** The list in order: each object with the raw data index in force. */
  entries(): readonly Active[] {
    return this.items;
  }

  /** How many objects have data in this segment. */
  get withDataCount(): number {
    return this.dataCount;
  }

  /** The objects with data, in list order (the order of their values in each chunk). */
  withData(): readonly Active[] {
    if (!this.data) {
      this.data = [];
      this.dataPlace = new Map();
      for (const a of this.items) {
        if (holdsData(a.index)) this.dataPlace.set(a.state, this.data.push(a) - 1);
      }
    }
    return this.data;
  }

  /** Bytes of one interleaved row (a value of each object); undefined when a value has no fixed size. */
  rowSize(): number | undefined {
    return this.rowUnsized > 0 ? undefined : this.rowBytes;
  }

  /** Bytes of one chunk of raw data; undefined when a type's size is unknown. */
  chunkSize(): number | undefined {
    if (this.unsized > 0) return undefined;
    const total = this.plainBytes + (this.daqmx > 0 ? this.daqmxBytes : 0n);
    return total > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(total);
  }
}
