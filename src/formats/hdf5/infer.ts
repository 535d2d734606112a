/**
 * An HDF5 profile → a draft Hdf5Config. The layouts the platform imports, combined in one
 * file: ONE_D (1-D value datasets beside a 1-D time dataset, or with a dimension scale),
 * TWO_D ([N, 2] and [N, k] datasets with a time column) and COMPOUND (a time member and
 * value members). Pure functions of the profile plus options, but for `inferHdf5`, which
 * inspects the file first.
 */
import { basename, extname } from 'node:path';
import type { Confidence, Draft, Evidence, InferOptions } from '../../infer/shared.js';
import {
  readsWhole,
  relativeFormatFromUnit,
  SAMPLE_ROWS,
  startTimeFromFileName,
  timeNameScore,
  unitFromName,
  unixFormatOfUnit,
  unixUnitFromMagnitude,
} from '../../infer/shared.js';
import type { ByteSource } from '../../inspect/shared.js';
import {
  type ChannelConfig,
  type ChannelDataType,
  type Hdf5Config,
  type Hdf5DataEntry,
  type TimeFormat,
  Timestamp,
} from '../../model/index.js';
import {
  DATETIME_TEXT,
  type Issue,
  issue as newIssue,
  parseTimeFormatName,
  pushAll,
  RFC3339_TEXT,
} from '../../model/plain.js';
import { notFoundHint } from '../../validate/index.js';
import { hdf5ChannelTypeOf } from './channel-types.js';
import {
  type Hdf5Attribute,
  type Hdf5Dataset,
  type Hdf5Profile,
  type Hdf5Type,
  inspectHdf5,
  MAX_TWO_D_COLUMNS,
  typeName,
} from './inspect.js';
import { hdf5ChannelRead, hdf5ValueIssues, type ReadGroup } from './values.js';

const P = '/hdf5Config';

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
      if (t && tp && config.timeFormat)
        group.time = { dataset: t, column: tp.column, ptr: `${P}/data/${i}/timeDataset` };
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

// ---- types ---------------------------------------------------------------------------

function isNumeric(t: Hdf5Type): boolean {
  return t.class === 'integer' || t.class === 'float';
}

/** Types a time dataset, column or member can have. */
function canHoldTime(t: Hdf5Type): boolean {
  return isNumeric(t) || t.class === 'string';
}

// ---- names ---------------------------------------------------------------------------

const NAME_ATTRIBUTES = ['Name', 'name', 'Title', 'Sensor', 'Channel'];
const UNIT_ATTRIBUTES = ['Unit', 'unit', 'Units', 'units'];
const DESCRIPTION_ATTRIBUTES = ['Description', 'description', 'long_name'];
const COLUMN_NAME_ATTRIBUTES = ['columns', 'column_names', 'fields', 'field_names'];
/** Time dataset names (case-insensitive), in order of preference. */
const TIME_NAMES = ['time', 'timestamp', 'timestamps', 'ts', 't'];

function attribute(ds: Hdf5Dataset, names: string[]): { name: string; value: unknown } | undefined {
  for (const n of names) {
    const a = ds.attributes.find((x) => x.name === n);
    if (a && a.value !== undefined && a.value !== null) return { name: n, value: a.value };
  }
  return undefined;
}

function stringAttribute(
  ds: Hdf5Dataset,
  names: string[],
): { name: string; value: string } | undefined {
  for (const n of names) {
    const a: Hdf5Attribute | undefined = ds.attributes.find((x) => x.name === n);
    const v = a?.value;
    if (typeof v === 'string' && v.trim() !== '') return { name: n, value: v.trim() };
    if (Array.isArray(v) && v.length === 1 && typeof v[0] === 'string' && v[0].trim() !== '') {
      return { name: n, value: v[0].trim() };
    }
  }
  return undefined;
}

function stringList(v: unknown, length: number): string[] | undefined {
  if (Array.isArray(v) && v.length === length && v.every((x) => typeof x === 'string')) {
    return v as string[];
  }
  return undefined;
}

/** `/a/b/c` → `a.b.c`. */
export function pathChannelName(path: string): string {
  return path.replace(/^\/+/, '').replace(/\//g, '.');
}

function absolutePath(p: string): string {
  return `/${p.trim().replace(/^\/+/, '').replace(/\/+$/, '')}`;
}

function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

/** Orders paths as a depth-first walk in name order (`/a`, `/a/x`, `/a.b`). */
export function comparePaths(a: string, b: string): number {
  const sa = a.split('/');
  const sb = b.split('/');
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const x = sa[i] ?? '';
    const y = sb[i] ?? '';
    if (x !== y) return x < y ? -1 : 1;
  }
  return sa.length - sb.length;
}

// ---- time ----------------------------------------------------------------------------

/** One place time is read from: a 1-D dataset, a column of an [N, k] dataset, or a member. */
interface TimeSource {
  dataset: Hdf5Dataset;
  column?: number;
  member?: string;
}

interface TimeFacts {
  format?: TimeFormat;
  start?: string;
  reason: string;
  confidence: Confidence;
  /** A warning to report when this source decides the format. */
  warning?: { code: Issue['code']; message: string; hint: string };
}

function sourceKey(s: TimeSource): string {
  if (s.member !== undefined) return `${s.dataset.path}.${s.member}`;
  if (s.column !== undefined) return `${s.dataset.path}[:, ${s.column}]`;
  return s.dataset.path;
}

function sampleValues(s: TimeSource): string[] {
  const rows = [...(s.dataset.head ?? []), ...(s.dataset.tail ?? [])];
  let index = 0;
  if (s.column !== undefined) index = s.column;
  if (s.member !== undefined) {
    index = Math.max(
      0,
      (s.dataset.type.members ?? []).findIndex((m) => m.name === s.member),
    );
  }
  return rows.map((r) => r[index]).filter((v): v is string => v !== undefined);
}

function sourceType(s: TimeSource): Hdf5Type {
  if (s.member !== undefined) {
    return s.dataset.type.members?.find((m) => m.name === s.member)?.type ?? s.dataset.type;
  }
  return s.dataset.type;
}

const CF_UNITS = /^\s*([A-Za-zµμ]+)\s+since\s+(.+?)\s*$/i;

/**
 * The date of CF units (`seconds since 2024-01-02 03:04:05`) as RFC 3339; a date without a
 * zone is UTC (as CF reads it). Undefined when it is not a date.
 */
export function cfDate(text: string): { rfc3339: string; zoneGiven: boolean } | undefined {
  const m =
    /^(\d{1,4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{1,2})(?::(\d{1,2})(\.\d+)?)?)?\s*(Z|UTC|GMT|[+-]\d{1,2}(?::?\d{2})?)?$/i.exec(
      text.trim(),
    );
  if (!m) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone] = m;
  const pad = (v: string | undefined, n = 2) => (v ?? '0').padStart(n, '0');
  let z = 'Z';
  if (zone && !/^(Z|UTC|GMT)$/i.test(zone)) {
    const zm = /^([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(zone);
    if (!zm) return undefined;
    z = `${zm[1]}${pad(zm[2])}:${zm[3] ?? '00'}`;
  }
  const rfc3339 = `${pad(y, 4)}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}${frac}${z}`;
  if (!Timestamp.safeParse(rfc3339).success) return undefined;
  return { rfc3339, zoneGiven: zone !== undefined };
}

function isEpoch(rfc3339: string): boolean {
  return Date.parse(rfc3339) === 0;
}

/** What one time source says about the format, from its units, its type or its values. */
export function timeFactsOf(s: TimeSource): TimeFacts {
  const values = sampleValues(s);
  const label = sourceKey(s);
  const plain = s.column === undefined && s.member === undefined;
  const units = plain ? stringAttribute(s.dataset, UNIT_ATTRIBUTES) : undefined;
  if (sourceType(s).class === 'string') return textTimeFacts(label, values);
  const byUnits = units ? unitsTimeFacts(label, units.value, values) : undefined;
  if (byUnits) return byUnits;
  if (values.length > 0) {
    const guess = unixUnitFromMagnitude(values);
    if (guess) {
      return {
        format: guess.format,
        reason: `${label}: first and last values ${values[0]} … ${values.at(-1)}: ${guess.reason}`,
        confidence: units ? 'medium' : 'high',
      };
    }
  }
  const fromName = unitFromName(s.member ?? s.dataset.name);
  if (fromName) {
    return {
      format: fromName.format,
      reason: `${label}: values are not unix times in a plausible range; the name says ${fromName.unit}: relative`,
      confidence: 'medium',
    };
  }
  return {
    format: 'TIME_FORMAT_RELATIVE_SECONDS',
    reason: `${label}: no units and the values${values.length > 0 ? ` (${values[0]} … ${values.at(-1)})` : ''} are not unix times in a plausible range: guessed relative seconds`,
    confidence: 'low',
    warning: {
      code: 'hdf5_time_format_guessed',
      message: `${label}: no units and not unix times; relative seconds guessed`,
      hint: 'Check the time format (the `timeFormat` option) and give a start time (`relativeStartTime`).',
    },
  };
}

/** Text time: RFC 3339, or date-time text without a zone; else no format. */
function textTimeFacts(label: string, values: string[]): TimeFacts {
  if (values.length > 0 && values.every((v) => RFC3339_TEXT.test(v.trim()))) {
    return {
      format: 'TIME_FORMAT_ABSOLUTE_RFC3339',
      reason: `${label} holds RFC 3339 text (${values[0]})`,
      confidence: 'high',
    };
  }
  if (values.length > 0 && values.every((v) => DATETIME_TEXT.test(v.trim()))) {
    return {
      format: 'TIME_FORMAT_ABSOLUTE_DATETIME',
      reason: `${label} holds date-time text without a zone (${values[0]})`,
      confidence: 'medium',
    };
  }
  return {
    reason: `${label} holds text that is not a date-time${values[0] ? ` (${values[0]})` : ''}`,
    confidence: 'low',
  };
}

/** What a units attribute says: CF “<unit> since <date>”, or a bare unit; undefined when neither. */
function unitsTimeFacts(label: string, units: string, values: string[]): TimeFacts | undefined {
  const cf = CF_UNITS.exec(units);
  if (cf) {
    const byCf = cfTimeFacts(label, units, cf[1] ?? '', cf[2] ?? '');
    if (byCf) return byCf;
  }
  const bare = relativeFormatFromUnit(units);
  if (!bare) return undefined;
  const unix = unixFormatOfUnit(bare);
  const byMagnitude = values.length > 0 ? unixUnitFromMagnitude(values) : undefined;
  if (unix && byMagnitude?.format === unix) {
    return {
      format: unix,
      reason: `${label} has units "${units}" and its values read as unix ${units} fall in a plausible date range`,
      confidence: 'high',
    };
  }
  return {
    format: bare,
    reason: `${label} has units "${units}" and its values are not unix times: relative`,
    confidence: 'medium',
  };
}

/** CF units: a unix format when counted from the epoch, else relative with its start. */
function cfTimeFacts(
  label: string,
  units: string,
  unit: string,
  since: string,
): TimeFacts | undefined {
  const relative = relativeFormatFromUnit(unit);
  const date = cfDate(since);
  if (!relative) {
    return {
      reason: `${label} has units "${units}": ${unit} is no unit of a time format`,
      confidence: 'low',
      warning: {
        code: 'hdf5_time_unit_unsupported',
        message: `${label}: units "${units}" name a unit the platform has no time format for`,
        hint: 'Convert the times to seconds or a smaller unit, or set the `timeFormat` option.',
      },
    };
  }
  if (!date) return undefined;
  const unix = unixFormatOfUnit(relative);
  const utcNote = date.zoneGiven ? '' : ' (no zone given: read as UTC, as CF does)';
  if (unix && isEpoch(date.rfc3339)) {
    return {
      format: unix,
      reason: `${label} has CF units "${units}": ${unit} since the unix epoch${utcNote}`,
      confidence: 'high',
    };
  }
  return {
    format: relative,
    start: date.rfc3339,
    reason: `${label} has CF units "${units}": ${unit} since ${date.rfc3339}${utcNote}`,
    confidence: 'high',
  };
}

function isIncreasing(values: string[]): boolean {
  const nums = values.map(Number);
  if (nums.some((n) => !Number.isFinite(n))) return false;
  for (let i = 1; i < nums.length; i++) if ((nums[i] ?? 0) < (nums[i - 1] ?? 0)) return false;
  return true;
}

// ---- layouts -------------------------------------------------------------------------

type LayoutName = 'ONE_D' | 'TWO_D' | 'COMPOUND';

interface Planned {
  layout: LayoutName;
  time: TimeSource;
  value: Hdf5Dataset;
  valueIndex?: number;
  valueField?: string;
  /** Type of the value (the member's for compounds). */
  type: Hdf5Type;
  name: string;
  nameReason: string;
  /** Other names the file suggests (a name attribute, column names), for the evidence. */
  nameAlternatives?: string[];
  units?: string;
  description?: string;
  reason: string;
  confidence: Confidence;
  alternatives?: string[];
}

interface Skip {
  /** What was left out: a dataset path, or `<dataset>.<member>`. */
  path: string;
  dataset: string;
  reason: string;
}

/** Datasets so named take their group's name (ONE_D), as the platform's CLI names them. */
const VALUE_NAMES = ['value', 'values'];

interface BaseName {
  name: string;
  reason: string;
  alternatives: string[];
}

/**
 * A dataset's channel name as the platform's own CLI gives it (`import hdf5`): the dataset
 * path with `/` as `.` (`/a/b` → `a.b`); a ONE_D dataset named value or values (any case)
 * below the root takes its group's path. A draft that names channels otherwise makes a
 * second set of channels on an asset the CLI already fed. A name attribute (Name, Title,
 * Sensor, Channel: the platform's Python client reads them, its CLI does not) is offered
 * in the evidence, never used on its own.
 */
function baseName(ds: Hdf5Dataset, oneD = false): BaseName {
  const group = parentOf(ds.path);
  const valueLeaf = oneD && group !== '/' && VALUE_NAMES.includes(ds.name.toLowerCase());
  const name = pathChannelName(valueLeaf ? group : ds.path);
  const reason = valueLeaf
    ? `the group path ${group} with / as . (the dataset is named ${ds.name}), as the platform's CLI names it`
    : `the dataset path ${ds.path} with / as ., as the platform's CLI names it`;
  const attr = stringAttribute(ds, NAME_ATTRIBUTES);
  const alternatives =
    attr && attr.value !== name
      ? [
          `${attr.value}: attribute ${attr.name} of ${ds.path} (as the platform's Python client names it)`,
        ]
      : [];
  return { name, reason, alternatives };
}

const NETCDF_DIMENSION_ONLY = /^This is a netCDF dimension but not a netCDF variable/;

function isUsableTime(ds: Hdf5Dataset | undefined, length: number): ds is Hdf5Dataset {
  return (
    ds !== undefined &&
    ds.shape?.length === 1 &&
    ds.shape[0] === length &&
    canHoldTime(ds.type) &&
    !NETCDF_DIMENSION_ONLY.test(String(attribute(ds, ['NAME'])?.value ?? ''))
  );
}

/** Is this a dataset that holds time by its name or role (never a channel)? */
function isStrongTime(ds: Hdf5Dataset, forced?: string): boolean {
  if (ds.shape?.length !== 1 || !canHoldTime(ds.type)) return false;
  return ds.path === forced || ds.isDimensionScale || TIME_NAMES.includes(ds.name.toLowerCase());
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
  const entries = dataEntries(planned, out);
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
  return { document: { hdf5Config: config }, kind: 'hdf5', evidence, issues: out.issues };
}

type Report = (
  code: Issue['code'],
  path: string,
  message: string,
  extra?: { hint?: string; dataset?: string },
) => void;

/** The issues the steps found, in order, and how they add one. */
interface Findings {
  issues: Issue[];
  issue: Report;
}

function newFindings(file: string): Findings {
  const issues: Issue[] = [];
  const issue: Report = (code, path, message, extra = {}) => {
    issues.push(
      newIssue(code, path, message, {
        hint: extra.hint || undefined,
        source: { file, ...(extra.dataset ? { dataset: extra.dataset } : {}) },
      }),
    );
  };
  return { issues, issue };
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

/** Every dataset planned into a layout (ONE_D, TWO_D, COMPOUND) or left out, in path order. */
function planLayouts(
  datasets: Hdf5Dataset[],
  byPath: Map<string, Hdf5Dataset>,
  forcedTime: Hdf5Dataset | undefined,
): { planned: Planned[]; skipped: Skip[] } {
  const planned: Planned[] = [];
  const skipped: Skip[] = [];
  const usedAsTime = new Set<string>();
  const strong = new Set(
    datasets.filter((d) => isStrongTime(d, forcedTime?.path)).map((d) => d.path),
  );
  const oneD: Hdf5Dataset[] = [];
  for (const ds of datasets) {
    const skip = planDataset(ds, strong, byPath, { planned, skipped, usedAsTime, oneD });
    if (skip !== undefined) skipped.push({ path: ds.path, dataset: ds.path, reason: skip });
  }
  const ctx = { byPath, datasets, strong, forcedTime };
  const weakTimes = planOneD(oneD, ctx, { planned, skipped, usedAsTime });
  skipUnusedTimes([...strong, ...weakTimes], usedAsTime, byPath, skipped);
  planned.sort(
    (a, b) =>
      comparePaths(a.value.path, b.value.path) ||
      (a.valueIndex ?? 0) - (b.valueIndex ?? 0) ||
      memberOrder(a) - memberOrder(b),
  );
  skipped.sort((a, b) => comparePaths(a.path, b.path));
  return { planned, skipped };
}

interface Plans {
  planned: Planned[];
  skipped: Skip[];
  usedAsTime: Set<string>;
}

/**
 * Plans a compound or 2-D dataset, sets a 1-D one aside (it needs its time found), or
 * returns why it is left out.
 */
function planDataset(
  ds: Hdf5Dataset,
  strong: Set<string>,
  byPath: Map<string, Hdf5Dataset>,
  plans: Plans & { oneD: Hdf5Dataset[] },
): string | undefined {
  const shape = ds.shape;
  if (shape === null) return 'no dataspace (an empty dataset)';
  if (shape.length === 0) return 'a scalar: no time axis';
  if (attribute(ds, ['CLASS'])?.value === 'IMAGE') return 'an image (CLASS=IMAGE)';
  if (ds.type.class === 'compound') {
    if (shape.length !== 1) return `a ${shape.length}-D compound dataset`;
    planCompound(ds, plans.planned, plans.skipped);
    return undefined;
  }
  if (shape.length === 1) {
    if (!strong.has(ds.path)) plans.oneD.push(ds);
    return undefined;
  }
  if (shape.length === 2) {
    planTwoD(ds, plans.planned, plans.skipped, byPath, plans.usedAsTime);
    return undefined;
  }
  return `a ${shape.length}-D dataset [${shape.join(', ')}]: no layout reads more than 2 dimensions`;
}

interface TimeSearch {
  byPath: Map<string, Hdf5Dataset>;
  datasets: Hdf5Dataset[];
  strong: Set<string>;
  forcedTime: Hdf5Dataset | undefined;
}

/**
 * ONE_D: each 1-D value dataset with its time dataset. Returns the weakly named time
 * datasets others picked: they are not channels themselves.
 */
function planOneD(oneD: Hdf5Dataset[], search: TimeSearch, plans: Plans): Set<string> {
  const found = oneD.map((ds) => {
    const typeChoice = hdf5ChannelTypeOf(ds.type);
    if ('skip' in typeChoice) return { ds, skip: typeChoice.skip };
    const n = ds.shape?.[0] ?? 0;
    return {
      ds,
      ...findTimeFor(ds, n, search.byPath, search.datasets, search.strong, search.forcedTime),
    };
  });
  const weakTimes = new Set(
    found.filter((p) => p.time && !search.strong.has(p.time.path)).map((p) => p.time?.path ?? ''),
  );
  for (const p of found) {
    if (weakTimes.has(p.ds.path)) continue;
    if (p.skip !== undefined || !p.time) {
      plans.skipped.push({
        path: p.ds.path,
        dataset: p.ds.path,
        reason: p.skip ?? 'no time dataset',
      });
      continue;
    }
    const base = baseName(p.ds, true);
    const units = stringAttribute(p.ds, UNIT_ATTRIBUTES)?.value;
    const description = stringAttribute(p.ds, DESCRIPTION_ATTRIBUTES)?.value;
    plans.planned.push({
      layout: 'ONE_D',
      time: { dataset: p.time },
      value: p.ds,
      type: p.ds.type,
      name: base.name,
      nameReason: base.reason,
      nameAlternatives: base.alternatives,
      ...(units !== undefined ? { units } : {}),
      ...(description !== undefined ? { description } : {}),
      reason: `ONE_D: ${p.ds.path} [${p.ds.shape?.[0]}] is timed by ${p.time.path} (${p.how})`,
      confidence: p.confidence ?? 'high',
    });
    plans.usedAsTime.add(p.time.path);
  }
  return weakTimes;
}

/** Time datasets no value dataset uses are left out, with why. */
function skipUnusedTimes(
  times: string[],
  usedAsTime: Set<string>,
  byPath: Map<string, Hdf5Dataset>,
  skipped: Skip[],
) {
  for (const path of times) {
    if (usedAsTime.has(path)) continue;
    const ds = byPath.get(path);
    const nc = NETCDF_DIMENSION_ONLY.test(String(ds ? (attribute(ds, ['NAME'])?.value ?? '') : ''));
    skipped.push({
      path,
      dataset: path,
      reason: nc
        ? 'a netCDF dimension without values'
        : 'a time dataset that no value dataset of the same length uses',
    });
  }
}

interface FormatChoice {
  timeFormat: TimeFormat | undefined;
  /** The start a relative format's CF units give (“… since <date>”). */
  start: string | undefined;
  evidence: Evidence | undefined;
}

/**
 * One time format for the file: the one given, else the one most time sources suggest
 * (with a warning when they differ).
 */
function chooseTimeFormat(
  planned: Planned[],
  forced: TimeFormat | undefined,
  out: Findings,
): FormatChoice {
  if (forced) {
    return {
      timeFormat: forced,
      start: undefined,
      evidence: {
        path: `${P}/timeFormat`,
        choice: forced,
        reason: 'given as an option (`timeFormat`)',
        confidence: 'high',
      },
    };
  }
  const sources = new Map<string, TimeSource>();
  for (const p of planned) sources.set(sourceKey(p.time), p.time);
  const facts = [...sources.values()].map((s) => ({ source: s, facts: timeFactsOf(s) }));
  const choice = formatByVote(facts, out);
  for (const f of facts) {
    if (f.facts.format === undefined && f.facts.warning) {
      out.issue(f.facts.warning.code, `${P}/timeFormat`, f.facts.warning.message, {
        hint: f.facts.warning.hint,
        dataset: f.source.dataset.path,
      });
    }
  }
  return choice;
}

/** The format most decided time sources suggest; the others become alternatives. */
function formatByVote(
  facts: Array<{ source: TimeSource; facts: TimeFacts }>,
  out: Findings,
): FormatChoice {
  const decided = facts.filter((f) => f.facts.format !== undefined);
  const counts = new Map<TimeFormat, number>();
  for (const f of decided) {
    const fmt = f.facts.format as TimeFormat;
    counts.set(fmt, (counts.get(fmt) ?? 0) + 1);
  }
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  const top = ranked[0]?.[0];
  const chosen = decided.find((f) => f.facts.format === top);
  if (!chosen || !top) return { timeFormat: undefined, start: undefined, evidence: undefined };
  const others = ranked.slice(1);
  const evidence: Evidence = {
    path: `${P}/timeFormat`,
    choice: top,
    reason: chosen.facts.reason,
    confidence: others.length > 0 ? 'low' : chosen.facts.confidence,
    ...(others.length > 0
      ? {
          alternatives: decided
            .filter((f) => f.facts.format !== top)
            .map((f) => `${f.facts.format}: ${f.facts.reason}`),
        }
      : {}),
  };
  if (chosen.facts.warning) {
    out.issue(chosen.facts.warning.code, `${P}/timeFormat`, chosen.facts.warning.message, {
      hint: chosen.facts.warning.hint,
      dataset: chosen.source.dataset.path,
    });
  }
  if (others.length > 0) {
    out.issue(
      'hdf5_time_formats_differ',
      `${P}/timeFormat`,
      `the time datasets suggest different formats: ${ranked.map(([f, n]) => `${f} (${n})`).join(', ')}; ${top} was chosen`,
      { hint: 'Check each time dataset; import those of another format separately.' },
    );
  }
  return { timeFormat: top, start: chosen.facts.start, evidence };
}

/** A relative format's start: given, else from the CF units, else a date in the file name. */
function chooseRelativeStart(
  timeFormat: TimeFormat | undefined,
  given: string | undefined,
  fromUnits: string | undefined,
  file: string,
): { relativeStartTime: string | undefined; evidence: Evidence | undefined } {
  const none = { relativeStartTime: undefined, evidence: undefined };
  if (!timeFormat?.startsWith('TIME_FORMAT_RELATIVE_')) return none;
  const at = `${P}/relativeStartTime`;
  if (given) {
    const reason = 'given as an option (`relativeStartTime`)';
    return {
      relativeStartTime: given,
      evidence: { path: at, choice: given, reason, confidence: 'high' },
    };
  }
  if (fromUnits) {
    const reason = 'the date in the time dataset’s CF units (“… since <date>”)';
    return {
      relativeStartTime: fromUnits,
      evidence: { path: at, choice: fromUnits, reason, confidence: 'high' },
    };
  }
  const fromName = startTimeFromFileName(file);
  if (!fromName) return none;
  return {
    relativeStartTime: fromName,
    evidence: {
      path: at,
      choice: fromName,
      reason: 'a date in the file name',
      confidence: 'medium',
    },
  };
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

function memberOrder(p: Planned): number {
  if (p.valueField === undefined) return 0;
  return (p.value.type.members ?? []).findIndex((m) => m.name === p.valueField);
}

function timeLabel(t: TimeSource): string {
  if (t.member !== undefined) return `${t.dataset.path} member ${t.member}`;
  if (t.column !== undefined) return `${t.dataset.path} column ${t.column}`;
  return t.dataset.path;
}

function sourceLabel(p: Planned): string {
  if (p.valueField !== undefined) return `${p.value.path} member ${p.valueField}`;
  if (p.valueIndex !== undefined) return `${p.value.path} column ${p.valueIndex}`;
  return p.value.path;
}

function findTimeFor(
  ds: Hdf5Dataset,
  n: number,
  byPath: Map<string, Hdf5Dataset>,
  datasets: Hdf5Dataset[],
  strong: Set<string>,
  forced: Hdf5Dataset | undefined,
): { time?: Hdf5Dataset; how?: string; confidence?: Confidence; skip?: string } {
  if (forced) {
    if (forced.shape?.[0] === n) {
      return { time: forced, how: 'given as an option (`timeDataset`)', confidence: 'high' };
    }
    return {
      skip: `its length ${n} differs from that of the time dataset ${forced.path} (${forced.shape?.[0]})`,
    };
  }
  const scale = ds.dimensionScales?.[0]?.[0];
  if (scale !== undefined) {
    const s = byPath.get(scale);
    if (isUsableTime(s, n)) {
      return {
        time: s,
        how: 'the dimension scale attached to its dimension 0 (DIMENSION_LIST)',
        confidence: 'high',
      };
    }
  }
  const mismatched: string[] = [];
  for (const strongOnly of [true, false]) {
    for (let group = parentOf(ds.path); ; group = parentOf(group)) {
      const here = datasets.filter(
        (d) =>
          d !== ds &&
          parentOf(d.path) === group &&
          d.shape?.length === 1 &&
          canHoldTime(d.type) &&
          (strongOnly
            ? strong.has(d.path) && TIME_NAMES.includes(d.name.toLowerCase())
            : !strong.has(d.path) && timeNameScore(d.name) >= 0.8),
      );
      here.sort((a, b) => rank(a.name) - rank(b.name) || comparePaths(a.path, b.path));
      const match = here.find((d) => isUsableTime(d, n));
      if (match) {
        const where = group === parentOf(ds.path) ? 'its own group' : `the ancestor group ${group}`;
        return {
          time: match,
          how: strongOnly
            ? `a time dataset named ${match.name} of the same length in ${where}`
            : `the dataset ${match.name}, named like time, of the same length in ${where}`,
          confidence: strongOnly ? 'high' : 'medium',
        };
      }
      for (const d of here) mismatched.push(`${d.path} [${d.shape?.[0]}]`);
      if (group === '/') break;
    }
    if (mismatched.length > 0) break;
  }
  if (mismatched.length > 0) {
    return {
      skip: `no time dataset of its length (${n}) in its group or an ancestor: ${mismatched.join(', ')} differ`,
    };
  }
  return { skip: 'no time dataset in its group or an ancestor group, and no dimension scale' };
}

function rank(name: string): number {
  const i = TIME_NAMES.indexOf(name.toLowerCase());
  return i < 0 ? TIME_NAMES.length : i;
}

function planTwoD(
  ds: Hdf5Dataset,
  planned: Planned[],
  skipped: Skip[],
  byPath: Map<string, Hdf5Dataset>,
  usedAsTime: Set<string>,
): void {
  const [n = 0, k = 0] = ds.shape ?? [];
  // A dimension scale on dimension 0 (netCDF-4 `var(time, x)`): time comes from the scale
  // and every column is a channel.
  const scalePath = ds.dimensionScales?.[0]?.[0];
  const scale = scalePath === undefined ? undefined : byPath.get(scalePath);
  const scaled = isUsableTime(scale, n) && k >= 1 && k <= MAX_TWO_D_COLUMNS;
  const refusal = scaled ? typeRefusal(ds) : twoDRefusal(ds, n, k);
  if (refusal !== undefined) {
    skipped.push({ path: ds.path, dataset: ds.path, reason: refusal });
    return;
  }
  if (scaled && scale) {
    pushAll(planned, scaledColumns(ds, scale, n, k));
    usedAsTime.add(scale.path);
    return;
  }
  const columnNames = stringList(attribute(ds, COLUMN_NAME_ATTRIBUTES)?.value, k);
  const named = columnNames?.findIndex((c) => timeNameScore(c) === 1) ?? -1;
  const timeColumn = Math.max(named, 0);
  const notTime = notTimeColumn(ds, timeColumn, named >= 0);
  if (notTime !== undefined) {
    skipped.push({
      path: ds.path,
      dataset: ds.path,
      reason: `shape [${n}, ${k}]: ${notTime}: not a time column (an image or a matrix?); name the time column in a \`columns\` attribute to import it`,
    });
    return;
  }
  pushAll(planned, timedColumns(ds, n, k, columnNames, named));
}

function typeRefusal(ds: Hdf5Dataset): string | undefined {
  const typeChoice = hdf5ChannelTypeOf(ds.type);
  return 'skip' in typeChoice ? typeChoice.skip : undefined;
}

/** Why an [N, k] dataset without a dimension scale cannot hold a time column and values. */
function twoDRefusal(ds: Hdf5Dataset, n: number, k: number): string | undefined {
  if (!isNumeric(ds.type))
    return `a 2-D ${typeName(ds.type)} dataset: the time column of [N, k] datasets must be numeric`;
  if (k < 2) return `shape [${n}, ${k}]: no value column beside a time column`;
  if (k > MAX_TWO_D_COLUMNS)
    return `shape [${n}, ${k}]: more than ${MAX_TWO_D_COLUMNS} columns, an image or a matrix rather than time and values`;
  return typeRefusal(ds);
}

/** Units of column `c`: one per column, or one for all. */
function columnUnits(ds: Hdf5Dataset, k: number): (c: number) => string | undefined {
  const unitsAttr = attribute(ds, UNIT_ATTRIBUTES)?.value;
  const unitsList = stringList(unitsAttr, k);
  return (c) => (unitsList ? unitsList[c] : typeof unitsAttr === 'string' ? unitsAttr : undefined);
}

/** Names a column could have beside the CLI's: by a name attribute, by a column-names attribute. */
function columnAlternatives(
  base: BaseName,
  columnNames: string[] | undefined,
  c: number,
  suffixed: boolean,
): string[] {
  const named = columnNames?.[c];
  return [
    ...base.alternatives,
    ...(suffixed && named !== undefined
      ? [`${base.name}.${named}: the column's name in a columns attribute`]
      : []),
  ];
}

/** Every column of a dataset timed by its dimension scale is a channel. */
function scaledColumns(ds: Hdf5Dataset, scale: Hdf5Dataset, n: number, k: number): Planned[] {
  const base = baseName(ds);
  const columnNames = stringList(attribute(ds, COLUMN_NAME_ATTRIBUTES)?.value, k);
  const unitsOf = columnUnits(ds, k);
  return Array.from({ length: k }, (_, c): Planned => {
    const suffix = k === 1 ? '' : `.${c}`;
    const units = unitsOf(c);
    return {
      layout: 'TWO_D',
      time: { dataset: scale },
      value: ds,
      valueIndex: c,
      type: ds.type,
      name: `${base.name}${suffix}`,
      nameReason: `${base.reason}${suffix ? ' and the column index' : ''}`,
      nameAlternatives: columnAlternatives(base, columnNames, c, suffix !== ''),
      ...(units ? { units } : {}),
      reason: `TWO_D: ${ds.path} is [${n}, ${k}] and its dimension 0 has the dimension scale ${scale.path} (DIMENSION_LIST): time from the scale, one channel per column`,
      confidence: 'high',
    };
  });
}

/** Every column but the time column (the one named like time, else the first) is a channel. */
function timedColumns(
  ds: Hdf5Dataset,
  n: number,
  k: number,
  columnNames: string[] | undefined,
  named: number,
): Planned[] {
  const timeColumn = Math.max(named, 0);
  const base = baseName(ds);
  const unitsOf = columnUnits(ds, k);
  const description = stringAttribute(ds, DESCRIPTION_ATTRIBUTES)?.value;
  const planned: Planned[] = [];
  for (let c = 0; c < k; c++) {
    if (c === timeColumn) continue;
    // The CLI names each column of a 2-D dataset by its index, [N, 2] ones too.
    const suffix = `.${c}`;
    const units = unitsOf(c);
    planned.push({
      layout: 'TWO_D',
      time: { dataset: ds, column: timeColumn },
      value: ds,
      valueIndex: c,
      type: ds.type,
      name: `${base.name}${suffix}`,
      nameReason: `${base.reason} and the column index`,
      nameAlternatives: columnAlternatives(base, columnNames, c, true),
      ...(units ? { units } : {}),
      ...(description !== undefined && k === 2 ? { description } : {}),
      reason: `TWO_D: ${ds.path} is [${n}, ${k}] with time in column ${timeColumn}${named >= 0 ? ` (named ${columnNames?.[named]})` : ''} and values in column ${c}`,
      confidence: named >= 0 || k === 2 ? 'high' : 'medium',
    });
  }
  return planned;
}

/**
 * Why column `c` of an [N, k] dataset cannot be its time, or undefined when it can: a time
 * column never goes down, and one not named as time must also change (a constant column 0
 * is an image or a matrix of zeros, not a clock). Judged on the rows read (head and tail).
 */
function notTimeColumn(ds: Hdf5Dataset, c: number, named: boolean): string | undefined {
  const values = [...(ds.head ?? []), ...(ds.tail ?? [])].map((r) => r[c] ?? '');
  const shown = `${values.slice(0, 3).join(', ')} …`;
  if (values.length > 1 && !isIncreasing(values)) return `column ${c} does not increase (${shown})`;
  if (named) return undefined;
  if (values.length < 2) return `column ${c} has fewer than two rows: nothing shows it is time`;
  if (values.every((v) => v === values[0])) return `column ${c} is constant (${shown})`;
  return undefined;
}

function planCompound(ds: Hdf5Dataset, planned: Planned[], skipped: Skip[]): void {
  const members = ds.type.members ?? [];
  const named = members.findIndex((m) => timeNameScore(m.name) === 1);
  const time = members[Math.max(named, 0)];
  if (!time || !canHoldTime(time.type)) {
    skipped.push({
      path: ds.path,
      dataset: ds.path,
      reason: time
        ? `compound whose time member ${time.name} is ${typeName(time.type)}, not numeric or text`
        : 'a compound with no members',
    });
    return;
  }
  const base = baseName(ds);
  const unitsList = stringList(attribute(ds, UNIT_ATTRIBUTES)?.value, members.length);
  let any = false;
  members.forEach((m, i) => {
    if (m === time) return;
    const choice = hdf5ChannelTypeOf(m.type);
    if ('skip' in choice) {
      skipped.push({
        path: `${ds.path}.${m.name}`,
        dataset: ds.path,
        reason: `member of a compound: ${choice.skip}`,
      });
      return;
    }
    any = true;
    const units = unitsList?.[i];
    planned.push({
      layout: 'COMPOUND',
      time: { dataset: ds, member: time.name },
      value: ds,
      valueField: m.name,
      type: m.type,
      name: `${base.name}.${m.name}`,
      nameReason: `${base.reason} and the member name`,
      nameAlternatives: base.alternatives.map((a) => `${a}, with the member name`),
      ...(units ? { units } : {}),
      reason: `COMPOUND: ${ds.path} has the time member ${time.name} (${named >= 0 ? 'named like time' : 'no member is named like time: the first member'}) and the value member ${m.name}`,
      confidence: named >= 0 ? 'high' : 'medium',
      ...(named < 0 ? { alternatives: ['pass the right member by editing timeField'] } : {}),
    });
  });
  if (!any)
    skipped.push({
      path: ds.path,
      dataset: ds.path,
      reason: 'a compound with no value member of a channel type',
    });
}
