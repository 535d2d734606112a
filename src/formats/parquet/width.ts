/**
 * The number of leaf columns in a Parquet footer, read without decoding it: a skim of the
 * Thrift compact encoding of FileMetaData up to its schema list, counting the elements
 * without children. A footer of 10⁶ columns takes seconds and gigabytes to decode; its
 * width is known after a pass over the schema that allocates nothing.
 */

const STOP = 0;
const TRUE = 1;
const FALSE = 2;
const BYTE = 3;
const I16 = 4;
const I32 = 5;
const I64 = 6;
const DOUBLE = 7;
const BINARY = 8;
const LIST = 9;
const SET = 10;
const MAP = 11;
const STRUCT = 12;

/** Nesting a skim follows (schema elements nest a logical type two deep). */
const MAX_DEPTH = 32;

class Damaged extends Error {}

class Cursor {
  at = 0;
  constructor(private readonly b: Uint8Array) {}
  byte(): number {
    const v = this.b[this.at++];
    if (v === undefined) throw new Damaged();
    return v;
  }
  skip(n: number): void {
    if (n < 0 || this.at + n > this.b.byteLength) throw new Damaged();
    this.at += n;
  }
  /** An unsigned varint; past 2^53 it is damage for what is read here (lengths, counts). */
  varint(): number {
    let v = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      const b = this.byte();
      v += (b & 0x7f) * scale;
      if ((b & 0x80) === 0) {
        if (v > Number.MAX_SAFE_INTEGER) throw new Damaged();
        return v;
      }
      scale *= 128;
    }
    throw new Damaged();
  }
  zigzag(): number {
    const v = this.varint();
    return v % 2 === 0 ? v / 2 : -(v + 1) / 2;
  }
}

/** Field headers of a struct: [id, type] until STOP. */
function* fields(c: Cursor): Generator<[number, number]> {
  let id = 0;
  for (;;) {
    const h = c.byte();
    if (h === STOP) return;
    const delta = h >> 4;
    id = delta === 0 ? c.zigzag() : id + delta;
    yield [id, h & 0x0f];
  }
}

function skip(c: Cursor, type: number, depth: number): void {
  if (depth > MAX_DEPTH) throw new Damaged();
  switch (type) {
    case TRUE:
    case FALSE:
      return;
    case BYTE:
      c.skip(1);
      return;
    case I16:
    case I32:
    case I64:
      c.varint();
      return;
    case DOUBLE:
      c.skip(8);
      return;
    case BINARY:
      c.skip(c.varint());
      return;
    case LIST:
    case SET: {
      const [size, elem] = listHeader(c);
      for (let i = 0; i < size; i++)
        skip(c, elem === TRUE || elem === FALSE ? BYTE : elem, depth + 1);
      return;
    }
    case MAP: {
      const size = c.varint();
      if (size === 0) return;
      const kv = c.byte();
      for (let i = 0; i < size; i++) {
        skip(c, kv >> 4, depth + 1);
        skip(c, kv & 0x0f, depth + 1);
      }
      return;
    }
    case STRUCT:
      for (const [, t] of fields(c)) skip(c, t, depth + 1);
      return;
    default:
      throw new Damaged();
  }
}

function listHeader(c: Cursor): [number, number] {
  const h = c.byte();
  const size = h >> 4 === 15 ? c.varint() : h >> 4;
  return [size, h & 0x0f];
}

/** Whether the schema element at the cursor is a leaf (no `num_children`, field 5, or 0). */
function isLeaf(c: Cursor): boolean {
  let leaf = true;
  for (const [id, t] of fields(c)) {
    if (id === 5 && t === I32) leaf = c.zigzag() === 0;
    else skip(c, t, 1);
  }
  return leaf;
}

/**
 * Leaf columns of the schema in a footer (FileMetaData, Thrift compact), counted without
 * decoding; undefined when the bytes do not read as a footer with a schema (the decoder then
 * says what is wrong).
 */
export function footerLeafCount(footer: Uint8Array): number | undefined {
  const c = new Cursor(footer);
  try {
    for (const [id, t] of fields(c)) {
      if (id !== 2 || t !== LIST) {
        skip(c, t, 0);
        continue;
      }
      const [size, elem] = listHeader(c);
      if (elem !== STRUCT) return undefined;
      let leaves = 0;
      for (let i = 0; i < size; i++) if (isLeaf(c)) leaves++;
      return leaves;
    }
    return undefined;
  } catch (err) {
    if (err instanceof Damaged) return undefined;
    throw err;
  }
}
