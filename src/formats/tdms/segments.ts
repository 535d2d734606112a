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
import type { ByteSource } from '../../inspect/shared.js';
import { type Active, ActiveList, type ObjectState, valueSize } from './active.js';
import { ALL_ONES, hasTag, LEAD_IN, type LeadIn, parseLeadIn, TOC, tagOf } from './lead-in.js';
import { parseMetadata, type RawIndex, type SegmentObject, TdmsFormatError } from './metadata.js';
import { resume, StartKeeper, type WalkStart } from './walk-starts.js';

export type { ObjectState } from './active.js';

/** A metadata block larger than this is refused (memory stays bounded). */
export const MAX_METADATA = 64 * 1024 * 1024;
/** The most metadata read ahead with a lead-in. */
const MAX_GUESS = 64 * 1024;

/** What is wrong with a segment. */
interface Problem {
  kind: 'truncated' | 'invalid';
  message: string;
}

/**
 * Something wrong after at least one good segment: the walk stops, what was read stands.
 * `readToEnd`: the segment itself was read, up to the end of the file (it is cut short);
 * otherwise the segments before it were read and it was not.
 */
export interface WalkProblem extends Problem {
  /** The segment (from 1) and its offset in the data file. */
  segment: number;
  offset: number;
  readToEnd: boolean;
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

export interface WalkOptions {
  /** The `.tdms_index` file: lead-ins and metadata are read from it instead. */
  index?: ByteSource;
  /**
   * Given, the walk puts in it starts spread over the file (at most MAX_STARTS, every
   * `stride` segments, the stride doubled when they are more), before the first segment too.
   */
  starts?: WalkStart[];
  /** Where the walk of the data file begins (not with `index`): at the first segment by default. */
  start?: WalkStart | undefined;
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
  /** The segment's number, from 1. */
  segment: number;
  /** Bytes of one chunk (undefined: a type's size is unknown). */
  chunk: number | undefined;
  /**
   * The objects with values here, in the order of their values, each with its number of
   * values in the segment (a last chunk cut short holds fewer; undefined: not known) and
   * its state in the walk, whose `seen` counts its values up to this segment's end.
   */
  objects: Array<{ path: string; index: RawIndex; count: number | undefined; state: ObjectState }>;
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
  let cursor: Cursor = options.start
    ? resumeAt(state, options.start)
    : { pos: 0, metaPos: 0, guess: 0, active: new ActiveList() };
  const starts = options.starts && new StartKeeper(options.starts);
  while (cursor.pos < data.size && (!options.index || cursor.metaPos < metaSize)) {
    starts?.before(state.segments, state.objects, cursor.active, cursor.pos);
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
  /** The last metadata block parsed, and its objects. */
  lastMetadata?: { block: Uint8Array; bigEndian: boolean; objects: SegmentObject[] };
  /** The objects applied last (applyOnce), with their kTocNewObjList and the list they changed. */
  lastApplied?:
    | { objects: readonly SegmentObject[]; newList: boolean; list: ActiveList }
    | undefined;
  /**
   * The last segment's values and the objects handed to `onRawData` for them: the same for
   * a segment of as much raw data laid out the same way, while the list stays as it is.
   */
  lastValues?: Laid | undefined;
}

/** A segment's values, and its objects as `onRawData` gets them, for a list and raw data length. */
interface Laid {
  list: ActiveList;
  interleaved: boolean;
  dataLength: number;
  values: SegmentValues[];
  objects: RawSegment['objects'];
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
  /** The object list in force, with each object's raw data index (changed in place). */
  active: ActiveList;
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
  const { pos, metaPos, active } = cursor;
  const stop = (problem: Problem) => {
    segmentProblem(state, pos, problem);
    return { cursor, stop: true };
  };
  const leadIn = await readLeadIn(meta, cursor, walker.tag, state.segments === 0);
  if ('kind' in leadIn) return stop(leadIn);
  const { read, lead } = leadIn;
  const step = planSegment(lead, pos, data.size);
  if (typeof step === 'string') return stop({ kind: 'invalid', message: step });
  if (lead.toc & TOC.metaData) {
    const objects = await segmentObjects(walker, read, metaPos, step, lead);
    const problem = Array.isArray(objects)
      ? applyOnce(walker, state, active, objects, (lead.toc & TOC.newObjList) !== 0)
      : objects;
    if (problem) return stop(problem);
  }
  if (step.cut) {
    const segment = state.segments + 1;
    state.problems.push({
      kind: 'truncated',
      message: step.cut,
      segment,
      offset: pos,
      readToEnd: true,
    });
  }
  const dataLength = (lead.toc & TOC.rawData) !== 0 ? step.dataLength : 0;
  const laid = layOut(walker, active, (lead.toc & TOC.interleaved) !== 0, dataLength);
  const values = noteSegment(state, lead, laid.values);
  if (options.onRawData && values.length > 0) {
    await options.onRawData({
      offset: pos + LEAD_IN + step.metaLength,
      length: dataLength,
      interleaved: laid.interleaved,
      bigEndian: (lead.toc & TOC.bigEndian) !== 0,
      segment: state.segments,
      chunk: active.chunkSize(),
      objects: laid.objects,
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
): Promise<{ read: Uint8Array; lead: LeadIn } | Problem> {
  const read = await meta.at(cursor.metaPos, LEAD_IN + cursor.guess);
  const head = read.subarray(0, LEAD_IN);
  if (first && !hasTag(head, tag)) {
    throw new TdmsWalkError('signature', `no '${tag}' tag (found ${JSON.stringify(tagOf(head))})`);
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
function segmentProblem(state: WalkResult, pos: number, problem: Problem): void {
  const segment = state.segments + 1;
  if (state.segments === 0) {
    throw new TdmsWalkError(problem.kind, `segment ${segment} (byte ${pos}): ${problem.message}`);
  }
  state.problems.push({ ...problem, segment, offset: pos, readToEnd: false });
}

/** A segment's metadata block, parsed; what is wrong with it otherwise. */
async function segmentObjects(
  walker: Walker,
  read: Uint8Array,
  at: number,
  step: SegmentPlan,
  lead: LeadIn,
): Promise<SegmentObject[] | Problem> {
  const block =
    read.byteLength - LEAD_IN >= step.metaLength
      ? read.subarray(LEAD_IN, LEAD_IN + step.metaLength)
      : await walker.meta.at(at + LEAD_IN, step.metaLength);
  if (block.byteLength < step.metaLength) {
    return {
      kind: 'truncated',
      message: `the metadata is cut short (${block.byteLength} of ${step.metaLength} bytes)`,
    };
  }
  const bigEndian = (lead.toc & TOC.bigEndian) !== 0;
  // A streaming writer repeats one metadata block: its objects, parsed once, serve again
  // (nothing changes them). Parsing it again (its paths decoded) was 14% of a full check
  // of 100,000 segments of 8 channels.
  const last = walker.lastMetadata;
  if (last && last.bigEndian === bigEndian && Buffer.from(block).equals(last.block)) {
    return last.objects;
  }
  try {
    const objects = parseMetadata(block, bigEndian);
    // A copy: the block is a view of a read buffer that the reads after it may reuse.
    walker.lastMetadata = { block: Uint8Array.from(block), bigEndian, objects };
    return objects;
  } catch (err) {
    if (!(err instanceof TdmsFormatError)) throw err;
    return { kind: 'invalid', message: err.message };
  }
}

/** The walk state and cursor before `start` (its segment and objects). */
function resumeAt(state: WalkResult, start: WalkStart): Cursor {
  const { objects, active } = resume(start);
  state.segments = start.segment - 1;
  for (const o of objects) state.objects.set(o.path, o);
  return { pos: start.pos, metaPos: start.pos, guess: 0, active };
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
  const { raw, next } = lead;
  // A number and a bigint compare as their values do; a bigint `raw` is past MAX_METADATA.
  if (typeof raw === 'bigint' || raw > MAX_METADATA) {
    return `a metadata block of ${raw} bytes is larger than importkit reads (${MAX_METADATA})`;
  }
  if (!unfinished && raw > next) {
    return `the raw data offset (${raw}) is past the next segment (${next})`;
  }
  const metaLength = raw;
  const start = pos + LEAD_IN;
  const claimed = unfinished
    ? size
    : typeof next === 'bigint'
      ? BigInt(start) + next
      : start + next;
  const end = claimed > size ? size : Number(claimed);
  const plan: SegmentPlan = {
    metaLength,
    dataLength: Math.max(0, end - (pos + LEAD_IN + metaLength)),
    end,
    unfinished,
  };
  if (claimed > size) {
    plan.cut = `it says it ends at byte ${claimed}, but the file has ${size} bytes`;
  }
  return plan;
}

/**
 * Applies a segment's object list, unless the segment before applied the same one (the same
 * parsed block, kTocNewObjList alike) to the same list: nothing has changed the list since,
 * and applying it again would change nothing. A logger that repeats its list of 5,000
 * objects in every segment had this walk each object's state again in every segment.
 */
function applyOnce(
  walker: Walker,
  walk: WalkResult,
  list: ActiveList,
  objects: readonly SegmentObject[],
  newList: boolean,
): Problem | undefined {
  const last = walker.lastApplied;
  if (last?.objects === objects && last.newList === newList && last.list === list) return undefined;
  walker.lastValues = undefined;
  const problem = applyObjects(walk, list, objects, newList);
  walker.lastApplied = problem ? undefined : { objects, newList, list };
  return problem;
}

/**
 * A segment's values (valueCounts) and the objects `onRawData` gets: those of the segment
 * before when its list, its raw data length and its layout are the same (the objects
 * handed over again, not made anew for every segment).
 */
function layOut(walker: Walker, list: ActiveList, interleaved: boolean, dataLength: number): Laid {
  const last = walker.lastValues;
  if (last?.list === list && last.interleaved === interleaved && last.dataLength === dataLength)
    return last;
  const values =
    dataLength === 0 || list.withDataCount === 0 ? [] : valueCounts(list, interleaved, dataLength);
  const objects = values.map((v) => ({
    path: v.active.state.path,
    index: v.active.index,
    count: v.count,
    state: v.active.state,
  }));
  walker.lastValues = { list, interleaved, dataLength, values, objects };
  return walker.lastValues;
}

/**
 * Applies a segment's object list to the list in force (in place); a problem when an index
 * cannot be resolved.
 */
function applyObjects(
  walk: WalkResult,
  list: ActiveList,
  objects: readonly SegmentObject[],
  newList: boolean,
): Problem | undefined {
  if (newList) list.clear();
  for (const o of objects) {
    let state = walk.objects.get(o.path);
    if (!state) {
      state = { path: o.path, properties: new Map(), valueCount: 0, seen: 0, segments: 0 };
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
    list.set(state, index);
  }
  return undefined;
}

/** An object with values in a segment, and how many (undefined: not known). */
interface SegmentValues {
  active: Active;
  count: number | undefined;
}

/**
 * Notes the segment's layout flags and adds its values (`counts`, from layOut) to each
 * object with values there; answers those objects (none: nothing to read in this segment).
 */
function noteSegment(walk: WalkResult, lead: LeadIn, counts: SegmentValues[]): SegmentValues[] {
  walk.segments += 1;
  if (!walk.versions.includes(lead.version)) walk.versions.push(lead.version);
  if (lead.toc & TOC.interleaved) walk.interleaved = true;
  if (lead.toc & TOC.bigEndian) walk.bigEndian = true;
  if (lead.toc & TOC.daqmxRawData) walk.daqmx = true;
  if (lead.next === ALL_ONES) walk.unfinished = true;
  for (const { active, count } of counts) {
    const state = active.state;
    state.segments += 1;
    state.seen += count ?? 0;
    state.valueCount =
      count === undefined || state.valueCount === undefined ? undefined : state.valueCount + count;
  }
  return counts;
}

/**
 * The values of each object in a segment's raw data: whole chunks (interleaved: whole
 * rows), then what a last, partial chunk holds, as npTDMS reads it (a segment cut short,
 * or an unfinished last one). The objects are visited only as far as the data reaches, so
 * a segment costs at most a visit per byte of its raw data (but for types of unknown size,
 * which no writer uses in practice: every object with data is visited).
 */
function valueCounts(list: ActiveList, interleaved: boolean, dataLength: number): SegmentValues[] {
  const row = interleaved ? list.rowSize() : undefined;
  if (row !== undefined && row > 0) {
    const rows = Math.floor(dataLength / row);
    return rows === 0 ? [] : list.withData().map((active) => ({ active, count: rows }));
  }
  const chunk = list.chunkSize();
  if (chunk === undefined || chunk === 0) {
    return list.withData().map((active) => ({ active, count: undefined }));
  }
  const chunks = Math.floor(dataLength / chunk);
  // Interleaved data of no fixed row size has no partial chunk one could lay out.
  let rest = interleaved ? 0 : dataLength - chunks * chunk;
  const out: SegmentValues[] = [];
  for (const active of list.withData()) {
    if (chunks === 0 && rest === 0) break;
    const per = valuesPerChunk(active);
    let count = per * chunks;
    if (rest > 0) {
      const part = partialValues(active.index, per, rest);
      count += part.values;
      rest = part.rest;
    }
    if (count > 0) out.push({ active, count });
  }
  return out;
}

/** The values of an object that `rest` bytes of a partial chunk hold, and the bytes left after them. */
function partialValues(
  index: RawIndex,
  per: number,
  rest: number,
): { values: number; rest: number } {
  const size = valueSize(index);
  const bytes =
    size !== undefined ? size * per : index.kind === 'plain' ? (index.byteCount ?? 0) : undefined;
  // Cut strings and DAQmx buffers cannot be read in part: nothing after them either.
  if (bytes === undefined || (rest < bytes && size === undefined)) return { values: 0, rest: 0 };
  if (rest >= bytes) return { values: per, rest: rest - bytes };
  return { values: Math.floor(rest / (size as number)), rest: 0 };
}

function valuesPerChunk(a: Active): number {
  if (a.index.kind === 'plain') return a.index.valueCount;
  if (a.index.kind === 'daqmx') return a.index.daqmx.valueCount;
  return 0;
}
