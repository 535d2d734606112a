/**
 * A TDMS profile → a draft TdmsConfig. Every channel with data becomes a data entry with
 * its channel config (type by the platform's table, units from `unit_string`, description).
 * Timing, per channel: waveform properties (`wf_start_time` + `wf_increment`, no time
 * channel), else the group's timestamp-typed channel, else a numeric channel of the group
 * named or united as time (relative: `timeFormat` and `relativeStartTime`). Channels with
 * none of these are named in an issue. Pure functions of the profile plus options, but for
 * `inferTdms`, which inspects the file first.
 */
import { basename, extname } from 'node:path';
import type { Draft, Evidence, InferOptions, TdmsNames } from '../../infer/shared.js';
import {
  readsWhole,
  relativeFormatFromUnit,
  timeNameScore,
  unitFromName,
} from '../../infer/shared.js';
import { type ByteSource, openFileSource } from '../../inspect/shared.js';
import type {
  ChannelConfig,
  ChannelDataType,
  TdmsConfig,
  TdmsDataEntry,
  TimeFormat,
} from '../../model/index.js';
import { type Issue, issue, parseTimeFormatName, pushAll } from '../../model/plain.js';
import { shortName, type TimeTally, unixUnitOfLarge } from '../../values/index.js';
import { channelIndex } from './channel-index.js';
import { tdmsChannelTypeOf as channelTypeOf, type TdmsTypeChoice } from './channel-types.js';
import { everythingIssue, isWaveform } from './everything.js';
import {
  inspectTdms,
  inspectTdmsSource,
  type TdmsChannelProfile,
  type TdmsGroupProfile,
  type TdmsProfile,
  tdmsProperty,
} from './inspect.js';
import { tdmsValueIssues } from './values.js';
import type { WalkStart } from './walk-starts.js';
import { someChannels, startProperty, waveformTimeIssues } from './waveform-time.js';

const P = '/tdmsConfig';

/**
 * Inspects a TDMS file and infers its draft (not yet validated: `inferConfig` does that),
 * with the findings in the values the draft imports.
 */
export async function inferTdms(path: string, options: InferOptions = {}): Promise<Draft> {
  const progress = options.onProgress ? { onProgress: options.onProgress } : {};
  // Where the walk may begin: the read of the last values skips there (read-pieces.ts).
  const starts: WalkStart[] = [];
  const profile = await inspectTdms(path, { ...progress, starts });
  const source = await openFileSource(path);
  try {
    return await draftWithValues(source, profile, options, starts);
  } finally {
    await source.close();
  }
}

/** The draft of a batch member's TDMS bytes, with the findings in its values. */
export async function inferTdmsSource(source: ByteSource, options: InferOptions): Promise<Draft> {
  const starts: WalkStart[] = [];
  const profile = await inspectTdmsSource(source, undefined, { starts });
  return draftWithValues(source, profile, options, starts);
}

/**
 * The draft of a profile, and what reading the values it imports finds: as check's sampled
 * mode reads them (the first and last values of each channel), every value of a small file.
 */
async function draftWithValues(
  source: ByteSource,
  profile: TdmsProfile,
  options: InferOptions,
  starts: WalkStart[],
): Promise<Draft> {
  const full = readsWhole(source.size, options);
  const times = new Map<string, TimeTally>();
  let draft = draftFromTdmsProfile(profile, options);
  let config = draft.document.tdmsConfig as TdmsConfig;
  let found = await tdmsValueIssues(source, config, 'tdmsConfig', profile, {
    full,
    times,
    starts,
  });
  // Relative times that are unix times (no unit says which): drafted in the unix unit they
  // fit, and their values read again as that draft reads them (a second read of what the
  // first read: the first and last values, or a small file).
  const unix = options.timeFormat === undefined ? unixTimeOf(config, profile, times) : undefined;
  if (unix) {
    draft = draftFromTdmsProfile(profile, options, unix);
    config = draft.document.tdmsConfig as TdmsConfig;
    found = await tdmsValueIssues(source, config, 'tdmsConfig', profile, { full, starts });
  }
  pushAll(draft.issues, found);
  return draft;
}

/** A time format chosen from the values read, and why. */
interface ChosenFormat {
  format: TimeFormat;
  reason: string;
}

/**
 * The unix unit of the numeric time channel of the draft's first timed entry, when the
 * draft reads it as relative times and its values read fit that unit (values/time.ts
 * `unixUnitOfLarge`, what check's `time_looks_absolute` says).
 */
function unixTimeOf(
  config: TdmsConfig,
  profile: TdmsProfile,
  times: ReadonlyMap<string, TimeTally>,
): ChosenFormat | undefined {
  if (!config.timeFormat?.startsWith('TIME_FORMAT_RELATIVE_')) return undefined;
  const { find } = channelIndex(profile);
  for (const e of config.data ?? []) {
    if (!e.timeChannelName || e.groupName === undefined) continue;
    const time = find(e.groupName, e.timeChannelName);
    if (!time || time.dataType === 'timestamp') continue;
    const t = times.get(time.path);
    if (t?.min === undefined || t.max === undefined) continue;
    const format = unixUnitOfLarge([String(t.min), String(t.max)]);
    if (!format) return undefined;
    return { format, reason: `${label(time)} holds ${t.min} to ${t.max}: ${shortName(format)}` };
  }
  return undefined;
}

// ---- time ----------------------------------------------------------------------------

/** How a group's channels are timed when they are not waveforms. */
type GroupTime =
  | { kind: 'timestamp'; channel: string }
  | { kind: 'relative'; channel: string; format: TimeFormat; unit: string; guessed: boolean }
  | { kind: 'none' };

const NUMERIC = /^(i|u)(8|16|32|64)$|^f(32|64)(-unit)?$|^extended/;

/** The unit of a channel that says it holds time: its unit_string or its name. */
function timeUnitOf(c: TdmsChannelProfile): { format: TimeFormat; unit: string } | undefined {
  const unit = tdmsProperty(c.properties, 'unit_string');
  if (typeof unit === 'string') {
    const format = relativeFormatFromUnit(unit);
    if (format) return { format, unit };
  }
  return unitFromName(c.name);
}

/** The group's time channel: timestamp-typed first, else a numeric channel named or united as time. */
export function groupTimeOf(channels: readonly TdmsChannelProfile[]): GroupTime {
  const stamp = channels.find((c) => c.dataType === 'timestamp');
  if (stamp) return { kind: 'timestamp', channel: stamp.name };
  for (const c of channels) {
    if (!NUMERIC.test(c.dataType) || isWaveform(c)) continue;
    const unit = timeUnitOf(c);
    if (!unit && timeNameScore(c.name) < 1) continue;
    return {
      kind: 'relative',
      channel: c.name,
      format: unit?.format ?? 'TIME_FORMAT_RELATIVE_SECONDS',
      unit: unit?.unit ?? 'seconds',
      guessed: unit === undefined,
    };
  }
  return { kind: 'none' };
}

// ---- the draft -----------------------------------------------------------------------

interface Ctx {
  file: string;
  options: InferOptions;
  issues: Issue[];
  evidence: Evidence[];
}

function addIssue(
  ctx: Ctx,
  code: Issue['code'],
  path: string,
  message: string,
  hint?: string,
): void {
  ctx.issues.push(
    issue(code, path, message, { hint: hint || undefined, source: { file: ctx.file } }),
  );
}

const label = (c: { group: string; name: string }) => `${c.group}/${c.name}`;

/** What the walk over groups decided. */
interface Plan {
  data: TdmsDataEntry[];
  relative: Array<{ group: string; time: Extract<GroupTime, { kind: 'relative' }> }>;
  /** The waveform channels imported (those whose start is not recorded are named). */
  waveforms: TdmsChannelProfile[];
  untimed: TdmsChannelProfile[];
}

/** A TDMS profile → its draft: data entries, timing, file properties, with evidence. */
export function draftFromTdmsProfile(
  profile: TdmsProfile,
  options: InferOptions = {},
  chosen?: ChosenFormat,
): Draft {
  const ctx: Ctx = { file: profile.file.path, options, issues: [...profile.issues], evidence: [] };
  const names = channelNames(profile.channels, ctx);
  const plan: Plan = { data: [], relative: [], waveforms: [], untimed: [] };
  for (const g of profile.groups) planGroup(g, profile, names, plan, ctx);
  const naming = namesEvidence(plan.data, options.tdmsNames ?? 'qualified');
  if (naming) ctx.evidence.push(naming);
  const time = relativeTime(profile, plan, ctx, chosen);
  reportTiming(profile, plan, ctx);
  const importFileProperties = fileProperties(profile, ctx);
  if (plan.data.length === 0) {
    addIssue(
      ctx,
      'tdms_no_channels',
      `${P}/data`,
      `${ctx.file}: no channel with data the platform can import (${profile.channels.length} channels in ${profile.groups.length} groups)`,
      'Check that this is the file you meant; `importkit inspect` lists its channels.',
    );
  }
  const config: TdmsConfig = {
    assetName: options.assetName ?? basename(ctx.file, extname(ctx.file)),
    ...(options.runName ? { runName: options.runName } : {}),
    data: plan.data,
    fallbackMethod: 'TDMS_FALLBACK_METHOD_FAIL_ON_ERROR',
    ...time,
    ...(importFileProperties ? { importFileProperties } : {}),
  };
  // No entry: the draft's empty `data` imports every channel, those left out untimed too.
  const everything =
    plan.data.length === 0
      ? everythingIssue(profile, config.fallbackMethod, `${P}/data`, ctx.file)
      : undefined;
  if (everything) ctx.issues.push(everything);
  ctx.evidence.unshift(
    {
      path: `${P}/assetName`,
      choice: config.assetName ?? '',
      reason: options.assetName ? 'given as an option' : "default: the file's base name",
      confidence: options.assetName ? 'high' : 'low',
    },
    {
      path: `${P}/fallbackMethod`,
      choice: 'TDMS_FALLBACK_METHOD_FAIL_ON_ERROR',
      reason: 'an import that cannot time a listed channel fails instead of skipping it silently',
      confidence: 'medium',
      alternatives: ['TDMS_FALLBACK_METHOD_IGNORE_ERROR: skips channels it cannot time'],
    },
  );
  return {
    document: { tdmsConfig: config },
    kind: 'tdms',
    evidence: ctx.evidence,
    issues: ctx.issues,
  };
}

/** Why the channels are named as they are: evidence on the first entry's name. */
function namesEvidence(data: readonly TdmsDataEntry[], mode: TdmsNames): Evidence | undefined {
  const first = data[0];
  if (!first) return undefined;
  const path = `${P}/data/0/channelConfig/name`;
  if (mode === 'plain') {
    return {
      path,
      choice: 'the channel name',
      reason:
        "given as an option (plain): the platform's own tools name the same channels <group>.<channel>, so they would feed other channels of the asset",
      confidence: 'high',
    };
  }
  return {
    path,
    choice: '<group>.<channel>',
    reason: `as the platform's own command line and Python client name TDMS channels (${first.channelConfig?.name}), complex parts .real and .imag: an import by either feeds the same channels`,
    confidence: 'high',
    alternatives: ['`tdmsNames` plain: the channel name, the group added only where names clash'],
  };
}

/** How a complex channel's two parts are named, after its name and a dot. */
const PARTS: Record<TdmsNames, { real: string; imaginary: string }> = {
  qualified: { real: 'real', imaginary: 'imag' },
  plain: { real: 'real', imaginary: 'imaginary' },
};

/**
 * Channel names. `qualified` (the default): `<group>.<channel>` for every channel, as the
 * platform's own command line and Python client name a TDMS channel, so that a draft feeds
 * the channels those tools made on the same asset instead of making a second set. `plain`:
 * the TDMS channel name, `<group>.<channel>` only when several groups share it.
 */
function channelNames(channels: readonly TdmsChannelProfile[], ctx: Ctx): Map<string, string> {
  const mode = ctx.options.tdmsNames ?? 'qualified';
  const names = new Map<string, string>();
  if (mode === 'qualified') {
    for (const c of channels) names.set(c.path, `${c.group}.${c.name}`);
    return names;
  }
  const count = new Map<string, number>();
  for (const c of channels) count.set(c.name, (count.get(c.name) ?? 0) + 1);
  const shared: string[] = [];
  for (const c of channels) {
    const dup = (count.get(c.name) ?? 0) > 1;
    names.set(c.path, dup ? `${c.group}.${c.name}` : c.name);
    if (dup) shared.push(label(c));
  }
  if (shared.length > 0) {
    addIssue(
      ctx,
      'tdms_channel_name_duplicate',
      `${P}/data`,
      `channels of the same name in several groups (${shared.join(', ')}): named <group>.<channel>`,
    );
  }
  return names;
}

function planGroup(
  g: TdmsGroupProfile,
  profile: TdmsProfile,
  names: ReadonlyMap<string, string>,
  plan: Plan,
  ctx: Ctx,
): void {
  const channels = profile.channels.filter((c) => c.group === g.name);
  const time = groupTimeOf(channels);
  if (time.kind === 'relative') plan.relative.push({ group: g.name, time });
  let timeNoted = false;
  const typeEvidence = new Map<string, { evidence: Evidence; count: number }>();
  let waveNoted = false;
  for (const c of channels) {
    if (time.kind !== 'none' && c.name === time.channel) continue;
    const type = channelTypeOf(c);
    if ('skip' in type) {
      addIssue(ctx, 'tdms_channel_skipped', `${P}/data`, `${label(c)} is left out: ${type.skip}`);
      continue;
    }
    const waveform = isWaveform(c);
    if (!waveform && time.kind === 'none') {
      plan.untimed.push(c);
      continue;
    }
    if (waveform) plan.waveforms.push(c);
    const at = plan.data.length;
    const parts = PARTS[ctx.options.tdmsNames ?? 'qualified'];
    for (const entry of entriesOf(
      c,
      names.get(c.path) ?? c.name,
      type,
      waveform ? undefined : time,
      parts,
    )) {
      plan.data.push(entry);
    }
    const seen = typeEvidence.get(type.reason);
    if (seen) {
      seen.count += 1;
      seen.evidence.reason = `${type.reason} (${seen.count} channels of group ${g.name})`;
    } else {
      const evidence: Evidence = {
        path: `${P}/data/${at}/channelConfig/dataType`,
        choice: type.dataType,
        reason: type.reason,
        confidence: 'high',
      };
      typeEvidence.set(type.reason, { evidence, count: 1 });
      ctx.evidence.push(evidence);
    }
    if (!waveform && !timeNoted) {
      timeNoted = true;
      ctx.evidence.push(groupTimeEvidence(`${P}/data/${at}/timeChannelName`, g.name, time));
    } else if (waveform && !waveNoted) {
      waveNoted = true;
      const n = channels.filter(isWaveform).length;
      ctx.evidence.push({
        path: `${P}/data/${at}`,
        choice: 'waveform (no timeChannelName)',
        reason: `${n === 1 ? label(c) : `${n} channels of group ${g.name}`} ${n === 1 ? 'has' : 'have'} wf_start_time and wf_increment`,
        confidence: 'high',
      });
    }
  }
}

function groupTimeEvidence(path: string, group: string, time: GroupTime): Evidence {
  if (time.kind === 'timestamp') {
    return {
      path,
      choice: time.channel,
      reason: `the timestamp-typed channel of group ${group}`,
      confidence: 'high',
    };
  }
  const channel = time.kind === 'relative' ? time.channel : '';
  return {
    path,
    choice: channel,
    reason: `group ${group} has no timestamp channel; ${channel} is numeric and ${time.kind === 'relative' && !time.guessed ? `in ${time.unit}` : 'named as time'}`,
    confidence: time.kind === 'relative' && !time.guessed ? 'medium' : 'low',
  };
}

/** One data entry, or two (real and imaginary) for a complex channel. */
function entriesOf(
  c: TdmsChannelProfile,
  name: string,
  type: Extract<TdmsTypeChoice, { dataType: ChannelDataType }>,
  time: GroupTime | undefined,
  parts: { real: string; imaginary: string },
): TdmsDataEntry[] {
  const units = tdmsProperty(c.properties, 'unit_string');
  const description = tdmsProperty(c.properties, 'description');
  const config = (n: string): ChannelConfig => ({
    name: n,
    ...(typeof units === 'string' && units !== '' ? { units } : {}),
    ...(typeof description === 'string' && description !== '' ? { description } : {}),
    dataType: type.dataType,
  });
  const base = (n: string): TdmsDataEntry => ({
    groupName: c.group,
    channelName: c.name,
    channelConfig: config(n),
    ...(time && time.kind !== 'none' ? { timeChannelName: time.channel } : {}),
  });
  if (!type.complex) return [base(name)];
  return [
    { ...base(`${name}.${parts.real}`), complexComponent: 'TDMS_COMPLEX_COMPONENT_REAL' },
    { ...base(`${name}.${parts.imaginary}`), complexComponent: 'TDMS_COMPLEX_COMPONENT_IMAGINARY' },
  ];
}

/** The `timeFormat` option, by its full or short name; a name of no format is an error. */
function givenTimeFormat(ctx: Ctx): TimeFormat | undefined {
  const name = ctx.options.timeFormat;
  if (name === undefined) return undefined;
  const format = parseTimeFormatName(name);
  if (format === undefined)
    addIssue(
      ctx,
      'infer_option_invalid',
      `${P}/timeFormat`,
      `the time format '${name}' is not a time format (e.g. RELATIVE_SECONDS, RELATIVE_MILLISECONDS)`,
    );
  return format;
}

/** `timeFormat` and `relativeStartTime` for relative time channels, with evidence and issues. */
function relativeTime(
  profile: TdmsProfile,
  plan: Plan,
  ctx: Ctx,
  chosen: ChosenFormat | undefined,
): { timeFormat?: TimeFormat; relativeStartTime?: string } {
  const given = givenTimeFormat(ctx);
  const first = plan.relative[0];
  if (!first) return {};
  const used = plan.data.some((e) => plan.relative.some((r) => r.group === e.groupName));
  if (!used) return {};
  const formats = [...new Set(plan.relative.map((r) => r.time.format))];
  if (formats.length > 1) {
    addIssue(
      ctx,
      'tdms_time_formats_differ',
      `${P}/timeFormat`,
      `relative time channels in different units (${plan.relative.map((r) => `${r.group}/${r.time.channel}: ${r.time.unit}`).join(', ')}); one timeFormat applies to all`,
    );
  }
  const timeFormat = given ?? chosen?.format ?? first.time.format;
  ctx.evidence.push({
    path: `${P}/timeFormat`,
    choice: timeFormat,
    reason: given
      ? 'given as an option'
      : chosen
        ? chosen.reason
        : first.time.guessed
          ? `${first.group}/${first.time.channel} names no unit: seconds assumed`
          : `${first.group}/${first.time.channel} is in ${first.time.unit}`,
    confidence: given ? 'high' : chosen || !first.time.guessed ? 'medium' : 'low',
  });
  if (!given && !chosen && first.time.guessed) {
    addIssue(
      ctx,
      'tdms_time_unit_guessed',
      `${P}/timeFormat`,
      `${first.group}/${first.time.channel} has no unit_string and no unit in its name: seconds assumed`,
      'Set the `timeFormat` option (RELATIVE_MILLISECONDS ...) if the times are in another unit.',
    );
  }
  // An absolute format (unix times, given as an option) needs no start.
  if (!timeFormat.startsWith('TIME_FORMAT_RELATIVE_')) return { timeFormat };
  const start = relativeStart(profile, first.group, ctx);
  return { timeFormat, ...(start ? { relativeStartTime: start } : {}) };
}

function relativeStart(profile: TdmsProfile, group: string, ctx: Ctx): string | undefined {
  const path = `${P}/relativeStartTime`;
  if (ctx.options.relativeStartTime) {
    ctx.evidence.push({
      path,
      choice: ctx.options.relativeStartTime,
      reason: 'given as an option',
      confidence: 'high',
    });
    return ctx.options.relativeStartTime;
  }
  const g = profile.groups.find((x) => x.name === group);
  const fromGroup = startProperty(g?.properties ?? []);
  const fromRoot = startProperty(profile.properties);
  const found = fromGroup ?? fromRoot;
  if (found && typeof found.value === 'string') {
    ctx.evidence.push({
      path,
      choice: found.value,
      reason: `the ${fromGroup ? `group ${group}` : 'file'} property '${found.name}'`,
      confidence: 'medium',
    });
    return found.value;
  }
  addIssue(
    ctx,
    'infer_start_time_missing',
    path,
    `the relative time channel of group ${group} needs a start time, and the file has no datetime property to give one`,
    'Set the `relativeStartTime` option (RFC 3339, e.g. 2024-01-01T00:00:00Z).',
  );
  return undefined;
}

/** Issues for waveforms starting at the 1904 epoch and for channels nothing times. */
function reportTiming(profile: TdmsProfile, plan: Plan, ctx: Ctx): void {
  // The draft sets no startTimeOverride: check of it finds these alike.
  const at = { start: `${P}/startTimeOverride`, data: `${P}/data` };
  pushAll(ctx.issues, waveformTimeIssues({}, plan.waveforms, profile.properties, at, ctx.file));
  if (plan.untimed.length > 0) {
    addIssue(
      ctx,
      'tdms_channel_untimed',
      `${P}/data`,
      `no waveform properties and no time channel in their group, left out: ${someChannels(plan.untimed.map(label))}`,
      'List them with fallbackMethod TDMS_FALLBACK_METHOD_IGNORE_ERROR (skipped) or TDMS_FALLBACK_METHOD_FAIL_ON_ERROR (the import fails), or add a time channel to their group.',
    );
  }
}

/** `importFileProperties` when the file has properties and a run is named; else an info issue. */
function fileProperties(profile: TdmsProfile, ctx: Ctx): boolean {
  const props = profile.properties;
  if (props.length === 0) return false;
  const names = props.map((p) => p.name).join(', ');
  if (ctx.options.runName) {
    ctx.evidence.push({
      path: `${P}/importFileProperties`,
      choice: 'true',
      reason: `the file has properties (${names}) and a run is named`,
      confidence: 'medium',
    });
    return true;
  }
  addIssue(
    ctx,
    'tdms_file_properties',
    `${P}/importFileProperties`,
    `the file has properties (${names}); importFileProperties needs a run`,
    'Set the `runName` option to import them as run metadata.',
  );
  return false;
}
