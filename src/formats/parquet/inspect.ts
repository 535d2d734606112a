/**
 * Parquet inspection from the footer alone.
 *
 * Which package decodes the footer, and why: hyparquet. It decodes the raw Thrift footer
 * from bytes we read ourselves (`parquetMetadata(tail)`), in pure JS and in a few ms, and
 * gives everything a ParquetConfig needs: the Parquet schema tree with physical, converted
 * and logical types (signed or unsigned integers, DECIMAL, INT96, FLOAT16, UUID, nested
 * groups), per-row-group statistics (min / max / null count, used to judge a time column's
 * unit and the data's time range) and the page offsets of every column chunk (for the one
 * small page that inference may read). parquet-wasm's `readSchema(footer)` also reads just
 * the footer, but returns only the Arrow schema converted from it: no statistics, no page
 * offsets, and Parquet's own types folded into Arrow's; it would also load a 4 MB wasm
 * module for a job of a few KiB.
 *
 * Arrow field metadata (units, descriptions, the platform's embedded channel configs)
 * lives in the footer's `ARROW:schema` entry (a base64 Arrow IPC schema message), decoded
 * by a small flatbuffer reader of our own (`arrow-schema.ts`, see `readArrowFieldMetadata`).
 */

import {
  type ColumnMetaData,
  type Compressors,
  type DataReader,
  type FileMetaData,
  type PageHeader,
  type ParquetParsers,
  parquetMetadata,
  parquetSchema,
  type SchemaElement,
  type SchemaTree,
} from 'hyparquet';
import {
  type BaseProfile,
  type ByteSource,
  type FieldProfile,
  InspectError,
  openForInspection,
  refuseEmptyFile,
} from '../../inspect/shared.js';
import type { Issue } from '../../model/plain.js';
import { arrowFieldMetadata } from './arrow-schema.js';
import { footerLeafCount } from './width.js';

/** What a nested (group or repeated) top-level column is. */
export type NestedKind = 'struct' | 'list' | 'map';

/** One top-level column of a Parquet file. */
export interface ParquetFieldProfile extends FieldProfile {
  name: string;
  /** Dotted path of the column (the top-level name; leaves of nested columns in `leaves`). */
  path: string;
  /** 0-based position among the top-level columns. */
  index: number;
  /** BOOLEAN, INT32, INT64, INT96, FLOAT, DOUBLE, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, or GROUP. */
  physicalType: string;
  /** The logical type in words: `STRING`, `TIMESTAMP(MICROS, UTC)`, `INTEGER(16, unsigned)`... */
  logicalType?: string;
  repetition: 'REQUIRED' | 'OPTIONAL' | 'REPEATED';
  /** Set for nested columns (groups or repeated fields), which are not plain channels. */
  nested?: NestedKind;
  /** Leaf paths under a nested column. */
  leaves?: string[];
  /** Integer width and sign from the logical or converted type. */
  integer?: { bitWidth: number; signed: boolean };
  /** TIMESTAMP and TIME details. */
  temporal?: {
    kind: 'TIMESTAMP' | 'TIME' | 'DATE' | 'INT96';
    unit?: 'MILLIS' | 'MICROS' | 'NANOS';
    utc?: boolean;
  };
  decimal?: { precision: number; scale: number };
  typeLength?: number;
  /** True when every row group has min and max statistics for this column. */
  statsComplete: boolean;
  /** True when the first row group stores the column with a dictionary page. */
  dictionary: boolean;
  /** Field metadata from the embedded Arrow schema (`unit`, `description`, ...). */
  arrowMetadata?: Record<string, string>;
}

export interface ParquetProfile extends BaseProfile {
  format: 'parquet';
  fields: ParquetFieldProfile[];
  /** Byte offset of the footer metadata, as a decimal string (fileSize - footerLength - 8). */
  footerOffset: string;
  footerLength: number;
  rowCount: number;
  rowGroups: number;
  createdBy?: string;
  /** Keys of the file's key-value metadata (`ARROW:schema`, `pandas`...). */
  metadataKeys: string[];
}

const MAGIC = 0x31524150; // 'PAR1' little-endian
const MAGIC_ENCRYPTED = 0x45524150; // 'PARE'
/** Footers of real files reach a few MiB (thousands of columns, many row groups); memory stays bounded. */
export const MAX_FOOTER = 256 * 1024 * 1024;
/** Leaf columns inspected at most; a wider schema is refused (`parquet_too_many_columns`). */
export const MAX_PARQUET_COLUMNS = 10_000;

/**
 * Statistics decoded exactly: timestamps, dates and 64-bit integers stay raw integers
 * (hyparquet's defaults would turn timestamps into `Date` and lose sub-millisecond digits).
 */
const RAW_PARSERS: Partial<ParquetParsers> = {
  timestampFromMilliseconds: (v: bigint) => v,
  timestampFromMicroseconds: (v: bigint) => v,
  timestampFromNanoseconds: (v: bigint) => v,
  dateFromDays: (v: number) => v,
};

/** The decoded footer with where it sits. */
export interface ParquetFooter {
  metadata: FileMetaData;
  footerOffset: number;
  footerLength: number;
  /** The schema tree (root's children are the top-level columns). */
  tree: SchemaTree;
}

function fail(source: ByteSource, code: Issue['code'], message: string, hint?: string): never {
  throw new InspectError({
    code,
    severity: 'error',
    path: '',
    message: `${source.name}: ${message}`,
    ...(hint ? { hint } : {}),
    source: { file: source.name },
  });
}

function u32(bytes: Uint8Array, at: number): number {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(at, true);
}

/**
 * Reads and decodes the footer: the last 8 bytes (footer length + `PAR1`), the first 4
 * (the leading `PAR1`), then the footer itself. Nothing else is read.
 */
export async function readParquetFooter(source: ByteSource): Promise<ParquetFooter> {
  const size = source.size;
  if (size < 12) await refuseTooShort(source);
  const tail = await source.read(size - 8, 8);
  const head = await source.read(0, 4);
  checkMagic(source, head, tail);
  const { footerOffset, footerLength } = footerPlace(source, tail);
  const footer = await source.read(footerOffset, footerLength);
  // The width first, from a skim of the schema: decoding a footer of 10⁶ columns takes
  // seconds and gigabytes before the decoded schema could be counted.
  checkWidth(source, footerLeafCount(footer));
  const { metadata, tree } = decodeFooter(source, footer, tail, { footerOffset, footerLength });
  return { metadata, footerOffset, footerLength, tree };
}

/** A file under 12 bytes: truncated when it starts with PAR1, else not Parquet at all. */
async function refuseTooShort(source: ByteSource): Promise<never> {
  const size = source.size;
  fail(
    source,
    size >= 4 && u32(await source.read(0, 4), 0) === MAGIC
      ? 'parquet_truncated'
      : 'parquet_not_parquet',
    `${size} bytes: too short for Parquet (at least 12: PAR1, a footer, its length, PAR1)`,
  );
}

/** The magic at both ends (`PAR1`): which one is missing or damaged tells what went wrong. */
function checkMagic(source: ByteSource, head: Uint8Array, tail: Uint8Array): void {
  const headOk = u32(head, 0) === MAGIC;
  const tailMagic = u32(tail, 4);
  if (tailMagic === MAGIC_ENCRYPTED) {
    fail(source, 'parquet_encrypted_footer', 'the footer is encrypted (the file ends with PARE)');
  }
  if (tailMagic !== MAGIC) {
    if (!headOk) {
      fail(source, 'parquet_not_parquet', 'not a Parquet file (no PAR1 at its start or end)');
    }
    if (nearlyMagic(tail.subarray(4))) {
      fail(
        source,
        'parquet_bad_magic',
        `damaged magic at the end (${quoteBytes(tail.subarray(4))}, expected PAR1)`,
      );
    }
    fail(
      source,
      'parquet_truncated',
      'truncated: it starts with PAR1 but does not end with a footer and PAR1',
      'Copy or write the file again; the writer must finish for the footer to exist.',
    );
  }
  if (!headOk) {
    fail(
      source,
      'parquet_bad_magic',
      `damaged magic at the start (${quoteBytes(head)}, expected PAR1) though it ends with PAR1`,
    );
  }
}

/** Where the footer sits, from the length before the trailing magic; refused when it cannot. */
function footerPlace(
  source: ByteSource,
  tail: Uint8Array,
): { footerOffset: number; footerLength: number } {
  const size = source.size;
  const footerLength = u32(tail, 0);
  const footerOffset = size - 8 - footerLength;
  if (footerLength === 0 || footerOffset < 4) {
    fail(
      source,
      'parquet_footer_length_invalid',
      `footer length ${footerLength} does not fit in a file of ${size} bytes`,
    );
  }
  if (footerLength > MAX_FOOTER) {
    fail(
      source,
      'parquet_footer_length_invalid',
      `footer length ${footerLength} is over the ${MAX_FOOTER / 1024 / 1024} MiB importkit reads (a corrupt length, or a footer too large to inspect)`,
    );
  }
  return { footerOffset, footerLength };
}

/** Decodes the footer's metadata and schema tree; a footer that does not decode is corrupt. */
function decodeFooter(
  source: ByteSource,
  footer: Uint8Array,
  tail: Uint8Array,
  place: { footerOffset: number; footerLength: number },
): { metadata: FileMetaData; tree: SchemaTree } {
  const { footerOffset, footerLength } = place;
  const buf = new Uint8Array(footerLength + 8);
  buf.set(footer, 0);
  buf.set(tail, footerLength);
  let metadata: FileMetaData;
  let tree: SchemaTree;
  try {
    metadata = parquetMetadata(buf, { parsers: RAW_PARSERS, geoparquet: false });
  } catch (err) {
    footerCorrupt(source, err);
  }
  if (Array.isArray(metadata.schema)) {
    checkWidth(source, metadata.schema.filter((e) => !e.num_children).length);
  }
  try {
    tree = parquetSchema(metadata);
    checkMetadata(metadata, footerOffset);
  } catch (err) {
    footerCorrupt(source, err);
  }
  return { metadata, tree };
}

function footerCorrupt(source: ByteSource, err: unknown): never {
  const why = err instanceof Error ? err.message.replace(/^parquet\s*/, '') : String(err);
  fail(source, 'parquet_footer_corrupt', `the footer cannot be decoded (${why})`);
}

/** Refuses a schema wider than MAX_PARQUET_COLUMNS leaves, before anything walks its columns. */
function checkWidth(source: ByteSource, leaves: number | undefined): void {
  if (leaves !== undefined && leaves > MAX_PARQUET_COLUMNS) {
    fail(
      source,
      'parquet_too_many_columns',
      `${leaves} leaf columns: more than the ${MAX_PARQUET_COLUMNS} importkit inspects`,
      'Write the data with fewer columns, or split it into several files.',
    );
  }
}

/** Checks what the decoder does not: a schema with a root, column chunks inside the file. */
function checkMetadata(md: FileMetaData, footerOffset: number): void {
  if (!Array.isArray(md.schema) || md.schema.length === 0) throw new Error('no schema');
  if (!Array.isArray(md.row_groups)) throw new Error('no row groups');
  const leaves = md.schema.filter((e) => !e.num_children).length;
  for (const [g, rg] of md.row_groups.entries()) {
    if (rg.columns.length !== leaves) {
      throw new Error(`row group ${g} has ${rg.columns.length} columns, the schema ${leaves}`);
    }
    for (const c of rg.columns) {
      const m = c.meta_data;
      if (!m) continue;
      const start = Number(chunkStart(m));
      const end = start + Number(m.total_compressed_size);
      if (start < 0 || end > footerOffset) {
        throw new Error(`column ${m.path_in_schema.join('.')} lies outside the data section`);
      }
    }
  }
}

/** Where a column chunk starts: its dictionary page if any (0 is written by some writers for none). */
function chunkStart(m: ColumnMetaData): bigint {
  const d = m.dictionary_page_offset;
  return d !== undefined && d > 0n && d < m.data_page_offset ? d : m.data_page_offset;
}

function nearlyMagic(b: Uint8Array): boolean {
  const want = [0x50, 0x41, 0x52, 0x31];
  return want.filter((x, i) => b[i] === x).length >= 2;
}

function quoteBytes(b: Uint8Array): string {
  return [...b].map((x) => (x >= 0x20 && x < 0x7f ? String.fromCharCode(x) : '.')).join('');
}

/** Reads the footer of a Parquet file and nothing else. */
export async function inspectParquet(path: string): Promise<ParquetProfile> {
  const source = await openForInspection(path);
  try {
    return (await inspectParquetSource(source)).profile;
  } finally {
    await source.close();
  }
}

/** The profile plus what inference needs to read one page more. */
export interface ParquetInspection {
  profile: ParquetProfile;
  footer: ParquetFooter;
}

/** Inspects through a byte source (tests wrap it in a counter). */
export async function inspectParquetSource(source: ByteSource): Promise<ParquetInspection> {
  refuseEmptyFile(source);
  const footer = await readParquetFooter(source);
  const { metadata } = footer;
  const issues: Issue[] = [];
  const arrow = readArrowFieldMetadata(metadata);
  const leafIndex = new Map<string, number>();
  let leafNo = 0;
  const walk = (node: SchemaTree) => {
    if (node.children.length === 0) leafIndex.set(node.path.join('\u0000'), leafNo++);
    for (const c of node.children) walk(c);
  };
  for (const c of footer.tree.children) walk(c);

  const fields = footer.tree.children.map((node, index) =>
    fieldProfile(node, index, metadata, leafIndex, arrow.get(node.element.name)),
  );
  const profile: ParquetProfile = {
    format: 'parquet',
    file: { path: source.name, size: source.size },
    bytesRead: source.bytesRead,
    rowCount: Number(metadata.num_rows),
    fields,
    issues,
    footerOffset: String(footer.footerOffset),
    footerLength: footer.footerLength,
    rowGroups: metadata.row_groups.length,
    metadataKeys: (metadata.key_value_metadata ?? []).map((kv) => kv.key),
    ...(metadata.created_by ? { createdBy: metadata.created_by } : {}),
  };
  return { profile, footer };
}

function fieldProfile(
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

/** Values read from the start of one column. */
export interface ColumnHead {
  /** Values as text (strings as they are; numbers and bigints in decimal). */
  values: string[];
  /** `dictionary`: the column chunk's dictionary page (distinct values); `page`: its first data page. */
  from: 'dictionary' | 'page';
  /** Bytes read for it. */
  bytes: number;
}

/**
 * The profile `importkit inspect` prints: samples are in the pages, not the footer, so the
 * first page of each flat column without samples gives some (reads a little more).
 */
export async function inspectParquetWithSamples(path: string): Promise<ParquetProfile> {
  const source = await openForInspection(path);
  try {
    const { profile, footer } = await inspectParquetSource(source);
    const fields: ParquetFieldProfile[] = [];
    for (const f of profile.fields) {
      const head =
        f.samples.length === 0 && f.name ? await readColumnHead(source, footer, f.name) : undefined;
      fields.push(head && 'values' in head ? { ...f, samples: head.values.slice(0, 3) } : f);
    }
    return { ...profile, fields, bytesRead: source.bytesRead };
  } finally {
    await source.close();
  }
}

/** Why a head could not be read (for an info issue). */
export interface ColumnHeadMissing {
  reason: string;
}

/**
 * Reads the first page of a flat column in its first non-empty row group: the dictionary
 * page when there is one (the distinct values), else the first data page. Reads
 * `firstRead` bytes (64 KiB) at the chunk's start; a page larger than that but at most
 * `maxPage` (1 MiB, the usual writers' page size limit) is completed by one more read.
 * Gives up, with the reason, when the page is larger, compressed with a codec importkit
 * does not decode (LZ4, ZSTD, LZO), or undecodable.
 *
 * hyparquet's public API reads whole column chunks; one page needs its internals
 * (`hyparquet/src/column.js`, `src/convert.js`: reachable through its `./src/*.js` export,
 * but not its documented API, so they may change in any release). package.json therefore
 * pins hyparquet to an exact version (a test keeps it pinned): upgrade it on purpose, with
 * the Parquet tests.
 */
export async function readColumnHead(
  source: ByteSource,
  footer: ParquetFooter,
  column: string,
  { firstRead = 64 * 1024, maxPage = 1024 * 1024 }: { firstRead?: number; maxPage?: number } = {},
): Promise<ColumnHead | ColumnHeadMissing> {
  const chunk = firstChunk(footer, column);
  if ('reason' in chunk) return chunk;
  const { node, meta } = chunk;
  const compressors = await decompressors();
  if (meta.codec !== 'UNCOMPRESSED' && meta.codec !== 'SNAPPY' && !compressors[meta.codec]) {
    return { reason: `its pages are compressed with ${meta.codec}` };
  }
  const start = Number(chunkStart(meta));
  const total = Number(meta.total_compressed_size);
  const bytes = await source.read(start, Math.min(total, firstRead));
  try {
    const page = await firstPage(source, bytes, { start, total, maxPage });
    if ('reason' in page) return page;
    const decoder = {
      pathInSchema: [column],
      type: meta.type,
      element: node.element,
      schemaPath: [footer.tree, node],
      codec: meta.codec,
      compressors,
      parsers: { ...(await defaultParsers()), ...RAW_PARSERS } as ParquetParsers,
      utf8: true,
    };
    const values = await pageValues(page, decoder);
    if (!values) return { reason: 'its first page is empty' };
    return {
      values,
      from: page.header.type === 'DICTIONARY_PAGE' ? 'dictionary' : 'page',
      bytes: page.read,
    };
  } catch (err) {
    return {
      reason: `its first page cannot be decoded (${err instanceof Error ? err.message : String(err)})`,
    };
  }
}

/** A flat column's schema node and its chunk's metadata in the first row group with rows. */
function firstChunk(
  footer: ParquetFooter,
  column: string,
): { node: SchemaTree; meta: ColumnMetaData } | ColumnHeadMissing {
  const node = footer.tree.children.find((c) => c.element.name === column);
  if (!node || node.children.length > 0 || node.element.repetition_type === 'REPEATED') {
    return { reason: `${column} is not a flat column` };
  }
  let col = 0;
  for (const [i, c] of footer.tree.children.entries()) {
    if (c === node) break;
    col += countLeaves(footer.tree.children[i] as SchemaTree);
  }
  const rg = footer.metadata.row_groups.find((g) => g.num_rows > 0n);
  const meta = rg?.columns[col]?.meta_data;
  if (!meta) return { reason: 'no row group with rows' };
  return { node, meta };
}

/** How hyparquet's page reader decodes a column's pages (its `ColumnDecoder`). */
type ColumnDecoder = Parameters<typeof import('hyparquet/src/column.js').readPage>[2];

/** A column chunk's first page, header decoded, with the bytes read for it. */
interface FirstPage {
  reader: DataReader;
  header: PageHeader;
  read: number;
}

/**
 * The first page of a column chunk from the bytes read at its start (`bytes`): its header
 * decoded, and the page completed by one more read when it is larger than those bytes but at
 * most `maxPage`. Throws when the header cannot be decoded.
 */
async function firstPage(
  source: ByteSource,
  bytes: Uint8Array,
  chunk: { start: number; total: number; maxPage: number },
): Promise<FirstPage | ColumnHeadMissing> {
  const { start, total, maxPage } = chunk;
  const { parquetHeader } = await import('hyparquet/src/column.js');
  let read = bytes.byteLength;
  let reader: DataReader = {
    view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    offset: 0,
  };
  const header = parquetHeader(reader);
  if (
    !(header.uncompressed_page_size >= 0 && header.uncompressed_page_size <= 16 * maxPage) ||
    !(header.compressed_page_size >= 0)
  ) {
    return {
      reason: `its first page header is implausible (${header.uncompressed_page_size} bytes)`,
    };
  }
  const need = reader.offset + header.compressed_page_size;
  if (need > bytes.byteLength) {
    if (need > maxPage || need > total) {
      return {
        reason: `its first page (${header.compressed_page_size} bytes) is larger than ${maxPage} bytes`,
      };
    }
    const rest = await source.read(start + bytes.byteLength, need - bytes.byteLength);
    read += rest.byteLength;
    const whole = new Uint8Array(bytes.byteLength + rest.byteLength);
    whole.set(bytes, 0);
    whole.set(rest, bytes.byteLength);
    reader = { view: new DataView(whole.buffer), offset: reader.offset };
  }
  return { reader, header, read };
}

/**
 * The page's values as text (a dictionary page's converted by the column's type), or
 * undefined when the page holds no data. Throws when the page cannot be decoded.
 */
async function pageValues(page: FirstPage, decoder: ColumnDecoder): Promise<string[] | undefined> {
  const { readPage } = await import('hyparquet/src/column.js');
  const result = readPage(page.reader, page.header, decoder, undefined, undefined, 0);
  const data = result.data;
  if (!data) return undefined;
  if (page.header.type === 'DICTIONARY_PAGE') {
    const { convert } = await import('hyparquet/src/convert.js');
    return Array.from(convert(data, decoder) as ArrayLike<unknown>, valueText).filter(
      (v): v is string => v !== undefined,
    );
  }
  return Array.from(data as ArrayLike<unknown>, valueText).filter(
    (v): v is string => v !== undefined,
  );
}

/** GZIP and BROTLI pages through node:zlib (Snappy is built into hyparquet). */
async function decompressors(): Promise<Compressors> {
  const zlib = await import('node:zlib');
  return {
    GZIP: (input: Uint8Array) => new Uint8Array(zlib.gunzipSync(input)),
    BROTLI: (input: Uint8Array) => new Uint8Array(zlib.brotliDecompressSync(input)),
  };
}

async function defaultParsers(): Promise<ParquetParsers> {
  const { DEFAULT_PARSERS } = await import('hyparquet/src/convert.js');
  return DEFAULT_PARSERS as ParquetParsers;
}

function countLeaves(n: SchemaTree): number {
  if (n.children.length === 0) return 1;
  return n.children.reduce((s, c) => s + countLeaves(c), 0);
}

function valueText(v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return v.toISOString();
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  return JSON.stringify(v);
}
