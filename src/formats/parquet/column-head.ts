/**
 * The first values of one Parquet column, read from one small page (its dictionary page or
 * first data page) of its first non-empty row group: for inference's choices and the
 * samples `inspect` prints.
 */

import type {
  ColumnMetaData,
  Compressors,
  DataReader,
  PageHeader,
  ParquetParsers,
  SchemaTree,
} from 'hyparquet';
import type { ByteSource } from '../../inspect/shared.js';
import { chunkStart, type ParquetFooter, RAW_PARSERS } from './footer.js';

/** Values read from the start of one column. */
export interface ColumnHead {
  /** Values as text (strings as they are; numbers and bigints in decimal). */
  values: string[];
  /** `dictionary`: the column chunk's dictionary page (distinct values); `page`: its first data page. */
  from: 'dictionary' | 'page';
  /** Bytes read for it. */
  bytes: number;
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
 * (`hyparquet/src/column.js` and `hyparquet/src/convert.js`, reachable through its
 * `./src/*.js` export, but not its documented API, so they may change in any release).
 * package.json therefore pins hyparquet to an exact version (a test keeps it pinned):
 * upgrade it on purpose, with the Parquet tests.
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
