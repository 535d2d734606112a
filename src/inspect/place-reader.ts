/**
 * Synchronous positioned reads of a place (a file's range, a zip member's deflate data, a
 * tar.gz member inside the inflated stream), for a library that reads by itself from a
 * thread of its own: the HDF5 library in its worker calls `read` from inside wasm, so the
 * reads cannot wait on a promise.
 *
 * Compressed places have no random access: they are inflated as a stream from their start
 * (fflate's streaming Inflate and Gunzip, which run synchronously; node's zlib has no
 * synchronous streaming API). A place of up to IN_MEMORY bytes keeps every block it
 * inflated, so it is inflated at most once whatever order the library reads it in. A larger
 * one is meant to reach the reader as a file (the HDF5 inspector has it inflated once into a
 * private temp file first, `ByteSource.spill`); read here all the same, it keeps a bounded
 * cache of blocks (the first MiB, which holds the metadata readers come back to, plus the
 * blocks used last), and a read behind the inflater that the cache cannot answer inflates
 * again from the start. Memory stays bounded by IN_MEMORY, or by the cache and one push of
 * input, whatever the member's size.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type * as Fflate from 'fflate';
import type { Place } from './byte-source.js';

// fflate loads on first need (a compressed place): infer and check of a plain file never
// load it. Required, not imported: the inflaters are made synchronously.
let fflate: typeof Fflate | undefined;
function fflateOf(): typeof Fflate {
  fflate ??= createRequire(import.meta.url)('fflate') as typeof Fflate;
  return fflate;
}

/** Reads of a place's bytes [0, size), synchronously. */
export interface PlaceReader {
  readonly size: number;
  /** Copies up to `length` bytes at `position` to `into[offset..]`; fewer only at the end. */
  read(into: Uint8Array, offset: number, length: number, position: number): number;
  /** Times a compressed place was inflated again from its start (0 for a file's range). */
  readonly restarts: number;
  close(): void;
}

/** The size of a cached block of inflated bytes. */
export const BLOCK = 64 * 1024;
/** Blocks at the start of a place that stay cached (the first MiB). */
export const HEAD_BLOCKS = 16;
/** Other blocks kept, the least recently used evicted first. */
export const CACHED_BLOCKS = 32;
/**
 * A compressed place up to this size keeps all it inflated: the most one reader holds (the
 * HDF5 worker keeps one place at a time), the size up to which a tar.gz walk keeps a member
 * whole in memory too (TAR_KEEP_WHOLE). Reads in any order then cost one inflation of the
 * place: an HDF5 file whose deflate-filtered chunks are larger than the cache, read a slice
 * at a time, inflated the member from its start again for every slice (8 MB: 2.8 times the
 * archive read, 16 MB: 4.2 times).
 */
export const IN_MEMORY = 32 * 1024 * 1024;
/** Compressed bytes read from the file at once. */
const INPUT = 64 * 1024;
/**
 * Compressed bytes pushed to the inflater at once: what one push inflates is held at once
 * (up to ~1000 times this for the most compressible data). fflate copies its 32 KiB window
 * after each push, so pushes much smaller than that are slower (8 KiB: ~20% on HDF5 data).
 */
const PUSH = 32 * 1024;

/** Opens a reader of `size` bytes at `place`. Throws when the file cannot be opened. */
export function openPlaceReader(place: Place, size: number): PlaceReader {
  const fd = fs.openSync(place.path, 'r');
  try {
    if (place.kind === 'file') return fileReader(fd, place.start, size);
    if (place.kind === 'deflate') {
      const end = place.start + place.compressedSize;
      return new InflatingReader(fd, { from: place.start, end, skip: 0, size }, deflate);
    }
    const end = fs.fstatSync(fd).size;
    return new InflatingReader(fd, { from: 0, end, skip: place.skip, size }, gunzip);
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
}

function fileReader(fd: number, start: number, size: number): PlaceReader {
  return {
    size,
    restarts: 0,
    read(into, offset, length, position) {
      const n = Math.max(0, Math.min(length, size - position));
      let got = 0;
      while (got < n) {
        const r = fs.readSync(fd, into, offset + got, n - got, start + position + got);
        if (r === 0) throw new Error(`the file ends at byte ${position + got} of ${size}`);
        got += r;
      }
      return n;
    },
    close: () => fs.closeSync(fd),
  };
}

/** A streaming inflater: pushes compressed chunks, hands inflated ones to `ondata`. */
interface Inflater {
  push(chunk: Uint8Array, final?: boolean): void;
}
type MakeInflater = (ondata: (chunk: Uint8Array) => void) => Inflater;

const deflate: MakeInflater = (ondata) => new (fflateOf().Inflate)((chunk) => ondata(chunk));
// Gunzip reads a multi-member gzip file as one stream, as `gzip -d` does.
const gunzip: MakeInflater = (ondata) => new (fflateOf().Gunzip)((chunk) => ondata(chunk));

/** Where a compressed place's data is: file bytes [from, end), inflating to skip + size bytes. */
interface Range {
  from: number;
  end: number;
  skip: number;
  size: number;
}

class InflatingReader implements PlaceReader {
  readonly size: number;
  restarts = 0;
  /** Every inflated block is kept (a place up to IN_MEMORY bytes). */
  private readonly keepAll: boolean;
  private readonly head = new Map<number, Uint8Array>();
  private readonly recent = new Map<number, Uint8Array>();
  private readonly input = new Uint8Array(INPUT);
  private inflater!: Inflater;
  /** The next file offset of compressed input, bytes of the stream inflated, of the place. */
  private inputAt = 0;
  private streamAt = 0;
  private placeAt = 0;
  /** The block being filled, and the block a read waits for (kept even if evicted). */
  private pending = new Uint8Array(BLOCK);
  private pendingBytes = 0;
  private wanted = -1;
  private found: Uint8Array | undefined;

  constructor(
    private readonly fd: number,
    private readonly range: Range,
    private readonly make: MakeInflater,
  ) {
    this.size = range.size;
    this.keepAll = range.size <= IN_MEMORY;
    this.start();
  }

  read(into: Uint8Array, offset: number, length: number, position: number): number {
    const n = Math.max(0, Math.min(length, this.size - position));
    let copied = 0;
    while (copied < n) {
      const at = position + copied;
      const index = Math.floor(at / BLOCK);
      const block = this.block(index);
      const from = at - index * BLOCK;
      const take = Math.min(block.byteLength - from, n - copied);
      if (take <= 0) throw new Error(`the data ends at byte ${at} of ${this.size}`);
      into.set(block.subarray(from, from + take), offset + copied);
      copied += take;
    }
    return n;
  }

  close(): void {
    fs.closeSync(this.fd);
  }

  private start(): void {
    this.inflater = this.make((chunk) => this.take(chunk));
    this.inputAt = this.range.from;
    this.streamAt = 0;
    this.placeAt = 0;
    this.pendingBytes = 0;
  }

  /** Block `index`: cached, else inflated up to (from the start again when it is behind). */
  private block(index: number): Uint8Array {
    const cached = this.head.get(index) ?? this.touch(index);
    if (cached) return cached;
    if (index * BLOCK < this.placeAt - this.pendingBytes) {
      this.restarts += 1;
      this.start();
    }
    this.wanted = index;
    this.found = undefined;
    while (!this.found) this.advance();
    const block = this.found;
    this.found = undefined;
    this.wanted = -1;
    return block;
  }

  /** A recent block, moved to the most recently used end. */
  private touch(index: number): Uint8Array | undefined {
    const block = this.recent.get(index);
    if (block) {
      this.recent.delete(index);
      this.recent.set(index, block);
    }
    return block;
  }

  /** Reads the next compressed input and pushes it through the inflater. */
  private advance(): void {
    const { end } = this.range;
    if (this.inputAt >= end || this.placeAt >= this.size)
      throw new Error(`the compressed data ends before byte ${this.placeAt} of ${this.size}`);
    const n = fs.readSync(
      this.fd,
      this.input,
      0,
      Math.min(INPUT, end - this.inputAt),
      this.inputAt,
    );
    if (n === 0) throw new Error(`the file ends at byte ${this.inputAt}`);
    this.inputAt += n;
    const final = this.inputAt >= end;
    try {
      for (let at = 0; at < n && this.placeAt < this.size; at += PUSH) {
        const last = at + PUSH >= n;
        this.inflater.push(this.input.subarray(at, Math.min(n, at + PUSH)), final && last);
      }
    } catch (err) {
      throw new Error(`the compressed data is damaged (${(err as Error).message})`);
    }
  }

  /** Inflated bytes: those before `skip` dropped, the rest cut into blocks. */
  private take(chunk: Uint8Array): void {
    let c = chunk;
    if (this.streamAt < this.range.skip) {
      const drop = Math.min(c.byteLength, this.range.skip - this.streamAt);
      this.streamAt += drop;
      c = c.subarray(drop);
    }
    this.streamAt += c.byteLength;
    while (c.byteLength > 0 && this.placeAt < this.size) {
      const n = Math.min(BLOCK - this.pendingBytes, c.byteLength, this.size - this.placeAt);
      this.pending.set(c.subarray(0, n), this.pendingBytes);
      this.pendingBytes += n;
      this.placeAt += n;
      c = c.subarray(n);
      if (this.pendingBytes === BLOCK || this.placeAt === this.size) this.commit();
    }
  }

  /** The block just filled: cached, and handed to the read waiting for it. */
  private commit(): void {
    const index = Math.floor((this.placeAt - 1) / BLOCK);
    const block = this.pending.slice(0, this.pendingBytes);
    this.pendingBytes = 0;
    if (index === this.wanted) this.found = block;
    if (index < HEAD_BLOCKS || this.keepAll) {
      this.head.set(index, block);
      return;
    }
    this.recent.delete(index);
    this.recent.set(index, block);
    if (this.recent.size > CACHED_BLOCKS) {
      const oldest = this.recent.keys().next().value;
      if (oldest !== undefined) this.recent.delete(oldest);
    }
  }
}
