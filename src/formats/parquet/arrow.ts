/**
 * The columns of a record batch parquet-wasm decoded, read where they lie in its memory
 * through the Arrow C data interface (https://arrow.apache.org/docs/format/CDataInterface.html).
 * Measured on 20 M rows (bench/check-parquet.bench.ts): turning each batch into an IPC
 * stream for apache-arrow copied every value out of the wasm memory, cost a quarter of the
 * run in copies and garbage collection, and apache-arrow itself took 12 MB to load; these
 * views copy nothing. The bytes parquet-wasm decodes come from file-blob.ts.
 *
 * The views are valid only until parquet-wasm runs again (its memory may grow, which
 * detaches the buffer): each batch is judged whole before the next one is asked for.
 */
import type { Chunk } from '../../values/index.js';

/** A batch's columns by name, each a view of the values in the wasm memory. */
export type BatchColumns = Map<string, Chunk>;

/** The byte offsets of the ArrowArray and ArrowSchema fields on a 32-bit target (wasm32). */
const ARRAY = { length: 0, nullCount: 8, offset: 16, buffers: 40, children: 44, dictionary: 48 };
const SCHEMA = { format: 0, name: 4, nChildren: 24, children: 32, dictionary: 36 };

type NumberArray = NonNullable<Chunk['numbers']>;
type TypedArrayOf = new (b: ArrayBuffer, at: number, n: number) => NumberArray;

/** The typed array and value size of each format whose values are one number a row. */
const NUMERIC: Record<string, [TypedArrayOf, number]> = {
  c: [Int8Array, 1],
  C: [Uint8Array, 1],
  s: [Int16Array, 2],
  S: [Uint16Array, 2],
  i: [Int32Array, 4],
  I: [Uint32Array, 4],
  l: [BigInt64Array, 8],
  L: [BigUint64Array, 8],
  f: [Float32Array, 4],
  g: [Float64Array, 8],
};

/** `n` values of `format` from value `first` of the buffer at `at`: a view, or a copy when misaligned. */
function numbersAt(
  memory: ArrayBuffer,
  format: string,
  at: number,
  first: number,
  n: number,
): NumberArray | undefined {
  const kind = NUMERIC[format];
  if (!kind) return undefined;
  const [Typed, size] = kind;
  const byte = at + first * size;
  return byte % size === 0
    ? new Typed(memory, byte, n)
    : new Typed(memory.slice(byte, byte + n * size), 0, n);
}

/** Dates, times, timestamps and durations: 32-bit (days, s, ms) or 64-bit integers. */
function temporalKind(format: string): string | undefined {
  if (format === 'tdD' || format === 'tts' || format === 'ttm') return 'i';
  if (/^(tdm|ttu|ttn|ts[smun]:.*|tD[smun])$/.test(format)) return 'l';
  return undefined;
}

/** One schema node: its format string, name and dictionary (0 when none). */
interface SchemaNode {
  format: string;
  name: string;
  dictionary: number;
}

/** Reads the columns of one exported batch (a struct array) from the wasm memory. */
export function batchColumns(memory: ArrayBuffer, arrayAddr: number, schemaAddr: number) {
  const dv = new DataView(memory);
  const out: BatchColumns = new Map();
  const n = Number(dv.getBigInt64(schemaAddr + SCHEMA.nChildren, true));
  const schemas = dv.getUint32(schemaAddr + SCHEMA.children, true);
  const arrays = dv.getUint32(arrayAddr + ARRAY.children, true);
  const parentOffset = Number(dv.getBigInt64(arrayAddr + ARRAY.offset, true));
  let rows = Number(dv.getBigInt64(arrayAddr + ARRAY.length, true));
  for (let c = 0; c < n; c++) {
    const node = schemaNode(dv, dv.getUint32(schemas + 4 * c, true));
    const array = dv.getUint32(arrays + 4 * c, true);
    out.set(node.name, columnChunk(dv, node, array, parentOffset));
  }
  rows = Math.max(rows, 0);
  return { rows, columns: out };
}

function schemaNode(dv: DataView, at: number): SchemaNode {
  return {
    format: cString(dv, dv.getUint32(at + SCHEMA.format, true)),
    name: cString(dv, dv.getUint32(at + SCHEMA.name, true)),
    dictionary: dv.getUint32(at + SCHEMA.dictionary, true),
  };
}

function cString(dv: DataView, at: number): string {
  if (at === 0) return '';
  let end = at;
  while (dv.getUint8(end) !== 0) end++;
  return Buffer.from(dv.buffer, at, end - at).toString('utf8');
}

/** One column of the batch as a Chunk: its validity, and its numbers or its text. */
function columnChunk(dv: DataView, node: SchemaNode, array: number, parentOffset: number): Chunk {
  const memory = dv.buffer as ArrayBuffer;
  const length = Number(dv.getBigInt64(array + ARRAY.length, true));
  const offset = Number(dv.getBigInt64(array + ARRAY.offset, true)) + parentOffset;
  const nullCount = Number(dv.getBigInt64(array + ARRAY.nullCount, true));
  const buffers = dv.getUint32(array + ARRAY.buffers, true);
  const buffer = (i: number) => dv.getUint32(buffers + 4 * i, true);
  const chunk: Chunk = { length, has: validity(memory, buffer(0), offset, nullCount) };
  if (node.dictionary !== 0) {
    const dictArray = dv.getUint32(array + ARRAY.dictionary, true);
    const dict = columnChunk(dv, schemaNode(dv, node.dictionary), dictArray, 0);
    const indices = numbersAt(memory, node.format, buffer(1), offset, length);
    if (indices) decodeDictionary(chunk, dict, indices);
    return chunk;
  }
  const kind = NUMERIC[node.format] ? node.format : temporalKind(node.format);
  if (kind !== undefined) {
    chunk.numbers = numbersAt(memory, kind, buffer(1), offset, length);
  } else if (node.format === 'u' || node.format === 'z') {
    const offsets = new Int32Array(memory, buffer(1) + 4 * offset, length + 1);
    const bytes = new Uint8Array(memory, buffer(2), dv.byteLength - buffer(2));
    textOf(chunk, bytes, offsets);
  } else if (node.format === 'U' || node.format === 'Z') {
    const wide = new BigInt64Array(memory, buffer(1) + 8 * offset, length + 1);
    const offsets = Float64Array.from(wide, Number);
    const bytes = new Uint8Array(memory, buffer(2), dv.byteLength - buffer(2));
    textOf(chunk, bytes, offsets);
  }
  return chunk;
}

function textOf(chunk: Chunk, bytes: Uint8Array, offsets: ArrayLike<number>): void {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  chunk.text = (i) => buf.toString('utf8', offsets[i] as number, offsets[i + 1] as number);
  chunk.utf8 = { bytes, offsets };
}

/** A dictionary-encoded column: each entry's text made once, or the numbers looked up. */
function decodeDictionary(chunk: Chunk, dict: Chunk, indices: NumberArray) {
  const at = (i: number) => Number(indices[i]);
  if (dict.text) {
    const words = Array.from({ length: dict.length }, (_, k) =>
      (dict.text as (k: number) => string)(k),
    );
    chunk.text = (i) => words[at(i)] as string;
  } else if (dict.numbers) {
    const values = dict.numbers;
    const wide = typeof values[0] === 'bigint';
    const out = wide ? new BigInt64Array(chunk.length) : new Float64Array(chunk.length);
    for (let i = 0; i < chunk.length; i++)
      (out as unknown as unknown[])[i] = values[at(i)] ?? (wide ? 0n : 0);
    chunk.numbers = out;
  }
}

/** Which rows hold a value: the validity bitmap's bits, none when nothing is null. */
function validity(memory: ArrayBuffer, at: number, offset: number, nullCount: number) {
  if (at === 0 || nullCount === 0) return undefined;
  const bits = new Uint8Array(memory, at);
  return (i: number) => ((bits[(offset + i) >> 3] as number) & (1 << ((offset + i) & 7))) !== 0;
}
