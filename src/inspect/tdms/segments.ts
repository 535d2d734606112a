/**
 * Walks the segments of a TDMS file (or of its `.tdms_index` file) and keeps, per object,
 * its merged properties, its last raw data index and the number of values the segments
 * hold. Raw data is skipped by offset and never read here: per segment, the 28-byte lead-in
 * and the metadata block are the only reads. A caller that wants the values (the row
 * reader, `raw.ts`) gets each segment's raw data layout through `onRawData`.
 *
 * Incremental metadata follows NI's rules: without kTocNewObjList a segment keeps the
 * previous object list and lists only new or changed objects; a raw data index of 0 means
 * "as in the previous segment"; properties may be added or changed in any later segment.
 */
import type { ByteSource } from '../byte-source.js';
import {
  type DaqmxIndex,
  parseMetadata,
  type RawIndex,
  type SegmentObject,
  TdmsFormatError,
  type TdmsProperty,
} from './metadata.js';
import { TDMS_TYPES } from './types.js';

export const TOC = {
  metaData: 1 << 1,
  newObjList: 1 << 2,
  rawData: 1 << 3,
  interleaved: 1 << 5,
  bigEndian: 1 << 6,
  daqmxRawData: 1 << 7,
} as const;

export const LEAD_IN = 28;
/** A metadata block larger than this is refused (memory stays bounded). */
export const MAX_METADATA = 64 * 1024 * 1024;
const ALL_ONES = 0xffff_ffff_ffff_ffffn;
/** The most metadata read ahead with a lead-in. */
const MAX_GUESS = 64 * 1024;

export interface ObjectState {
  path: string;
  properties: Map<string, TdmsProperty>;
  /** The last raw data index with data (plain or DAQmx). */
  index?: Extract<RawIndex, { kind: 'plain' | 'daqmx' }>;
  /** Values in all segments; undefined when a chunk size could not be known. */
  valueCount: number | undefined;
  /** Segments in which the object has data. */
  segments: number;
}

/** Something wrong after at least one good segment: the walk stops, what was read stands. */
export interface WalkProblem {
  kind: 'truncated' | 'invalid';
  message: string;
}

export interface WalkResult {
  objects: Map<string, ObjectState>;
  segments: number;
  versions: number[];
  interleaved: boolean;
  bigEndian: boolean;
  daqmx: boolean;
  /** The last segment was never finished (next-segment offset all ones). */
  unfinished: boolean;
  /** The data file position the walk reached (its size when every segment was read). */
  end: number;
  problems: WalkProblem[];
}

/** A fatal problem: nothing usable was read (the first lead-in or metadata is bad). */
export class TdmsWalkError extends Error {
  constructor(
    readonly kind: 'signature' | 'truncated' | 'invalid',
    message: string,
  ) {
    super(message);
  }
}

/** Reads through a window so that many small sequential reads become few (index files). */
class WindowReader {
  private start = 0;
  private buf: Uint8Array = new Uint8Array(0);
  constructor(
    private readonly source: ByteSource,
    private readonly window: number,
  ) {}
  async at(offset: number, length: number): Promise<Uint8Array> {
    if (this.window === 0) return this.source.read(offset, length);
    const end = offset + length;
    if (offset < this.start || end > this.start + this.buf.byteLength) {
      this.start = offset;
      this.buf = await this.source.read(offset, Math.max(length, this.window));
    }
    const from = offset - this.start;
    return this.buf.subarray(from, Math.min(this.buf.byteLength, from + length));
  }
}

interface LeadIn {
  toc: number;
  version: number;
  next: bigint;
  raw: bigint;
}

function parseLeadIn(b: Uint8Array, tag: string): LeadIn | string {
  const got = String.fromCharCode(b[0] ?? 0, b[1] ?? 0, b[2] ?? 0, b[3] ?? 0);
  if (got !== tag) return `no '${tag}' tag (found ${JSON.stringify(got)})`;
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  return {
    toc: v.getUint32(4, true),
    version: v.getUint32(8, true),
    next: v.getBigUint64(12, true),
    raw: v.getBigUint64(20, true),
  };
}

export interface WalkOptions {
  /** The `.tdms_index` file: lead-ins and metadata are read from it instead. */
  index?: ByteSource;
  /** Progress in bytes of the data file, every 1024 segments. */
  onProgress?: ((done: number, total: number) => void) | undefined;
  /** Each segment with raw data: where its data lies and the objects it holds, in order. */
  onRawData?: ((segment: RawSegment) => Promise<void>) | undefined;
}

/** Where a segment's raw data lies in the data file and which objects it holds, in order. */
export interface RawSegment {
  offset: number;
  length: number;
  interleaved: boolean;
  bigEndian: boolean;
  objects: Array<{ path: string; index: RawIndex }>;
}

/** Walks every segment; throws TdmsWalkError when not even the first segment is usable. */
export async function walkSegments(
  data: ByteSource,
  options: WalkOptions = {},
): Promise<WalkResult> {
  const walker: Walker = {
    data,
    meta: options.index ? new WindowReader(options.index, 1024 * 1024) : new WindowReader(data, 0),
    tag: options.index ? 'TDSh' : 'TDSm',
    options,
  };
  const metaSize = options.index ? options.index.size : data.size;
  const state = newWalk();
  let cursor: Cursor = { pos: 0, metaPos: 0, guess: 0, active: [] };
  while (cursor.pos < data.size && (!options.index || cursor.metaPos < metaSize)) {
    const next = await walkSegment(walker, state, cursor);
    cursor = next.cursor;
    if (next.stop) break;
    if (state.segments % 1024 === 0) options.onProgress?.(cursor.pos, data.size);
  }
  if (state.segments === 0 && !options.index) {
    throw new TdmsWalkError('signature', `no '${walker.tag}' tag (found "")`);
  }
  state.end = cursor.pos;
  return state;
}

/** What a walk reads from and reports to; the same for every segment. */
interface Walker {
  data: ByteSource;
  /** Where lead-ins and metadata are read: the index file, else the data file. */
  meta: WindowReader;
  /** The lead-in's tag: `TDSh` in an index file, `TDSm` in a data file. */
  tag: string;
  options: WalkOptions;
}

/** Where the walk stands before a segment. */
interface Cursor {
  /** The segment's offset in the data file. */
  pos: number;
  /** Its lead-in's offset in the file the metadata is read from. */
  metaPos: number;
  /**
   * Bytes of metadata read ahead with the lead-in. Streaming writers repeat the same
   * metadata block: reading the lead-in with as many bytes as the previous segment's
   * metadata makes one read per segment instead of two.
   */
  guess: number;
  /** The objects of the previous segment's list, with their raw data indexes. */
  active: Active[];
}

/**
 * Reads one segment: its lead-in, its metadata (applied to the walk's objects) and where its
 * raw data lies (handed to `onRawData`). Answers where the next segment starts, and whether
 * the walk stops here (a problem, an unfinished or cut segment).
 */
async function walkSegment(
  walker: Walker,
  state: WalkResult,
  cursor: Cursor,
): Promise<{ cursor: Cursor; stop: boolean }> {
  const { data, meta, options } = walker;
  const { pos, metaPos } = cursor;
  const stop = (problem: WalkProblem) => {
    segmentProblem(state, pos, problem);
    return { cursor, stop: true };
  };
  const leadIn = await readLeadIn(meta, cursor, walker.tag, state.segments === 0);
  if ('kind' in leadIn) return stop(leadIn);
  const { read, lead } = leadIn;
  const step = planSegment(lead, pos, data.size);
  if (typeof step === 'string') return stop({ kind: 'invalid', message: step });
  if (step.cut) {
    state.problems.push({
      kind: 'truncated',
      message: `segment ${state.segments + 1} (byte ${pos}): ${step.cut}`,
    });
  }
  let active = cursor.active;
  if (lead.toc & TOC.metaData) {
    const objects = await segmentObjects(meta, read, metaPos, step, lead);
    const applied = Array.isArray(objects)
      ? applyObjects(state, active, objects, (lead.toc & TOC.newObjList) !== 0)
      : objects;
    if (!Array.isArray(applied)) return stop(applied);
    active = applied;
  }
  const dataLength = (lead.toc & TOC.rawData) !== 0 ? step.dataLength : 0;
  noteSegment(state, lead, active, dataLength);
  if (options.onRawData && dataLength > 0) {
    await options.onRawData({
      offset: pos + LEAD_IN + step.metaLength,
      length: dataLength,
      interleaved: (lead.toc & TOC.interleaved) !== 0,
      bigEndian: (lead.toc & TOC.bigEndian) !== 0,
      objects: active.map((a) => ({ path: a.state.path, index: a.index })),
    });
  }
  const next: Cursor = {
    pos: step.end,
    // The index file holds lead-ins and metadata only; the data file also the raw data.
    metaPos: options.index ? metaPos + LEAD_IN + step.metaLength : step.end,
    guess: lead.toc & TOC.metaData ? Math.min(step.metaLength, MAX_GUESS) : 0,
    active,
  };
  return { cursor: next, stop: step.unfinished || Boolean(step.cut) };
}

/**
 * A segment's lead-in, with the bytes read ahead of its metadata; what is wrong with it
 * otherwise. A first segment without the tag is not TDMS at all (thrown).
 */
async function readLeadIn(
  meta: WindowReader,
  cursor: Cursor,
  tag: string,
  first: boolean,
): Promise<{ read: Uint8Array; lead: LeadIn } | WalkProblem> {
  const read = await meta.at(cursor.metaPos, LEAD_IN + cursor.guess);
  const head = read.subarray(0, LEAD_IN);
  const tagFound = Buffer.from(head.subarray(0, 4)).toString('latin1');
  if (tagFound !== tag && first) {
    throw new TdmsWalkError('signature', `no '${tag}' tag (found ${JSON.stringify(tagFound)})`);
  }
  if (head.byteLength < LEAD_IN) {
    return {
      kind: 'truncated',
      message: `the lead-in is cut short (${head.byteLength} of 28 bytes)`,
    };
  }
  const lead = parseLeadIn(head, tag);
  if (typeof lead === 'string') {
    if (first) throw new TdmsWalkError('signature', lead);
    return { kind: 'invalid', message: lead };
  }
  return { read, lead };
}

/**
 * A problem of the segment at `pos`: fatal in the first segment (nothing usable was read),
 * else noted and the walk stops with what was read.
 */
function segmentProblem(state: WalkResult, pos: number, problem: WalkProblem): void {
  const message = `segment ${state.segments + 1} (byte ${pos}): ${problem.message}`;
  if (state.segments === 0) throw new TdmsWalkError(problem.kind, message);
  state.problems.push({ kind: problem.kind, message });
}

/** A segment's metadata block, parsed; what is wrong with it otherwise. */
async function segmentObjects(
  meta: WindowReader,
  read: Uint8Array,
  at: number,
  step: SegmentPlan,
  lead: LeadIn,
): Promise<SegmentObject[] | WalkProblem> {
  const block =
    read.byteLength - LEAD_IN >= step.metaLength
      ? read.subarray(LEAD_IN, LEAD_IN + step.metaLength)
      : await meta.at(at + LEAD_IN, step.metaLength);
  if (block.byteLength < step.metaLength) {
    return {
      kind: 'truncated',
      message: `the metadata is cut short (${block.byteLength} of ${step.metaLength} bytes)`,
    };
  }
  try {
    return parseMetadata(block, (lead.toc & TOC.bigEndian) !== 0);
  } catch (err) {
    if (!(err instanceof TdmsFormatError)) throw err;
    return { kind: 'invalid', message: err.message };
  }
}

function newWalk(): WalkResult {
  return {
    objects: new Map(),
    segments: 0,
    versions: [],
    interleaved: false,
    bigEndian: false,
    daqmx: false,
    unfinished: false,
    end: 0,
    problems: [],
  };
}

interface SegmentPlan {
  metaLength: number;
  dataLength: number;
  end: number;
  unfinished: boolean;
  cut?: string;
}

/** Where a segment's metadata and data lie, from its lead-in; a message when impossible. */
function planSegment(lead: LeadIn, pos: number, size: number): SegmentPlan | string {
  if (lead.version !== 4712 && lead.version !== 4713) {
    return `version ${lead.version} is not a TDMS version (4712 or 4713)`;
  }
  const unfinished = lead.next === ALL_ONES;
  const start = BigInt(pos + LEAD_IN);
  if (lead.raw > BigInt(MAX_METADATA)) {
    return `a metadata block of ${lead.raw} bytes is larger than importkit reads (${MAX_METADATA})`;
  }
  if (!unfinished && lead.raw > lead.next) {
    return `the raw data offset (${lead.raw}) is past the next segment (${lead.next})`;
  }
  const metaLength = Number(lead.raw);
  const claimed = unfinished ? BigInt(size) : start + lead.next;
  const end = claimed > BigInt(size) ? size : Number(claimed);
  const plan: SegmentPlan = {
    metaLength,
    dataLength: Math.max(0, end - (pos + LEAD_IN + metaLength)),
    end,
    unfinished,
  };
  if (claimed > BigInt(size)) {
    plan.cut = `the segment says it ends at byte ${claimed}, but the file has ${size} bytes`;
  }
  return plan;
}

interface Active {
  state: ObjectState;
  /** The index in force for this segment ('none': no data here). */
  index: RawIndex;
}

/** Applies a segment's object list to the previous one; a message when an index cannot be resolved. */
function applyObjects(
  walk: WalkResult,
  previous: readonly Active[],
  objects: readonly SegmentObject[],
  newList: boolean,
): Active[] | WalkProblem {
  const list: Active[] = newList ? [] : [...previous];
  // Where each object sits in the list: a lookup per object, not a search of the list
  // (a segment of n new objects would otherwise cost n² comparisons).
  const place = new Map(list.map((a, i) => [a.state, i]));
  for (const o of objects) {
    let state = walk.objects.get(o.path);
    if (!state) {
      state = { path: o.path, properties: new Map(), valueCount: 0, segments: 0 };
      walk.objects.set(o.path, state);
    }
    for (const p of o.properties) state.properties.set(p.name, p);
    let index: RawIndex = o.index;
    if (index.kind === 'same') {
      if (!state.index) {
        return {
          kind: 'invalid',
          message: `${o.path}: the raw data index repeats a previous one, but there is none`,
        };
      }
      index = state.index;
    } else if (index.kind === 'plain' || index.kind === 'daqmx') {
      state.index = index;
    }
    const at = place.get(state);
    if (at !== undefined) list[at] = { state, index };
    else place.set(state, list.push({ state, index }) - 1);
  }
  return list;
}

/** Adds a segment's values to each object with data there. */
function noteSegment(
  walk: WalkResult,
  lead: LeadIn,
  active: readonly Active[],
  dataLength: number,
): void {
  walk.segments += 1;
  if (!walk.versions.includes(lead.version)) walk.versions.push(lead.version);
  if (lead.toc & TOC.interleaved) walk.interleaved = true;
  if (lead.toc & TOC.bigEndian) walk.bigEndian = true;
  if (lead.toc & TOC.daqmxRawData) walk.daqmx = true;
  if (lead.next === ALL_ONES) walk.unfinished = true;
  const withData = active.filter((a) => a.index.kind === 'plain' || a.index.kind === 'daqmx');
  if (withData.length === 0 || dataLength === 0) return;
  const chunk = chunkSize(withData);
  for (const a of withData) {
    a.state.segments += 1;
    const perChunk = valuesPerChunk(a.index);
    if (chunk === undefined || a.state.valueCount === undefined || chunk === 0) {
      a.state.valueCount = undefined;
      continue;
    }
    a.state.valueCount += perChunk * Math.floor(dataLength / chunk);
  }
}

function valuesPerChunk(index: RawIndex): number {
  if (index.kind === 'plain') return index.valueCount;
  if (index.kind === 'daqmx') return index.daqmx.valueCount;
  return 0;
}

/** Bytes of one chunk of a segment's raw data; undefined when a type's size is unknown. */
function chunkSize(active: readonly Active[]): number | undefined {
  let total = 0;
  let daqmx: DaqmxIndex | undefined;
  for (const a of active) {
    const index = a.index;
    if (index.kind === 'daqmx') {
      daqmx ??= index.daqmx;
      continue;
    }
    if (index.kind !== 'plain') continue;
    if (index.byteCount !== undefined) {
      total += index.byteCount;
      continue;
    }
    const size = TDMS_TYPES.get(index.typeCode)?.size;
    if (size === undefined) return undefined;
    total += size * index.valueCount;
  }
  if (daqmx) total += daqmx.valueCount * daqmx.rawDataWidths.reduce((s, w) => s + w, 0);
  return total;
}
