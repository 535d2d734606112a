/** What a config names: its columns, channels and time column, read per kind. */
import type { BaseProfile, Ch10Profile, Hdf5Dataset } from '../inspect/index.js';
import type { ConfigKind, TimeFormat } from '../model/index.js';
import { isUnixFormat, MS_PER_UNIT } from '../model/plain.js';
import { configChannels } from '../validate/index.js';

export interface NamedColumn {
  /** 1-based column number (CSV). */
  column?: number;
  /** A column path (Parquet) or dataset path (HDF5). */
  name?: string;
  /** Where in the config, in words. */
  where: string;
}

export interface NamedChannel {
  name: string;
  dataType?: string;
  units?: string;
  description?: string;
  enumTypes?: Array<{ name?: string; key?: number; isSigned?: boolean }>;
  bitFieldElements?: Array<{ name?: string; index?: number; bitCount?: number }>;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
const arr = (v: unknown): Obj[] =>
  Array.isArray(v) ? v.map(obj).filter((x): x is Obj => !!x) : [];
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

export function columnsNamed(kind: string, config: Obj): NamedColumn[] {
  const out: NamedColumn[] = [];
  if (kind === 'csv') {
    if (config.useEmbeddedConfig === true) return out;
    const tc = obj(config.timeColumn);
    if (typeof tc?.columnNumber === 'number')
      out.push({ column: tc.columnNumber, where: 'timeColumn' });
    for (const [k, v] of Object.entries(obj(config.dataColumns) ?? {})) {
      const name = str(obj(v)?.name);
      out.push({
        column: Number(k),
        where: `dataColumns '${k}'${name ? `, channel '${name}'` : ''}`,
      });
    }
  } else if (kind === 'parquet') {
    const flat = obj(config.flatDataset);
    const single = obj(config.singleChannelPerRow);
    const layout = flat ?? single;
    const layoutName = flat ? 'flatDataset' : 'singleChannelPerRow';
    if (!layout) return out;
    if (flat?.useEmbeddedConfig === true) return out;
    const tp = str(obj(layout.timeColumn)?.path);
    if (tp) out.push({ name: tp, where: `${layoutName}.timeColumn` });
    for (const c of arr(flat?.dataColumns)) {
      const p = str(c.path);
      if (p) out.push({ name: p, where: 'flatDataset.dataColumns' });
    }
    for (const c of arr(single?.columns)) {
      const p = str(c.path);
      if (p) out.push({ name: p, where: 'singleChannelPerRow.columns' });
    }
    const sc = obj(single?.singleChannel);
    const mc = obj(single?.multiChannel);
    for (const [p, where] of [
      [str(sc?.dataPath), 'singleChannel.dataPath'],
      [str(mc?.namePath), 'multiChannel.namePath'],
      [str(mc?.dataPath), 'multiChannel.dataPath'],
    ] as const) {
      if (p) out.push({ name: p, where: `singleChannelPerRow.${where}` });
    }
  } else if (kind === 'hdf5') {
    arr(config.data).forEach((d, i) => {
      const t = str(d.timeDataset);
      const v = str(d.valueDataset);
      if (t) out.push({ name: t, where: `data[${i}].timeDataset` });
      if (v) out.push({ name: v, where: `data[${i}].valueDataset` });
    });
  }
  return out;
}

function channel(v: unknown): NamedChannel | undefined {
  const c = obj(v);
  const name = str(c?.name);
  if (!c || !name) return undefined;
  const out: NamedChannel = { name };
  if (str(c.dataType)) out.dataType = c.dataType as string;
  if (str(c.units)) out.units = c.units as string;
  if (str(c.description)) out.description = c.description as string;
  if (Array.isArray(c.enumTypes)) out.enumTypes = arr(c.enumTypes);
  if (Array.isArray(c.bitFieldElements)) out.bitFieldElements = arr(c.bitFieldElements);
  return out;
}

/** The channels a config declares, by name (the validator's walk of a config's channels). */
export function channelsOf(kind: string, config: Obj): NamedChannel[] {
  return configChannels(kind as ConfigKind, config)
    .map(channel)
    .filter((c): c is NamedChannel => !!c);
}

/** One time value as an ISO timestamp, in the config's format; undefined when it cannot say. */
export function timeValueToIso(
  value: unknown,
  format: string | undefined,
  relativeStart?: string,
): string | undefined {
  if (value === undefined || value === null || !format) return undefined;
  const text = String(value).trim();
  let ms: number | undefined;
  if (format === 'TIME_FORMAT_ABSOLUTE_RFC3339' || format === 'TIME_FORMAT_ABSOLUTE_DATETIME') {
    const t = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text.replace(' ', 'T')}Z`);
    ms = Number.isNaN(t) ? undefined : t;
  } else {
    const per = MS_PER_UNIT[format as TimeFormat];
    const n = Number(text);
    if (per !== undefined && isUnixFormat(format as TimeFormat))
      ms = Number.isFinite(n) ? n * per : undefined;
    else if (per !== undefined && relativeStart) {
      const base = Date.parse(relativeStart);
      ms = Number.isFinite(n) && !Number.isNaN(base) ? base + n * per : undefined;
    }
  }
  if (ms === undefined || !Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return undefined;
  return new Date(ms).toISOString();
}

/** dataStartTime / dataStopTime from the time field's statistics, where the profile has them. */
export function timeOf(
  kind: string,
  config: Obj,
  profile: BaseProfile,
): { start?: string; stop?: string } {
  let format: string | undefined;
  let relative: string | undefined;
  let field: BaseProfile['fields'][number] | undefined;
  if (kind === 'csv') {
    const tc = obj(config.timeColumn);
    format = str(tc?.format);
    relative = str(tc?.relativeStartTime);
    const n = tc?.columnNumber;
    field =
      profile.fields.find((f) => f.column === n) ??
      (typeof n === 'number' ? profile.fields[n - 1] : undefined);
  } else if (kind === 'parquet') {
    const layout = obj(config.flatDataset) ?? obj(config.singleChannelPerRow);
    const tc = obj(layout?.timeColumn);
    format = str(tc?.format);
    relative = str(tc?.relativeStartTime);
    const p = str(tc?.path);
    field = profile.fields.find((f) => f.path === p || f.name === p);
  } else if (kind === 'hdf5') {
    return hdf5TimeRange(config, profile);
  } else if (kind === 'ch10') {
    return ch10TimeRange(profile as Ch10Profile);
  }
  if (!field) return {};
  const lo = field.stats?.min;
  const hi = field.stats?.max;
  const out: { start?: string; stop?: string } = {};
  const start = timeValueToIso(lo, format, relative);
  const stop = timeValueToIso(hi, format, relative);
  if (start) out.start = start;
  if (stop) out.stop = stop;
  return out;
}

/**
 * CH10: UTC of the first and last packet, when a time packet gives a date with its year
 * (the day-of-year format has none: then no range, rather than a guessed year). Relative
 * times alone (the packets' relative time counter) give no date range.
 */
function ch10TimeRange(profile: Ch10Profile): { start?: string; stop?: string } {
  const { start, stop } = profile.packets;
  return { ...(start ? { start } : {}), ...(stop ? { stop } : {}) };
}

/**
 * HDF5: the first and last values of every entry's time (a 1-D dataset, the `timeIndex`
 * column of an [N, k] one, the `timeField` member of a compound), read from the head and
 * tail rows the inspection samples; the earliest first and the latest last.
 */
function hdf5TimeRange(config: Obj, profile: BaseProfile): { start?: string; stop?: string } {
  const format = str(config.timeFormat);
  const relative = str(config.relativeStartTime);
  const datasets = (profile as { datasets?: Hdf5Dataset[] }).datasets ?? [];
  const byPath = new Map(datasets.map((d) => [d.path.replace(/^\//, ''), d]));
  const starts: string[] = [];
  const stops: string[] = [];
  for (const entry of arr(config.data)) {
    const d = byPath.get(str(entry.timeDataset)?.replace(/^\//, '') ?? '');
    const first = d?.head?.[0];
    const last = d?.tail?.at(-1) ?? d?.head?.at(-1);
    if (!d || !first || !last) continue;
    const field = str(entry.timeField);
    const index = field
      ? (d.type.members?.findIndex((m) => m.name === field) ?? -1)
      : Number(str(entry.timeIndex) ?? entry.timeIndex ?? 0);
    const start = timeValueToIso(first[index], format, relative);
    const stop = timeValueToIso(last[index], format, relative);
    if (start) starts.push(start);
    if (stop) stops.push(stop);
  }
  const out: { start?: string; stop?: string } = {};
  if (starts.length > 0) out.start = starts.sort()[0] as string;
  if (stops.length > 0) out.stop = stops.sort().at(-1) as string;
  return out;
}
