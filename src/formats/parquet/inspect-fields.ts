/**
 * Each top-level column of a Parquet footer as a field profile: its physical and logical
 * types in words, nested kind, units and description (Arrow field metadata), and its
 * statistics aggregated over the row groups.
 */

import type { ColumnMetaData, FileMetaData, SchemaElement, SchemaTree } from 'hyparquet';
import { arrowFieldMetadata } from './arrow-schema.js';
import type { NestedKind, ParquetFieldProfile } from './profile.js';

export function fieldProfile(
  node: SchemaTree,
  index: number,
  md: FileMetaData,
  leafIndex: Map<string, number>,
  arrowMetadata: Record<string, string> | undefined,
): ParquetFieldProfile {
  const e = node.element;
  const repetition = e.repetition_type ?? 'OPTIONAL';
  const base = {
    name: e.name,
    path: e.name,
    index,
    repetition,
    samples: [] as string[],
    ...(arrowMetadata && Object.keys(arrowMetadata).length > 0 ? { arrowMetadata } : {}),
    ...unitsAndDescription(arrowMetadata),
  };
  if (node.children.length > 0 || repetition === 'REPEATED') {
    const leaves: string[] = [];
    const collect = (n: SchemaTree) => {
      if (n.children.length === 0) leaves.push(n.path.join('.'));
      for (const c of n.children) collect(c);
    };
    collect(node);
    const logical = logicalTypeText(e);
    return {
      ...base,
      physicalType: node.children.length > 0 ? 'GROUP' : (e.type ?? 'GROUP'),
      ...(logical ? { logicalType: logical } : {}),
      nested: nestedKind(node),
      leaves,
      statsComplete: false,
      dictionary: false,
    };
  }
  const col = leafIndex.get(node.path.join('\u0000')) ?? -1;
  const chunks = md.row_groups
    .map((rg) => rg.columns[col]?.meta_data)
    .filter((m): m is ColumnMetaData => m !== undefined);
  const { stats: allStats, complete, nullCount } = aggregateStats(e, chunks);
  // Bounds of opaque bytes are not text: keep them out of the profile.
  const opaque =
    (e.type === 'BYTE_ARRAY' || e.type === 'FIXED_LEN_BYTE_ARRAY') &&
    !['STRING', 'UTF8', 'ENUM', 'JSON', 'UUID', 'DECIMAL', 'FLOAT16'].includes(
      e.logical_type?.type ?? e.converted_type ?? '',
    );
  const stats = opaque ? undefined : allStats;
  const first = chunks[0];
  const logical = logicalTypeText(e);
  const integer = integerOf(e);
  const temporal = temporalOf(e);
  const decimal = decimalOf(e);
  return {
    ...base,
    physicalType: e.type ?? 'GROUP',
    ...(logical ? { logicalType: logical } : {}),
    ...(integer ? { integer } : {}),
    ...(temporal ? { temporal } : {}),
    ...(decimal ? { decimal } : {}),
    ...(e.type_length !== undefined ? { typeLength: e.type_length } : {}),
    ...(stats ? { stats } : {}),
    ...(nullCount !== undefined ? { nullCount } : {}),
    statsComplete: complete,
    dictionary:
      first !== undefined &&
      (first.dictionary_page_offset !== undefined ||
        first.encodings.some((x) => x === 'PLAIN_DICTIONARY' || x === 'RLE_DICTIONARY')),
  };
}

function unitsAndDescription(meta: Record<string, string> | undefined): {
  units?: string;
  description?: string;
} {
  if (!meta) return {};
  const units = meta.unit ?? meta.units;
  const description = meta.description;
  return {
    ...(units ? { units } : {}),
    ...(description ? { description } : {}),
  };
}

function nestedKind(node: SchemaTree): NestedKind {
  const e = node.element;
  if (e.logical_type?.type === 'LIST' || e.converted_type === 'LIST') return 'list';
  if (
    e.logical_type?.type === 'MAP' ||
    e.converted_type === 'MAP' ||
    e.converted_type === 'MAP_KEY_VALUE'
  ) {
    return 'map';
  }
  if (e.repetition_type === 'REPEATED') return 'list';
  return 'struct';
}

function integerOf(e: SchemaElement): { bitWidth: number; signed: boolean } | undefined {
  const lt = e.logical_type;
  if (lt?.type === 'INTEGER') return { bitWidth: lt.bitWidth, signed: lt.isSigned };
  const m = /^(U?)INT_(8|16|32|64)$/.exec(e.converted_type ?? '');
  if (m) return { bitWidth: Number(m[2]), signed: m[1] === '' };
  return undefined;
}

function temporalOf(e: SchemaElement): ParquetFieldProfile['temporal'] {
  const lt = e.logical_type;
  if (lt?.type === 'TIMESTAMP')
    return { kind: 'TIMESTAMP', unit: lt.unit, utc: lt.isAdjustedToUTC };
  if (lt?.type === 'TIME') return { kind: 'TIME', unit: lt.unit, utc: lt.isAdjustedToUTC };
  if (lt?.type === 'DATE' || e.converted_type === 'DATE') return { kind: 'DATE' };
  // Converted types alone (older writers) mean UTC-adjusted instants.
  if (e.converted_type === 'TIMESTAMP_MILLIS')
    return { kind: 'TIMESTAMP', unit: 'MILLIS', utc: true };
  if (e.converted_type === 'TIMESTAMP_MICROS')
    return { kind: 'TIMESTAMP', unit: 'MICROS', utc: true };
  if (e.converted_type === 'TIME_MILLIS') return { kind: 'TIME', unit: 'MILLIS', utc: true };
  if (e.converted_type === 'TIME_MICROS') return { kind: 'TIME', unit: 'MICROS', utc: true };
  if (e.type === 'INT96') return { kind: 'INT96' };
  return undefined;
}

function decimalOf(e: SchemaElement): { precision: number; scale: number } | undefined {
  const lt = e.logical_type;
  if (lt?.type === 'DECIMAL') return { precision: lt.precision, scale: lt.scale };
  if (e.converted_type === 'DECIMAL') return { precision: e.precision ?? 0, scale: e.scale ?? 0 };
  return undefined;
}

/** The logical (or, for older writers, converted) type in words. */
export function logicalTypeText(e: SchemaElement): string | undefined {
  const lt = e.logical_type;
  if (lt) {
    switch (lt.type) {
      case 'TIMESTAMP':
      case 'TIME':
        return `${lt.type}(${lt.unit}, ${lt.isAdjustedToUTC ? 'UTC' : 'local'})`;
      case 'INTEGER':
        return `INTEGER(${lt.bitWidth}, ${lt.isSigned ? 'signed' : 'unsigned'})`;
      case 'DECIMAL':
        return `DECIMAL(${lt.precision}, ${lt.scale})`;
      default:
        return lt.type;
    }
  }
  return e.converted_type;
}

type Stat = string | number;

type MinMaxType = NonNullable<NonNullable<ColumnMetaData['statistics']>['min']>;

/** Min and max over every row group, exact (64-bit integers as decimal strings). */
function aggregateStats(
  e: SchemaElement,
  chunks: ColumnMetaData[],
): { stats?: { min?: Stat; max?: Stat }; complete: boolean; nullCount?: number } {
  let min: MinMaxType | undefined;
  let max: MinMaxType | undefined;
  let complete = chunks.length > 0;
  let nulls: number | undefined = 0;
  // Old-style min/max used signed byte order; trust them only where that order is right.
  const legacyOk =
    e.type !== 'BYTE_ARRAY' &&
    e.type !== 'FIXED_LEN_BYTE_ARRAY' &&
    e.type !== 'INT96' &&
    integerOf(e)?.signed !== false;
  for (const c of chunks) {
    const s = c.statistics;
    const lo = s?.min_value ?? (legacyOk ? s?.min : undefined);
    const hi = s?.max_value ?? (legacyOk ? s?.max : undefined);
    if (lo === undefined || hi === undefined || !scalar(lo) || !scalar(hi)) complete = false;
    if (lo !== undefined && scalar(lo) && (min === undefined || less(lo, min))) min = lo;
    if (hi !== undefined && scalar(hi) && (max === undefined || less(max, hi))) max = hi;
    if (s?.null_count === undefined || nulls === undefined) nulls = undefined;
    else nulls += Number(s.null_count);
  }
  const out: { min?: Stat; max?: Stat } = {};
  if (min !== undefined) out.min = statText(min);
  if (max !== undefined) out.max = statText(max);
  return {
    ...(min !== undefined || max !== undefined ? { stats: out } : {}),
    complete,
    ...(nulls !== undefined && chunks.length > 0 ? { nullCount: nulls } : {}),
  };
}

function scalar(v: MinMaxType): boolean {
  return (
    typeof v === 'bigint' ||
    typeof v === 'number' ||
    typeof v === 'string' ||
    typeof v === 'boolean'
  );
}

function less(a: MinMaxType, b: MinMaxType): boolean {
  if (typeof a === 'bigint' || typeof b === 'bigint') {
    try {
      return BigInt(a as bigint | number) < BigInt(b as bigint | number);
    } catch {
      return false;
    }
  }
  if (typeof a === 'boolean' || typeof b === 'boolean') return Number(a) < Number(b);
  return (a as number | string) < (b as number | string);
}

function statText(v: MinMaxType): Stat {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'string') return v;
  return String(v);
}

/**
 * Field metadata of the embedded Arrow schema, by top-level field name. The `ARROW:schema`
 * entry is a base64 Arrow IPC schema message, decoded by `arrowFieldMetadata` (a small
 * flatbuffer reader: a full Arrow implementation is 12 MB installed for this one read).
 */
export function readArrowFieldMetadata(md: FileMetaData): Map<string, Record<string, string>> {
  const entry = md.key_value_metadata?.find((kv) => kv.key === 'ARROW:schema');
  if (!entry?.value) return new Map();
  try {
    return arrowFieldMetadata(Uint8Array.from(Buffer.from(entry.value, 'base64')));
  } catch {
    // A damaged ARROW:schema only loses units and descriptions; the Parquet schema rules.
    return new Map();
  }
}
