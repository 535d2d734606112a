/**
 * The values a TDMS check reads: of each channel a config imports, and of the time channel
 * timing it, every value with `full`, else the first and last values (SAMPLE each). They
 * are read segment by segment, a block or a part of a chunk at a time, by the inspect
 * stage's raw data reader (contiguous and interleaved layouts, strings, timestamps as ns),
 * and only the tallies stay (values/tally-time.ts, values/tally.ts): time going backwards,
 * repeated, NaN/±inf; NaN/±inf in a channel, values its declared integer type cannot hold,
 * ENUM values not in enumTypes. Each finding names its first row (1-based among the
 * channel's values) and the segment that row is in. Channels importkit does not decode
 * (DAQmx raw data, as the platform's own reader skips them; extended floats; fixed point)
 * and chunks whose raw data is not what the metadata says are reported, so the verdict
 * never claims values it did not read.
 */
import { type ByteSource, wholeFileOf } from '../../inspect/shared.js';
import type { ChannelDataType, TdmsConfig, TdmsDataEntry, TimeFormat } from '../../model/index.js';
import { type Issue, issue, pointer, pushAll } from '../../model/plain.js';
import {
  absoluteRangeIssue,
  type ChannelTally,
  type Chunk,
  channelJudge,
  channelValueIssues,
  HeadWatch,
  type JudgedChannel,
  jobsOf,
  newTimeState,
  readThroughTurns,
  type TimeState,
  type TimeTally,
  tallyTime,
  throughTurns,
  timeScaleIssue,
  timeValueIssues,
  type ValuePlace,
  type WorkerPool,
} from '../../values/index.js';
import { channelIndex } from './channel-index.js';
import { tdmsChannelTypeOf } from './channel-types.js';
import {
  readTdmsValues,
  readTdmsValuesInPieces,
  type TdmsChannelProfile,
  type TdmsProfile,
  type TdmsUnread,
  type TdmsValueRequest,
  type TdmsValues,
  type TdmsValuesAt,
  type TdmsValuesHandler,
  tdmsProperty,
} from './inspect.js';
import {
  type ReadPart,
  readTdmsParts,
  type SegmentRange,
  type TdmsPart,
  type TdmsPartInput,
} from './jobs.js';
import type { WalkStart } from './walk-starts.js';

/**
 * Values read from each end of a channel by the sampled check (its `reads` in formats/index.ts
 * says so).
 */
const SAMPLE = 10_000;

interface TdmsValueCheckOptions {
  full: boolean;
  onProgress?: ((done: number, total: number) => void) | undefined;
  /**
   * `full`: threads reading the file's segments (jobs.ts); default the cores, 1 reads
   * in this thread, as does a source that is not a whole file on disk.
   */
  jobs?: number | undefined;
  /** The workers of a read of several jobs, started before the file was inspected. */
  pool?: WorkerPool | undefined;
  /**
   * Where the inspection's walk noted a read may begin: the parts of several jobs begin
   * there, a sampled read skips through them.
   */
  starts?: WalkStart[] | undefined;
  /** Given, each time channel's tally is put in it by its channel's path (infer reads it). */
  times?: Map<string, TimeTally> | undefined;
}

/** A tally fed one channel's values: a time channel's or a judged channel's. */
export interface Tally {
  feed(chunk: Chunk, base: number): void;
  /** The tally's result, whose `first*` rows are given their segment as they are found. */
  result: object;
  /** Time tallies compare each value with the one before: a gap in what is read breaks that. */
  time?: TimeState;
  /** A part's time tally read in a worker: finds the value its join compares (tally-merge.ts). */
  watch?: HeadWatch;
  issues(place: ValuePlace): Issue[];
}

/** One channel (and component) read, and the tallies of its values (none: read, not judged). */
export interface Read {
  channel: TdmsChannelProfile;
  component?: 'real' | 'imaginary';
  /** Where findings about its values point: the first entry that reads it. */
  ptr: string;
  request: TdmsValueRequest;
  tallies: Tally[];
  /** The index of the value expected next (a jump: values were not read); -1: a part's first. */
  next: number;
  /** A part's first value read (jobs.ts). */
  first?: number;
  /** The segment of each first row a tally found. */
  segments: Map<number, number>;
}

/** Reads the values a config imports and returns the findings of their tallies. */
export async function tdmsValueIssues(
  source: ByteSource,
  config: TdmsConfig,
  key: string,
  profile: TdmsProfile,
  options: TdmsValueCheckOptions,
): Promise<Issue[]> {
  const reads = readsOf(config, key, profile, options.full);
  if (reads.length === 0) return [];
  const path = wholeFileOf(source);
  const jobs = options.full && path !== undefined ? jobsOf(options.jobs) : 1;
  const unread =
    jobs > 1 && path !== undefined && profile.segments > 1
      ? await readTdmsParts(
          { path, config, key, profile, starts: options.starts, jobs },
          reads,
          // A part read here beside the workers reads as they do: into two buffers that take turns.
          (range) =>
            readThroughTurns(path, (s) =>
              readTdmsPart(s, { path, config, key, profile, starts: options.starts }, range),
            ),
          options.onProgress,
          options.pool,
        )
      : await readInThisThread(source, reads, options);
  const file = source.name;
  const issues: Issue[] = [];
  for (const read of reads) {
    for (const t of read.tallies) {
      pushAll(issues, t.issues(placeOf(file, read, options.full)));
      if (t.time) options.times?.set(read.channel.path, t.time.tally);
    }
  }
  pushAll(issues, unreadIssues(file, unread, reads));
  return issues;
}

/**
 * Reads the values in this thread. A file on disk is read with blocking reads into two
 * buffers that take turns, as a part beside the workers is: a new buffer a read cost the
 * zeroing and page faults of 1 MiB a read. On bench/check-tdms (1 GB, one job, reads one
 * ahead, four alternated runs each): 0.80 to 0.88 s, against 0.94 to 1.02 s with a new
 * buffer a read. On a 1 GB file of 100,000 segments, a sampled check took 9.6 to 9.7 s
 * with awaited reads, 2.2 to 2.5 s with blocking ones. A sampled check reads in pieces
 * (read-pieces.ts: the last values from a walk start near them, 0.5 to 0.6 s), a full
 * check reads ahead (raw.ts `readAhead`).
 */
function readInThisThread(
  source: ByteSource,
  reads: readonly Read[],
  options: TdmsValueCheckOptions,
): Promise<TdmsUnread[]> {
  const requests = reads.map((r) => r.request);
  const onValues: TdmsValuesHandler = (r, values, at) => feed(reads[r] as Read, values, at);
  const progress = options.onProgress ? { onProgress: options.onProgress } : {};
  return throughTurns(source, (s) =>
    options.full
      ? readTdmsValues(s, requests, onValues, { readAhead: true, ...progress })
      : readTdmsValuesInPieces(s, requests, onValues, options.starts ?? [], progress),
  );
}

/**
 * Reads the values of segments [from, to) in tallies of their own (a worker's share of
 * readTdmsParts): each time tally notes the value the join compares with the range before.
 */
export async function readTdmsPart(
  source: ByteSource,
  input: TdmsPartInput,
  segments: SegmentRange,
): Promise<TdmsPart> {
  const reads = readsOf(input.config, input.key, input.profile, true);
  for (const read of reads) {
    read.next = -1;
    for (const t of read.tallies) if (t.time) t.watch = new HeadWatch();
  }
  let end = 0;
  const unread = await readTdmsValues(
    source,
    reads.map((r) => r.request),
    (r, values, at) => feed(reads[r] as Read, values, at),
    {
      segments,
      start: input.starts?.find((s) => s.segment === segments[0]),
      readAhead: true,
      onProgress: (done) => (end = Math.max(end, done)),
      blockBytes: input.blockBytes,
    },
  );
  const parts = reads.map(
    (read): ReadPart => ({
      ...(read.first === undefined ? {} : { first: read.first }),
      next: read.next,
      tallies: read.tallies.map((t) =>
        t.time && t.watch ? { time: t.watch.part(t.time) } : { channel: t.result as ChannelTally },
      ),
      segments: [...read.segments],
    }),
  );
  return { reads: parts, unread, end };
}

/**
 * What a config makes the check read: per entry, its time channel (once per channel, when
 * the platform reads it as times) and its channel (once per channel and component), each
 * with the tallies judging its values. Every channel the config imports is read, judged or
 * not (a string channel's chunks are checked too).
 */
export function readsOf(
  config: TdmsConfig,
  key: string,
  profile: TdmsProfile,
  full: boolean,
): Read[] {
  const reads = new Map<string, Read>();
  const readOf = (channel: TdmsChannelProfile, ptr: string, component?: 'real' | 'imaginary') => {
    const id = `${component ?? ''} ${channel.path}`;
    let read = reads.get(id);
    if (!read) {
      const request: TdmsValueRequest = {
        path: channel.path,
        ranges: rangesOf(channel.valueCount ?? 0, full),
        as: 'typed',
        ...(component ? { component } : {}),
      };
      read = { channel, ptr, request, tallies: [], next: 0, segments: new Map() };
      if (component) read.component = component;
      reads.set(id, read);
    }
    return read;
  };
  const { find } = channelIndex(profile);
  const explicit = (config.data ?? []).length > 0;
  const timed = new Set<string>();
  importedEntries(config, profile).forEach((e, i) => {
    const at = (...t: Array<string | number>) =>
      explicit ? pointer(key, 'data', i, ...t) : pointer(key, 'data');
    const time = e.timeChannelName ? find(e.groupName, e.timeChannelName) : undefined;
    if (time && readsAsTime(time, config) && !timed.has(time.path)) {
      timed.add(time.path);
      const ptr = at('timeChannelName');
      const dates: DatesJudged['dates'] | undefined =
        time.dataType === 'timestamp' ? 'timestamps' : config.timeFormat;
      const judged = dates && {
        dates,
        ptr: dates === 'timestamps' ? ptr : pointer(key, 'timeFormat'),
        label: `'${time.group}/${time.name}'`,
      };
      readOf(time, ptr).tallies.push(timeTally(ptr, judged));
    }
    const channel = find(e.groupName, e.channelName);
    if (!channel || channel.dataType === 'none') return;
    const complex = channel.dataType.startsWith('complex');
    const imaginary = e.complexComponent === 'TDMS_COMPLEX_COMPONENT_IMAGINARY';
    const read = readOf(
      channel,
      at('channelConfig'),
      complex ? (imaginary ? 'imaginary' : 'real') : undefined,
    );
    const judged = judgedChannel(e, channel);
    if (judged) read.tallies.push(channelTally(channel, judged, at('channelConfig')));
  });
  return [...reads.values()].filter((r) => r.request.ranges.length > 0);
}

/**
 * The entries a config imports: its own, or (empty `data`) every channel with data, timed
 * by its waveform properties or its group's timestamp channel (as the platform imports it).
 */
function importedEntries(config: TdmsConfig, profile: TdmsProfile): TdmsDataEntry[] {
  if ((config.data ?? []).length > 0) return config.data ?? [];
  const { stampOf } = channelIndex(profile);
  return profile.channels
    .filter((c) => c.dataType !== 'none' && c.name !== stampOf(c.group))
    .map((c) => {
      const waveform = tdmsProperty(c.properties, 'wf_increment') !== undefined;
      const time = waveform ? undefined : stampOf(c.group);
      return {
        groupName: c.group,
        channelName: c.name,
        ...(time ? { timeChannelName: time } : {}),
      };
    });
}

/** A time channel the platform reads as times: timestamps, or numbers in the config's timeFormat. */
function readsAsTime(time: TdmsChannelProfile, config: TdmsConfig): boolean {
  if (time.dataType === 'timestamp') return true;
  return /^(i|u)(8|16|32|64)$|^f(32|64)(-unit)?$/.test(time.dataType) && !!config.timeFormat;
}

/**
 * How an entry's values are judged: by its declared type (else the stored one's), when the
 * channel holds numbers; undefined for text (a TDMS string channel holds no ENUM keys).
 */
function judgedChannel(e: TdmsDataEntry, c: TdmsChannelProfile): JudgedChannel | undefined {
  const stored = tdmsChannelTypeOf(c);
  if ('skip' in stored || c.dataType === 'string') return undefined;
  const declared = e.channelConfig?.dataType;
  const dataType: ChannelDataType =
    declared && declared !== 'CHANNEL_DATA_TYPE_UNSPECIFIED' ? declared : stored.dataType;
  const enumTypes = e.channelConfig?.enumTypes;
  return { dataType, ...(enumTypes ? { enumTypes } : {}) };
}

function channelTally(channel: TdmsChannelProfile, judged: JudgedChannel, ptr: string): Tally {
  const judge = channelJudge(judged);
  const stored = tdmsChannelTypeOf(channel);
  const storedType = 'skip' in stored ? judged.dataType : stored.dataType;
  return {
    feed: (chunk, base) => judge.tally(chunk, base),
    result: judge.result,
    issues: (place) => channelValueIssues({ ...judged, ptr }, judge.result, place, storedType),
  };
}

/**
 * How a time channel's dates are judged: a timestamp channel's, or numbers in the config's
 * `timeFormat`; where the finding goes (`ptr`), and the channel as messages name it.
 */
interface DatesJudged {
  dates: 'timestamps' | TimeFormat;
  ptr: string;
  label: string;
}

/** A time channel's tally; the dates its least and greatest values read as are judged too. */
function timeTally(ptr: string, judged: DatesJudged | undefined): Tally {
  const state = newTimeState();
  return {
    feed: (chunk, base) => tallyTime(state, chunk, base),
    result: state.tally,
    time: state,
    issues: (place) => {
      const found = timeValueIssues(state.tally, ptr, place);
      const range = judged && datesIssue(state.tally, judged, place);
      return range ? [...found, range] : found;
    },
  };
}

/** The ends of the ns since 1970 a timestamp is held at when 64 bits cannot hold it (decode.ts). */
const HELD_LEAST = -(2n ** 63n);
const HELD_MOST = 2n ** 63n - 1n;

/**
 * The dates of the times read, judged as a CSV, Parquet or HDF5 check judges them (values/
 * time.ts). Timestamps outside the plausible dates are `time_out_of_range`: a time channel
 * left at TDMS's epoch (a timestamp of 0 is 1904-01-01) imports, at dates nobody looks for.
 * Numbers are judged in their format: a unix unit that puts them outside those dates is
 * `time_wrong_unit` (another fits) or `time_out_of_range`, and relative times that look
 * like unix times are `time_looks_absolute`.
 */
function datesIssue(t: TimeTally, judged: DatesJudged, place: ValuePlace): Issue | undefined {
  if (t.min === undefined || t.max === undefined) return undefined;
  const { dates, ptr, label } = judged;
  const { row: _, ...source } = place.at(1).source;
  const within = place.within ?? '';
  const at = {
    subject: place.time,
    // The sampled check's words go after the range read when a message gives it.
    of: dates === 'timestamps' ? `${label}${within}` : label,
    field: 'timeFormat',
    ptr,
    source,
    read: `${t.min} to ${t.max}${within === '' ? '' : ', of the values read'}`,
  };
  if (dates !== 'timestamps') return timeScaleIssue([String(t.min), String(t.max)], dates, at);
  if (typeof t.min !== 'bigint' || typeof t.max !== 'bigint') return undefined;
  const found = absoluteRangeIssue(Number(t.min / 1_000_000n), Number(t.max / 1_000_000n), at);
  if (!found || (t.min !== HELD_LEAST && t.max !== HELD_MOST)) return found;
  return {
    ...found,
    message: `${found.message} (times before 1677 or after 2262 are counted at those dates)`,
  };
}

/** Every value, or the first and last SAMPLE values. */
function rangesOf(n: number, full: boolean): Array<[number, number]> {
  if (n <= 0) return [];
  if (full || n <= 2 * SAMPLE) return [[0, n]];
  return [
    [0, SAMPLE],
    [n - SAMPLE, n],
  ];
}

/** Feeds one piece of a channel's values to its tallies, noting the segment of each first row found. */
export function feed(read: Read, values: TdmsValues, at: TdmsValuesAt): void {
  const chunk: Chunk = Array.isArray(values)
    ? { length: values.length, text: (i) => values[i] as string }
    : { length: values.length, numbers: values };
  if (read.next === -1) {
    read.first = at.index;
    read.next = at.index;
  }
  for (const t of read.tallies) {
    // A gap (the sampled check's middle, a chunk not read): no order across it.
    if (t.time && at.index !== read.next) {
      t.time.prev = undefined;
      t.watch?.gap();
    }
    t.feed(chunk, at.index);
    placeFirstRows(read, t.result, at.segment);
    const head = t.watch && t.time ? t.watch.after(t.time, chunk, at.index) : undefined;
    if (head) read.segments.set(head.row, at.segment);
  }
  read.next = at.index + values.length;
}

/**
 * Places each first row a tally has found (its `first*` fields) in `segment`, unless placed
 * already: a row is found in the piece that holds it, and placed then. Once a piece, for
 * every tally: a list of the rows before and after each piece (two arrays and a search)
 * cost 14% of a full check of 100,000 small segments.
 */
function placeFirstRows(read: Read, result: object, segment: number): void {
  const fields = result as Record<string, unknown>;
  for (const k in fields) {
    const row = fields[k];
    if (typeof row === 'number' && k.startsWith('first') && !read.segments.has(row)) {
      read.segments.set(row, segment);
    }
  }
}

function labelOf(read: Read): string {
  const c = read.channel;
  return `'${c.group}/${c.name}'${read.component === 'imaginary' ? ' (imaginary part)' : ''}`;
}

/** How findings name a channel's values and rows: 1-based among its values, with their segment. */
function placeOf(file: string, read: Read, full: boolean): ValuePlace {
  const sampled = full ? '' : ' (in the values read)';
  return {
    label: `channel ${labelOf(read)}${sampled}`,
    time: `the time of ${labelOf(read)}${sampled}`,
    within: sampled,
    at: (row) => {
      const segment = read.segments.get(row);
      return {
        text: `row ${row}${segment === undefined ? '' : ` (segment ${segment})`}`,
        source: { file, dataset: read.channel.path, row },
      };
    },
  };
}

/** What was not read: channels not decoded (a warning), chunks not what the metadata says (an error). */
function unreadIssues(
  file: string,
  unread: readonly TdmsUnread[],
  reads: readonly Read[],
): Issue[] {
  return unread.map((u) => {
    const read = reads.find((x) => x.channel.path === u.path);
    const name = read ? labelOf(read) : u.path;
    const ptr = read?.ptr ?? '';
    const source = { file, dataset: u.path };
    if (u.kind === 'undecoded') {
      return issue(
        'tdms_values_not_read',
        ptr,
        `the values of channel ${name} were not read: ${u.reason}`,
        { source },
      );
    }
    return issue(
      'tdms_raw_data_invalid',
      ptr,
      `channel ${name}, segment ${u.segment}: ${u.reason}; the values of that chunk were not read`,
      { source, hint: 'The file is damaged there: write or copy it again.' },
    );
  });
}
