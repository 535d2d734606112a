/**
 * An HDF5 profile → a draft Hdf5Config. The layouts the platform imports, combined in one
 * file: ONE_D (1-D value datasets beside a 1-D time dataset, or with a dimension scale),
 * TWO_D ([N, 2] and [N, k] datasets with a time column) and COMPOUND (a time member and
 * value members). Pure functions of the profile plus options, but for `inferHdf5`, which
 * inspects the file first.
 */

import { basename, extname } from 'node:path';
import type { Draft, Evidence, InferOptions } from '../../infer/shared.js';
import { readsWhole, SAMPLE_ROWS } from '../../infer/shared.js';
import type { ByteSource } from '../../inspect/shared.js';
import {
  type ChannelConfig,
  type ChannelDataType,
  type Hdf5Config,
  type Hdf5DataEntry,
  type TimeFormat,
  Timestamp,
} from '../../model/index.js';
import { type Issue, parseTimeFormatName, pushAll } from '../../model/plain.js';
import { listSome, notFoundHint } from '../../validate/index.js';
import { shortName } from '../../values/index.js';
import { hdf5ChannelTypeOf } from './channel-types.js';
import { absolutePath, canHoldTime, comparePaths } from './infer-datasets.js';
import { type Findings, newFindings, P } from './infer-findings.js';
import { type Planned, planLayouts, type Skip } from './infer-layout.js';
import { chooseRelativeStart, chooseTimeFormat, timeFactsOf, timeLabel } from './infer-time.js';
import { type Hdf5Dataset, type Hdf5Profile, inspectHdf5, typeName } from './inspect.js';
import { hdf5TimeIssues } from './time-issues.js';
import { hdf5ChannelRead, hdf5ValueIssues, type ReadGroup } from './values.js';

/**
 * Inspects an HDF5 file (by its path, or through a byte source with a place: an archive's
 * member, read in place) and infers its draft (not yet validated: `inferConfig` does that).
 */
export async function inferHdf5(
  file: string | ByteSource,
  options: InferOptions = {},
): Promise<Draft> {
  const sample = options.timeDataset ? [absolutePath(options.timeDataset)] : [];
  const profile = await inspectHdf5(file, { sample });
  const draft = draftFromHdf5Profile(profile, options);
  const config = draft.document.hdf5Config as Hdf5Config;
  const whole = readsWhole(profile.file.size, options);
  const groups = readGroupsOf(config, profile.datasets);
  pushAll(draft.issues, await hdf5ValueIssues(file, groups, whole ? {} : { sample: SAMPLE_ROWS }));
  return draft;
}

/**
 * What the draft imports, as the value reader takes it: each time dataset (and column or
 * member) with the value parts it times, grouped as `check --full` groups a config's.
 */
function readGroupsOf(config: Hdf5Config, datasets: readonly Hdf5Dataset[]): ReadGroup[] {
  const byPath = new Map(datasets.map((d) => [d.path, d]));
  const groups = new Map<string, ReadGroup>();
  (config.data ?? []).forEach((e, i) => {
    const t = e.timeDataset === undefined ? undefined : byPath.get(e.timeDataset);
    const v = e.valueDataset === undefined ? undefined : byPath.get(e.valueDataset);
    const tp = t ? partOf(t, e.timeField, e.timeIndex) : undefined;
    const key = t && tp ? `${t.path}#${String(tp.column)}` : '';
    let group = groups.get(key);
    if (!group) {
      group = { channels: [] };
      if (t && tp && config.timeFormat) {
        const ptr = `${P}/data/${i}/timeDataset`;
        group.time = { dataset: t, column: tp.column, ptr, format: config.timeFormat };
      }
      groups.set(key, group);
    }
    const vp = v ? partOf(v, e.valueField, e.valueIndex) : undefined;
    if (!v || !vp) return;
    const stored = hdf5ChannelTypeOf(vp.type);
    const storedType = 'dataType' in stored ? stored.dataType : undefined;
    const read = hdf5ChannelRead(e, v, vp, `${P}/data/${i}/channelConfig`, storedType);
    if (read) group.channels.push(read);
  });
  return [...groups.values()];
}

/** The element a draft entry reads of a dataset: a compound's member, a column, or the whole. */
function partOf(d: Hdf5Dataset, field: string | undefined, index: string | undefined) {
  if (field !== undefined) {
    const m = d.type.members?.find((x) => x.name === field);
    return m ? { type: m.type, column: m.name } : undefined;
  }
  if (d.shape?.length === 2) return { type: d.type, column: Number(index ?? 0) };
  return { type: d.type, column: undefined };
}

/**
 * The draft for a profile: the options read, each dataset planned into a layout (or left
 * out, with why), one time format for the file, then one data entry per channel, each
 * choice with its evidence.
 */
export function draftFromHdf5Profile(profile: Hdf5Profile, options: InferOptions = {}): Draft {
  const file = profile.file.path;
  const out = newFindings(file);
  const datasets = [...profile.datasets].sort((a, b) => comparePaths(a.path, b.path));
  const byPath = new Map(datasets.map((d) => [d.path, d]));
  const given = readOptions(options, datasets, byPath, out);
  const { planned, skipped } = planLayouts(datasets, byPath, given.time);
  const format = chooseTimeFormat(planned, given.format, out);
  const start = chooseRelativeStart(format.timeFormat, given.start, format.start, file);
  const fit = format.timeFormat
    ? fitToFormat(planned, format.timeFormat, file, out)
    : { kept: planned, timeIssues: [] };
  const entries = dataEntries(fit.kept, out);
  reportLeftOut(skipped, datasets.length, entries.data.length, out);

  const base = basename(file, extname(file));
  const config: Hdf5Config = {
    assetName: options.assetName ?? base,
    ...(options.runName ? { runName: options.runName } : {}),
    data: entries.data,
    ...(format.timeFormat ? { timeFormat: format.timeFormat } : {}),
    ...(start.relativeStartTime ? { relativeStartTime: start.relativeStartTime } : {}),
  };
  const evidence: Evidence[] = [
    {
      path: `${P}/assetName`,
      choice: config.assetName ?? '',
      reason: options.assetName ? 'given as an option' : "default: the file's base name",
      confidence: options.assetName ? 'high' : 'low',
    },
    ...entries.evidence,
  ];
  if (format.evidence) evidence.push(format.evidence);
  if (start.evidence) evidence.push(start.evidence);
  const issues = [...out.issues, ...fit.timeIssues];
  return { document: { hdf5Config: config }, kind: 'hdf5', evidence, issues };
}

/**
 * The planned channels whose time the draft's one `timeFormat` reads, and what check says
 * of each time dataset (column, member) they keep, judged as check judges it
 * (time-issues.ts; infer reads the values after: inferHdf5). A file whose time datasets
 * need two formats (text beside numbers, seconds beside nanoseconds), or a format given
 * that reads only some of them: the channels of the others are left out, each time
 * dataset with a warning that names its channels and the format it suggests, so the draft
 * imports what it can and a second config imports the rest. When the format reads none of
 * them, all stay, and the draft carries check's errors, which say why.
 */
function fitToFormat(
  planned: Planned[],
  format: TimeFormat,
  file: string,
  out: Findings,
): { kept: Planned[]; timeIssues: Issue[] } {
  const judged = new Map<string, Judged>();
  for (const p of planned) {
    const key = timeLabel(p.time);
    let j = judged.get(key);
    if (!j) {
      const part = partOf(p.time.dataset, p.time.member, p.time.column?.toString());
      const issues = part
        ? hdf5TimeIssues(p.time.dataset, part, format, `${P}/timeFormat`, file, true)
        : [];
      j = { source: p.time, issues, channels: [] };
      judged.set(key, j);
    }
    j.channels.push(p.value.path);
  }
  const unread = new Set(
    [...judged].flatMap(([key, j]) => (j.issues.some((i) => i.severity === 'error') ? [key] : [])),
  );
  const kept = planned.filter((p) => !unread.has(timeLabel(p.time)));
  const all = unread.size === 0 || kept.length === 0;
  if (!all) for (const key of unread) leftOut(key, judged.get(key) as Judged, format, out);
  const timeIssues = [...judged].flatMap(([key, j]) => (all || !unread.has(key) ? j.issues : []));
  return { kept: all ? planned : kept, timeIssues };
}

/** A time dataset judged: what check says of it, and the channels it times. */
type Judged = { source: Planned['time']; issues: Issue[]; channels: string[] };

/** A time dataset left out with its channels: why (check's first error), and how to import them. */
function leftOut(key: string, u: Judged, format: TimeFormat, out: Findings): void {
  const why = u.issues.find((i) => i.severity === 'error') as Issue;
  const own = timeFactsOf(u.source).format;
  out.issue(
    'hdf5_time_dataset_left_out',
    `${P}/data`,
    `${key} and the ${u.channels.length === 1 ? 'channel' : `${u.channels.length} channels`} it times (${listSome(u.channels, 3)}) are left out: ${shortName(format)}, the draft's one timeFormat, does not read it (${why.code}: ${why.message})`,
    {
      hint: `Import them with a config of their own${own ? `: importkit infer with --time-format ${shortName(own)}` : ''}.`,
      dataset: u.source.dataset.path,
    },
  );
}

interface GivenOptions {
  time: Hdf5Dataset | undefined;
  format: TimeFormat | undefined;
  start: string | undefined;
}

/** The time dataset, time format and relative start given as options; a bad one is an error. */
function readOptions(
  options: InferOptions,
  datasets: Hdf5Dataset[],
  byPath: Map<string, Hdf5Dataset>,
  out: Findings,
): GivenOptions {
  const given: GivenOptions = { time: undefined, format: undefined, start: undefined };
  if (options.timeDataset !== undefined) {
    const want = absolutePath(options.timeDataset);
    const ds = byPath.get(want);
    if (ds && ds.shape?.length === 1 && canHoldTime(ds.type)) {
      given.time = ds;
    } else {
      out.issue(
        'hdf5_time_dataset_not_found',
        P,
        ds
          ? `\`timeDataset\` ${want}: a ${typeName(ds.type)} dataset of shape [${(ds.shape ?? []).join(', ')}], not a 1-D numeric or text dataset`
          : `\`timeDataset\` ${want}: no such dataset`,
        {
          hint: ds
            ? 'Give the full path of a 1-D time dataset (see `importkit inspect`).'
            : notFoundHint(
                want,
                datasets.map((d) => d.path),
                "The file's datasets",
              ),
        },
      );
    }
  }
  if (options.timeFormat !== undefined) {
    given.format = parseTimeFormatName(options.timeFormat);
    if (!given.format) {
      out.issue(
        'hdf5_time_format_invalid',
        `${P}/timeFormat`,
        `\`timeFormat\` ${options.timeFormat}: not a time format (e.g. ABSOLUTE_UNIX_NANOSECONDS)`,
      );
    }
  }
  if (options.relativeStartTime !== undefined) {
    if (Timestamp.safeParse(options.relativeStartTime).success) {
      given.start = options.relativeStartTime;
    } else {
      out.issue(
        'hdf5_relative_start_invalid',
        `${P}/relativeStartTime`,
        `\`relativeStartTime\` ${options.relativeStartTime}: not an RFC 3339 timestamp with a zone`,
        { hint: 'Write it like 2024-05-01T12:00:00Z.' },
      );
    }
  }
  return given;
}

/** One data entry per planned channel (names made unique), each with its evidence. */
function dataEntries(
  planned: Planned[],
  out: Findings,
): { data: Hdf5DataEntry[]; evidence: Evidence[] } {
  const data: Hdf5DataEntry[] = [];
  const evidence: Evidence[] = [];
  const used = new Set<string>();
  planned.forEach((p, i) => {
    const at = `${P}/data/${i}`;
    const typeChoice = hdf5ChannelTypeOf(p.type);
    if ('skip' in typeChoice) return; // filtered when planned
    const name = uniqueName(p, used, at, out);
    const channelConfig: ChannelConfig = {
      name,
      ...(p.units !== undefined ? { units: p.units } : {}),
      ...(p.description !== undefined ? { description: p.description } : {}),
      dataType: typeChoice.dataType,
      ...(typeChoice.enumTypes ? { enumTypes: typeChoice.enumTypes } : {}),
    };
    data.push(entryOf(p, channelConfig));
    pushAll(evidence, entryEvidence(p, at, name, typeChoice.dataType));
  });
  return { data, evidence };
}

/** The planned name, or `<name>_2`, `_3`... when an earlier channel has it (a warning). */
function uniqueName(p: Planned, used: Set<string>, at: string, out: Findings): string {
  let name = p.name;
  if (used.has(name)) {
    let k = 2;
    while (used.has(`${p.name}_${k}`)) k += 1;
    name = `${p.name}_${k}`;
    out.issue(
      'hdf5_channel_name_duplicate',
      `${at}/channelConfig/name`,
      `channel name "${p.name}" is taken by an earlier channel; ${sourceLabel(p)} was named "${name}"`,
      { hint: 'Check the names and give each channel the one you want.', dataset: p.value.path },
    );
  }
  used.add(name);
  return name;
}

/** A data entry, its keys in the model's order (the order `fmt` writes). */
function entryOf(p: Planned, channelConfig: ChannelConfig): Hdf5DataEntry {
  const entry: Hdf5DataEntry = { timeDataset: p.time.dataset.path };
  if (p.time.column !== undefined) entry.timeIndex = String(p.time.column);
  entry.valueDataset = p.value.path;
  if (p.valueIndex !== undefined) entry.valueIndex = String(p.valueIndex);
  entry.channelConfig = channelConfig;
  if (p.time.member !== undefined) entry.timeField = p.time.member;
  if (p.valueField !== undefined) entry.valueField = p.valueField;
  return entry;
}

function entryEvidence(
  p: Planned,
  at: string,
  name: string,
  dataType: ChannelDataType,
): Evidence[] {
  const evidence: Evidence[] = [
    {
      path: at,
      choice: `${p.layout}: ${timeLabel(p.time)} → ${sourceLabel(p)}`,
      reason: p.reason,
      confidence: p.confidence,
      ...(p.alternatives ? { alternatives: p.alternatives } : {}),
    },
    {
      path: `${at}/channelConfig/name`,
      choice: name,
      reason: p.nameReason,
      confidence: 'high',
      ...(p.nameAlternatives?.length ? { alternatives: p.nameAlternatives } : {}),
    },
    {
      path: `${at}/channelConfig/dataType`,
      choice: dataType,
      reason: `${sourceLabel(p)} is ${typeName(p.type)}`,
      confidence: 'high',
    },
  ];
  if (p.units !== undefined) {
    evidence.push({
      path: `${at}/channelConfig/units`,
      choice: p.units,
      reason: `a units attribute of ${p.value.path}`,
      confidence: 'high',
    });
  }
  return evidence;
}

/** Each dataset left out is an info; no channel at all is an error. */
function reportLeftOut(skipped: Skip[], datasets: number, channels: number, out: Findings) {
  for (const s of skipped) {
    out.issue('hdf5_dataset_skipped', `${P}/data`, `${s.path}: left out: ${s.reason}`, {
      dataset: s.dataset,
    });
  }
  if (channels === 0) {
    out.issue(
      'hdf5_no_channels',
      `${P}/data`,
      `no dataset fits a layout the platform imports (${datasets} datasets, ${skipped.length} left out)`,
      {
        hint: 'Check the file; set the `timeDataset` option when the time dataset has an unusual name.',
      },
    );
  }
}

function sourceLabel(p: Planned): string {
  if (p.valueField !== undefined) return `${p.value.path} member ${p.valueField}`;
  if (p.valueIndex !== undefined) return `${p.value.path} column ${p.valueIndex}`;
  return p.value.path;
}
