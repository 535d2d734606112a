/**
 * What every reader hands the value tallies: a decoded piece of one column (`Chunk`), its
 * values as a typed array, a plain array, text or UTF-8 bytes.
 */
/** The typed arrays a reader decodes a numeric column into (64-bit integers as bigints). */
export type TypedNumbers =
  | Int8Array
  | Uint8Array
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | BigInt64Array
  | BigUint64Array
  | Float32Array
  | Float64Array;

/**
 * A decoded piece of one column, whichever reader decoded it: which rows hold a value,
 * the values as numbers or bigints (numeric columns), else each row's text.
 */
export interface Chunk {
  length: number;
  /** Whether row `i` holds a value; absent when every row does. */
  has?: ((i: number) => boolean) | undefined;
  numbers?: ArrayLike<number> | ArrayLike<bigint> | undefined;
  text?: ((i: number) => string) | undefined;
  /** UTF-8 bytes of a text column and each row's start (row i ends where i + 1 starts). */
  utf8?: { bytes: Uint8Array; offsets: ArrayLike<number> } | undefined;
}

export function arrayChunk(values: ArrayLike<unknown>): Chunk {
  const has = (i: number) => values[i] !== null && values[i] !== undefined;
  const chunk: Chunk = { length: values.length, has };
  let first: unknown;
  for (let i = 0; i < values.length && first === undefined; i++) first = values[i] ?? undefined;
  if (typeof first === 'number' || typeof first === 'bigint') {
    chunk.numbers = values as ArrayLike<number> | ArrayLike<bigint>;
  } else if (typeof first === 'string') {
    chunk.text = (i) => String(values[i]);
  }
  return chunk;
}

/** A typed array of numbers (not of bigints). */
export function isNumberArray(
  values: Chunk['numbers'],
): values is TypedNumbers & ArrayLike<number> {
  return (
    ArrayBuffer.isView(values) &&
    !(values instanceof BigInt64Array) &&
    !(values instanceof BigUint64Array)
  );
}
