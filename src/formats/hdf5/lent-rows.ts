/**
 * Rows of an integer or float dataset read into one buffer of the HDF5 library's memory and
 * lent as a typed array over it until the next read: what `Dataset.slice` reads, without its
 * copy. `slice` reads into a buffer it allocates in that memory, then copies the bytes out
 * into a new zeroed JS buffer a slice. A check reads a dataset a slice at a time and is done
 * with each slice before the next, so the copy and the new buffer (paged in by the kernel,
 * under the memory map every thread of the process shares) bought nothing: on bench/
 * check-hdf5's 200 MB file, two threads took 2.5 to 2.8 s of CPU with them, 2.0 to 2.1 s
 * without (one thread: 2.0 s).
 *
 * The calls are the ones `Dataset.slice` makes (h5wasm 0.10), on the library's module, which
 * h5wasm's own types describe: `get_dataset_data` into memory from `_malloc`, the values
 * read as the bytes' typed array (`slice` does the same for these two classes: the library
 * gives them in this machine's byte order). Any other class (strings, compounds, enums,
 * arrays) goes through `slice`.
 */
import type { Dataset } from 'h5wasm';
import type { TypedNumbers } from '../../values/index.js';

/** h5wasm's API (one of its two builds: files on the host, or in its memory). */
export type H5Module = typeof import('h5wasm')['default'];

/** The library under h5wasm's API: what `ready` resolves to. */
export type H5Library = Awaited<H5Module['ready']>;

type View = new (buffer: ArrayBufferLike, byteOffset: number, length: number) => TypedNumbers;

/** The typed array `slice` makes of an integer (class 0) or float (class 1) of `size` bytes. */
function viewOf(cls: number, size: number, signed: boolean): View | undefined {
  if (cls === 0) {
    if (size === 1) return signed ? Int8Array : Uint8Array;
    if (size === 2) return signed ? Int16Array : Uint16Array;
    if (size === 4) return signed ? Int32Array : Uint32Array;
    if (size === 8) return signed ? BigInt64Array : BigUint64Array;
  } else if (cls === 1) {
    if (size === 4) return Float32Array;
    if (size === 8) return Float64Array;
  }
  return undefined;
}

/** The enum type class, as h5wasm's metadata numbers the classes (HDF5's H5T_ENUM). */
const ENUM_CLASS = 8;

/** The libraries of the builds loaded in this thread (thread.ts registers each once ready). */
const LIBRARIES = new WeakMap<H5Module, H5Library>();

export function registerLibrary(h5: H5Module, library: H5Library): void {
  LIBRARIES.set(h5, library);
}

/** One buffer of the library's memory, lent to each read of a dataset's rows in turn. */
export class LentRows {
  #library: H5Library;
  #ptr = 0;
  #bytes = 0;

  private constructor(library: H5Library) {
    this.#library = library;
  }

  /** A lender for `h5`'s library, or undefined when it is not known (then `slice` serves). */
  static of(h5: H5Module): LentRows | undefined {
    const library = LIBRARIES.get(h5);
    return library ? new LentRows(library) : undefined;
  }

  /**
   * Rows `ranges` of `ds`, or of its compound member `member`: a view of the buffer (`read`,
   * only with `views`), or the member's values copied out (`readMember`); undefined when
   * neither serves (then `slice` does).
   */
  rows(
    ds: Dataset,
    ranges: ReadonlyArray<readonly [number, number]>,
    member: number | null,
    views: boolean,
  ): TypedNumbers | undefined {
    if (member !== null) return this.readMember(ds, ranges, member);
    return views ? this.read(ds, ranges) : undefined;
  }

  /**
   * Rows `ranges` ([start, end) a dimension) of `ds` as a view of the buffer, valid until the
   * next read or `close`; undefined when `ds` holds neither integers nor floats.
   */
  read(ds: Dataset, ranges: ReadonlyArray<readonly [number, number]>): TypedNumbers | undefined {
    const meta = ds.metadata;
    const View = meta.vlen ? undefined : viewOf(meta.type, meta.size, meta.signed);
    if (!View) return undefined;
    const n = this.#fill(ds, ranges);
    // Taken after the read: the library's memory may have grown (a new buffer) during it.
    return n === undefined ? undefined : new View(this.#library.HEAPU8.buffer, this.#ptr, n);
  }

  /**
   * Member `member` of rows `ranges` of a compound dataset: the rows read as `slice` reads
   * them (each row's bytes, its members at their offsets), the member's values copied out
   * into a new typed array; undefined when the member is not an integer, a float or an enum.
   * `slice` makes a JS array of every row and a typed array of every member in it: on
   * bench/hdf5's 1 GB file (11.4 M rows), `check --full` of one member of a compound took
   * 50 s that way.
   */
  readMember(
    ds: Dataset,
    ranges: ReadonlyArray<readonly [number, number]>,
    member: number,
  ): TypedNumbers | undefined {
    const meta = ds.metadata;
    const m = meta.compound_type?.members[member];
    if (!m || meta.vlen || m.vlen || (m.shape?.length ?? 0) > 0) return undefined;
    // An enum (h5py's booleans) is read as its base integer, as `slice` reads it.
    const View = viewOf(
      m.type === ENUM_CLASS ? (m.enum_type?.type ?? -1) : m.type,
      m.size,
      m.signed,
    );
    if (!View) return undefined;
    const n = this.#fill(ds, ranges);
    if (n === undefined) return undefined;
    const out = new View(new ArrayBuffer(n * m.size), 0, n);
    const heap = this.#library.HEAPU8;
    const row = meta.size;
    if (row % m.size === 0 && m.offset % m.size === 0 && this.#ptr % m.size === 0) {
      // The member's values are every (row / size)-th element of the rows as that type.
      const rows = new View(heap.buffer, this.#ptr, (n * row) / m.size);
      copyEvery(rows, out, row / m.size, m.offset / m.size, n);
    } else {
      const bytes = new Uint8Array(out.buffer);
      for (let i = 0, at = this.#ptr + m.offset; i < n; i++, at += row) {
        bytes.set(heap.subarray(at, at + m.size), i * m.size);
      }
    }
    return out;
  }

  /**
   * Reads rows `ranges` ([start, end) a dimension) of `ds` into the buffer (grown to fit);
   * answers how many elements, or undefined when the ranges do not match its shape.
   */
  #fill(ds: Dataset, ranges: ReadonlyArray<readonly [number, number]>): number | undefined {
    const lib = this.#library;
    const meta = ds.metadata;
    const shape = meta.shape;
    if (!shape || shape.length !== ranges.length) return undefined;
    // The hyperslab `slice` asks for: each range cut to the shape, a stride of 1.
    const low = shape.map((s, i) => Math.min(s, Math.max(0, ranges[i]?.[0] ?? 0)));
    const high = shape.map((s, i) => Math.min(s, ranges[i]?.[1] ?? s));
    const count = shape.map((_, i) => Math.max(0, (high[i] as number) - (low[i] as number)));
    const n = count.reduce((a, b) => a * b, 1);
    const bytes = n * meta.size;
    if (bytes > this.#bytes) {
      this.close();
      const ptr = lib._malloc(Math.max(bytes, 8));
      if (ptr === 0) throw new Error(`Memory allocation of ${bytes} bytes failed`);
      this.#ptr = ptr;
      this.#bytes = bytes;
    }
    lib.get_dataset_data(
      ds.file_id,
      ds.path,
      count.map(BigInt),
      low.map(BigInt),
      shape.map(() => 1n),
      BigInt(this.#ptr),
    );
    return n;
  }

  close(): void {
    if (this.#ptr !== 0) this.#library._free(this.#ptr);
    this.#ptr = 0;
    this.#bytes = 0;
  }
}

/** `n` values of `from` into `to`: element `at` of every `step`, in order. */
function copyEvery(from: TypedNumbers, to: TypedNumbers, step: number, at: number, n: number) {
  // The same class on both sides (numbers or bigints): a typed array's elements copied.
  const src = from as unknown as Float64Array;
  const dst = to as unknown as Float64Array;
  for (let i = 0, k = at; i < n; i++, k += step) dst[i] = src[k] as number;
}
