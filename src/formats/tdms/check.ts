/**
 * Checks a TdmsConfig against a TDMS file. From its metadata: every group, channel and time
 * channel the config names exists (with "did you mean"), time channels hold times (a
 * timestamp channel, or a numeric one with `timeFormat`), channels without a time channel
 * carry waveform properties or a fallback that skips them, declared channel types fit the
 * stored types, and `complexComponent` goes with complex channels. From its values (the
 * first and last of each channel it imports, every value with `full`: formats/tdms/values.ts):
 * times going backwards or repeating, NaN/±inf, values outside the declared type.
 */

import { fitOf } from '../../check/shared.js';
import {
  type ByteSource,
  openFileSource,
  throughSource,
  wholeFileOf,
} from '../../inspect/shared.js';
import type { TdmsConfig, TdmsDataEntry } from '../../model/index.js';
import { type Issue, issue, pointer, pushAll } from '../../model/plain.js';
import { suggestClosest as closest, didYouMean, notFoundHint } from '../../validate/index.js';
import {
  jobsOf,
  shortName,
  type WorkerPool,
  withoutRestatedTypeIssues,
} from '../../values/index.js';
import { type ChannelIndex, channelIndex } from './channel-index.js';
import { tdmsChannelTypeOf } from './channel-types.js';
import { everythingIssue, isWaveform } from './everything.js';
import { inspectTdmsSource, type TdmsChannelProfile, type TdmsProfile } from './inspect.js';
import { startTdmsWorkers } from './jobs.js';
import { tdmsValueIssues } from './values.js';
import type { WalkStart } from './walk-starts.js';
import { waveformTimeIssues } from './waveform-time.js';

export interface TdmsCheckOptions {
  /** The config's key in the document (`tdmsConfig`, or a batch entry's path). */
  key?: string;
  /** Read every value of the channels the config imports (else the first and last of each). */
  full?: boolean;
  /** Progress of the values read, in bytes of the file. */
  onProgress?: ((done: number, total: number) => void) | undefined;
  /** `full`: threads reading the segments (default 1: this thread). */
  jobs?: number | undefined;
}

/**
 * The profile of a TDMS source, walking its index (`<file>.tdms_index`, beside a file on disk)
 * when there is one, as inspectTdms does; an archive's member is walked through its data.
 * `full`: every value is read after, so the walk reads ahead (inspect.ts `readAhead`);
 * `starts` gets where the parts of several jobs may begin.
 */
async function tdmsProfile(
  source: ByteSource,
  full: boolean,
  starts?: WalkStart[],
): Promise<TdmsProfile> {
  const file = wholeFileOf(source);
  const index =
    file === undefined ? undefined : await openFileSource(`${file}_index`).catch(() => undefined);
  try {
    return await inspectTdmsSource(source, index, { starts, readAhead: full });
  } finally {
    await index?.close();
  }
}

interface Ctx {
  config: TdmsConfig;
  profile: TdmsProfile;
  /** The file's groups and channels by name, built once: each entry is looked up, not searched. */
  index: ProfileIndex;
  file: string;
  at: (...t: Array<string | number>) => string;
  issues: Issue[];
}

/**
 * Lookups the entries make, each one a map read (a search per entry made a check of n
 * channels n²): a channel by group and name and a group's timestamp channel (channelIndex),
 * and what the hints name.
 */
interface ProfileIndex extends ChannelIndex {
  groups: Set<string>;
  /** A group's channel names, in file order. */
  namesIn: Map<string, string[]>;
  /** The first channel of each name, whatever its group. */
  byName: Map<string, TdmsChannelProfile>;
}

function indexProfile(profile: TdmsProfile): ProfileIndex {
  const index: ProfileIndex = {
    ...channelIndex(profile),
    groups: new Set(profile.groups.map((g) => g.name)),
    namesIn: new Map(),
    byName: new Map(),
  };
  for (const c of profile.channels) {
    const names = index.namesIn.get(c.group);
    if (names) names.push(c.name);
    else index.namesIn.set(c.group, [c.name]);
    if (!index.byName.has(c.name)) index.byName.set(c.name, c);
  }
  return index;
}

/**
 * Checks a TdmsConfig against its TDMS file (its path) or source (issues name the source);
 * throws InspectError when the file cannot be read.
 */
export async function checkTdms(
  config: TdmsConfig,
  data: string | ByteSource,
  options: TdmsCheckOptions = {},
): Promise<Issue[]> {
  const key = options.key ?? 'tdmsConfig';
  return throughSource(data, (source) => checkTdmsSource(config, source, key, options));
}

async function checkTdmsSource(
  config: TdmsConfig,
  source: ByteSource,
  key: string,
  options: TdmsCheckOptions,
): Promise<Issue[]> {
  // Workers of a read on several cores load while the file is inspected.
  const jobs = jobsOf(options.jobs);
  const early = options.full === true && jobs > 1 && wholeFileOf(source) !== undefined;
  const pool = early ? startTdmsWorkers(jobs) : undefined;
  try {
    return await checkTdmsWith(config, source, key, options, pool);
  } finally {
    // Closed by the read that used it; a check that read no values closes it here.
    await pool?.close();
  }
}

async function checkTdmsWith(
  config: TdmsConfig,
  source: ByteSource,
  key: string,
  options: TdmsCheckOptions,
  pool: WorkerPool | undefined,
): Promise<Issue[]> {
  // Where the inspection's walk noted a read may begin: the parts of a read on several
  // cores begin there, and a sampled read skips from its first values to near its last.
  const starts: WalkStart[] = [];
  const profile = await tdmsProfile(source, options.full === true, starts);
  const ctx: Ctx = {
    config,
    profile,
    index: indexProfile(profile),
    file: source.name,
    at: (...t) => pointer(key, ...t),
    issues: profile.issues.filter((i) => i.severity === 'warning'),
  };
  const entries = config.data ?? [];
  const used = new Set<string>();
  const waveforms: TdmsChannelProfile[] = [];
  entries.forEach((entry, i) => {
    const channel = checkEntry(ctx, entry, i);
    if (channel) used.add(channel.path);
    if (channel && !entry.timeChannelName && isWaveform(channel)) waveforms.push(channel);
  });
  if (entries.length === 0) {
    checkEverything(ctx);
    for (const c of profile.channels) if (c.dataType !== 'none' && isWaveform(c)) waveforms.push(c);
  }
  const at = { start: ctx.at('startTimeOverride'), data: ctx.at('data') };
  pushAll(ctx.issues, waveformTimeIssues(config, waveforms, profile.properties, at, ctx.file));
  if (entries.length > 0) leftOut(ctx, entries, used);
  const read = {
    full: options.full === true,
    onProgress: options.onProgress,
    jobs: options.jobs,
    pool,
    starts,
  };
  pushAll(ctx.issues, await tdmsValueIssues(source, config, key, profile, read));
  return withoutRestatedTypeIssues(ctx.issues);
}

/** `column_not_in_config` for each channel of the file that no entry imports or times. */
function leftOut(ctx: Ctx, entries: readonly TdmsDataEntry[], used: ReadonlySet<string>): void {
  const times = new Set(
    entries
      .filter((e) => e.groupName !== undefined && e.timeChannelName !== undefined)
      .map((e) => `${e.groupName}\u0000${e.timeChannelName}`),
  );
  for (const c of ctx.profile.channels) {
    if (used.has(c.path) || times.has(`${c.group}\u0000${c.name}`)) continue;
    ctx.issues.push(
      issue(
        'column_not_in_config',
        ctx.at('data'),
        `channel '${c.group}/${c.name}' is in the file but not in the config: it will not be imported`,
        { source: { file: ctx.file, dataset: c.path } },
      ),
    );
  }
}

/** One data entry: its group, channel, time and type; the channel when found. */
function checkEntry(ctx: Ctx, entry: TdmsDataEntry, i: number): TdmsChannelProfile | undefined {
  const { profile, index, file } = ctx;
  const groupName = entry.groupName ?? '';
  if (!index.groups.has(groupName)) {
    const names = profile.groups.map((g) => g.name);
    ctx.issues.push(
      issue(
        'tdms_group_not_in_file',
        ctx.at('data', i, 'groupName'),
        `group '${groupName}' is not in the file`,
        {
          hint: notFoundHint(groupName, names, "The file's groups"),
          source: { file },
        },
      ),
    );
    return undefined;
  }
  const channelName = entry.channelName ?? '';
  const channel = index.find(groupName, channelName);
  if (!channel) {
    ctx.issues.push(
      issue(
        'tdms_channel_not_in_file',
        ctx.at('data', i, 'channelName'),
        `channel '${channelName}' is not in group '${groupName}'`,
        { hint: channelHint(index, groupName, channelName), source: { file } },
      ),
    );
    return undefined;
  }
  checkTime(ctx, entry, channel, i);
  checkType(ctx, entry, channel, i);
  return channel;
}

function channelHint(index: ProfileIndex, group: string, name: string): string {
  const inGroup = index.namesIn.get(group) ?? [];
  const near = closest(name, inGroup);
  const elsewhere = index.byName.get(name);
  if (!near && elsewhere) return `Group '${elsewhere.group}' has a channel '${name}'.`;
  return notFoundHint(name, inGroup, "The group's channels", near);
}

const NUMERIC = /^(i|u)(8|16|32|64)$|^f(32|64)(-unit)?$|^extended/;

/** The time channel exists and holds times, or the channel is a waveform (or skipped by the fallback). */
function checkTime(ctx: Ctx, entry: TdmsDataEntry, channel: TdmsChannelProfile, i: number): void {
  const { file } = ctx;
  const timeName = entry.timeChannelName ?? '';
  if (timeName === '') {
    if (isWaveform(channel)) return;
    const ignore = ctx.config.fallbackMethod === 'TDMS_FALLBACK_METHOD_IGNORE_ERROR';
    ctx.issues.push(
      issue(
        ignore ? 'tdms_channel_will_be_skipped' : 'tdms_waveform_missing',
        ctx.at('data', i),
        `channel '${channel.group}/${channel.name}' has no timeChannelName and no waveform properties (wf_start_time, wf_increment)${ignore ? ': the platform skips it' : ''}`,
        { hint: timeHint(ctx.index, channel.group), source: { file } },
      ),
    );
    return;
  }
  const time = ctx.index.find(channel.group, timeName);
  const ptr = ctx.at('data', i, 'timeChannelName');
  if (!time) {
    const near = closest(timeName, ctx.index.namesIn.get(channel.group) ?? []);
    ctx.issues.push(
      issue(
        'tdms_time_channel_not_in_file',
        ptr,
        `time channel '${timeName}' is not in group '${channel.group}'`,
        {
          hint: near ? didYouMean(near) : timeHint(ctx.index, channel.group),
          source: { file },
        },
      ),
    );
    return;
  }
  if (time.dataType === 'timestamp') return;
  if (NUMERIC.test(time.dataType) && ctx.config.timeFormat !== undefined) return;
  ctx.issues.push(
    issue(
      'tdms_time_channel_not_time',
      ptr,
      NUMERIC.test(time.dataType)
        ? `time channel '${timeName}' is numeric (${time.dataType}), but the config sets no timeFormat`
        : `time channel '${timeName}' holds ${time.dataType} values, not times`,
      {
        hint: NUMERIC.test(time.dataType)
          ? 'Set timeFormat (RELATIVE_SECONDS ...) and relativeStartTime.'
          : timeHint(ctx.index, channel.group),
        source: { file },
      },
    ),
  );
}

function timeHint(index: ProfileIndex, group: string): string {
  const stamp = index.stampOf(group);
  return stamp
    ? `Group '${group}' has the timestamp channel '${stamp}'.`
    : `Group '${group}' has no timestamp channel; give a numeric time channel with timeFormat, or drop the entry.`;
}

/** The declared type fits the stored one; complexComponent only on complex channels. */
function checkType(ctx: Ctx, entry: TdmsDataEntry, channel: TdmsChannelProfile, i: number): void {
  const { file } = ctx;
  const complex = channel.dataType.startsWith('complex');
  if (entry.complexComponent !== undefined && !complex) {
    ctx.issues.push(
      issue(
        'tdms_complex_component_unexpected',
        ctx.at('data', i, 'complexComponent'),
        `complexComponent is set, but channel '${channel.name}' is ${channel.dataType}, not complex`,
        { source: { file } },
      ),
    );
  }
  const declared = entry.channelConfig?.dataType;
  if (!declared || declared === 'CHANNEL_DATA_TYPE_UNSPECIFIED') return;
  const actual = tdmsChannelTypeOf(channel);
  if ('skip' in actual) return;
  const fit = fitOf(declared, actual.dataType);
  if (fit === 'ok') return;
  const code =
    fit === 'mismatch'
      ? 'value_type_mismatch'
      : fit === 'wide'
        ? 'type_too_wide'
        : 'type_too_narrow';
  ctx.issues.push(
    issue(
      code,
      ctx.at('data', i, 'channelConfig', 'dataType'),
      `channel '${channel.name}' stores ${channel.dataType} (${shortName(actual.dataType)}), declared ${shortName(declared)}`,
      { hint: `Declare ${actual.dataType}.`, source: { file, dataset: channel.path } },
    ),
  );
}

/** Empty `data` imports every channel: each must be timed unless the fallback skips it. */
function checkEverything(ctx: Ctx): void {
  const found = everythingIssue(ctx.profile, ctx.config.fallbackMethod, ctx.at('data'), ctx.file);
  if (found) ctx.issues.push(found);
}
