/**
 * The layout of each dataset of an HDF5 draft: ONE_D (a 1-D value dataset with the time
 * dataset found for it), TWO_D (an [N, k] dataset with a time column or a dimension scale)
 * or COMPOUND (a time member and value members), or left out with why.
 */

import type { Confidence } from '../../infer/shared.js';
import { timeNameScore } from '../../infer/shared.js';
import { pushAll } from '../../model/plain.js';
import { hdf5ChannelTypeOf } from './channel-types.js';
import {
  attribute,
  type BaseName,
  baseName,
  COLUMN_NAME_ATTRIBUTES,
  canHoldTime,
  comparePaths,
  DESCRIPTION_ATTRIBUTES,
  isNumeric,
  parentOf,
  stringAttribute,
  stringList,
  TIME_NAMES,
  UNIT_ATTRIBUTES,
} from './infer-datasets.js';
import { isIncreasing, type TimeSource } from './infer-time.js';
import { type Hdf5Dataset, type Hdf5Type, MAX_TWO_D_COLUMNS, typeName } from './inspect.js';

type LayoutName = 'ONE_D' | 'TWO_D' | 'COMPOUND';

export interface Planned {
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

export interface Skip {
  /** What was left out: a dataset path, or `<dataset>.<member>`. */
  path: string;
  dataset: string;
  reason: string;
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

/** Every dataset planned into a layout (ONE_D, TWO_D, COMPOUND) or left out, in path order. */
export function planLayouts(
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
  const ctx = { byPath, timesIn: timesByGroup(datasets, strong), strong, forcedTime };
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
  /** The 1-D datasets that can hold time and are named for it, by their group (timesByGroup). */
  timesIn: TimesIn;
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
      ...findTimeFor(ds, n, search.byPath, search.timesIn, search.forcedTime),
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

function memberOrder(p: Planned): number {
  if (p.valueField === undefined) return 0;
  return (p.value.type.members ?? []).findIndex((m) => m.name === p.valueField);
}

/** Time datasets by group: strongly named ones (`strong`), and others named like time. */
interface TimesIn {
  strong: Map<string, Hdf5Dataset[]>;
  named: Map<string, Hdf5Dataset[]>;
}

/**
 * The 1-D datasets that can hold time, by their group, as findTimeFor looks for them: a
 * search of every dataset for each value dataset made a file of 3,000 datasets 9 M tests.
 */
function timesByGroup(datasets: readonly Hdf5Dataset[], strong: Set<string>): TimesIn {
  const out: TimesIn = { strong: new Map(), named: new Map() };
  for (const d of datasets) {
    if (d.shape?.length !== 1 || !canHoldTime(d.type)) continue;
    const kind = strong.has(d.path)
      ? TIME_NAMES.includes(d.name.toLowerCase()) && out.strong
      : timeNameScore(d.name) >= 0.8 && out.named;
    if (!kind) continue;
    const group = parentOf(d.path);
    const list = kind.get(group);
    if (list) list.push(d);
    else kind.set(group, [d]);
  }
  return out;
}

function findTimeFor(
  ds: Hdf5Dataset,
  n: number,
  byPath: Map<string, Hdf5Dataset>,
  timesIn: TimesIn,
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
      const here = ((strongOnly ? timesIn.strong : timesIn.named).get(group) ?? []).filter(
        (d) => d !== ds,
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
