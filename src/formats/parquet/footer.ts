/**
 * The footer of a Parquet file, read and refused with a clear reason: the magic bytes at
 * both ends (an encrypted footer, a truncated or not-Parquet file), the footer's place and
 * length, its Thrift decoding (hyparquet's `parquetMetadata`), and how wide it is.
 */

import {
  type ColumnMetaData,
  type FileMetaData,
  type ParquetParsers,
  parquetMetadata,
  parquetSchema,
  type SchemaTree,
} from 'hyparquet';
import { type ByteSource, InspectError, withYoungGenerationHeld } from '../../inspect/shared.js';
import type { Issue } from '../../model/plain.js';
import { footerLeafCount } from './width.js';

const MAGIC = 0x31524150;

// 'PAR1' little-endian
const MAGIC_ENCRYPTED = 0x45524150;

// 'PARE'
/** Footers of real files reach a few MiB (thousands of columns, many row groups); memory stays bounded. */
export const MAX_FOOTER = 256 * 1024 * 1024;

/** Leaf columns inspected at most; a wider schema is refused (`parquet_too_many_columns`). */
export const MAX_PARQUET_COLUMNS = 10_000;

/**
 * Statistics decoded exactly: timestamps, dates and 64-bit integers stay raw integers
 * (hyparquet's defaults would turn timestamps into `Date` and lose sub-millisecond digits).
 */
export const RAW_PARSERS: Partial<ParquetParsers> = {
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

/**
 * Footers from this size are decoded with the young generation held (young-generation.ts);
 * one of 55 KB (300 row groups) left it as it was without.
 */
const HELD_FROM_BYTES = 64 * 1024;

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
    const decode = () => parquetMetadata(buf, { parsers: RAW_PARSERS, geoparquet: false });
    // A footer of many row groups is decoded into objects that outlive the decode (see
    // young-generation.ts).
    metadata = footerLength < HELD_FROM_BYTES ? decode() : withYoungGenerationHeld(decode);
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
export function chunkStart(m: ColumnMetaData): bigint {
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
