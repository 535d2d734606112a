/**
 * The bytes parquet-wasm decodes: a file, or any byte source, as the Blob it reads from (it
 * asks only `size`, `slice` and `arrayBuffer`).
 *
 * A file is read with positioned reads. They are asynchronous, so that timers and other work
 * run between row groups; and parquet-wasm asks for one range at a time and waits for it, so
 * while a range is read from disk this thread would have nothing to do. Measured on the
 * 20 M-row bench file (bench/check-parquet.bench.ts), one job: 163 reads of one row group
 * each, 214 ms of waiting in a run of 1.45 s. When reads follow each other in the file (every
 * column of each row group read, as a check of every column reads them), the next range is
 * read while the last one is decoded (ReadAhead).
 *
 * parquet-wasm copies each range it gets into its own memory as soon as the read resolves
 * (in the microtasks that follow), so a buffer it was given is free again by the next turn
 * of the event loop: it goes back to a pool then, and the next range is read into it
 * (resized in place) instead of into a new one. Measured on the 20 M-row bench file: a new
 * buffer per row group left up to 34 MiB of them waiting for the garbage collector. Node's
 * own file Blob (`openAsBlob`) reads each range in pieces and joins them, leaving more.
 */
import { type FileHandle, open } from 'node:fs/promises';
import type { ByteSource } from '../../inspect/shared.js';

export interface FileBlob {
  size: number;
  slice(start?: number, end?: number): FileBlob;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** The largest range read ahead: a file of larger row groups is read as asked. */
const MOST_AHEAD = 64 * 1024 * 1024;

export async function openFileBlob(
  path: string,
): Promise<{ blob: FileBlob; close(): Promise<void> }> {
  const handle = await open(path, 'r');
  const { size } = await handle.stat();
  // The buffers parquet-wasm is done with (above). A thread reads its runs of row groups
  // through one Blob (jobs.ts), so they serve every run.
  const pool: ResizableBuffer[] = [];
  const fresh = async (from: number, to: number) => {
    const buffer = reusedBuffer(pool, to - from);
    await fill(handle, buffer, 0, from, to);
    return buffer;
  };
  const ahead = new ReadAhead(handle, size, fresh, pool);
  const read = async (from: number, to: number): Promise<ArrayBuffer> => {
    const buffer = (await ahead.take(from, to)) ?? (await fresh(from, to));
    ahead.after(from, to);
    setImmediate(() => pool.push(buffer));
    return buffer;
  };
  const close = async () => {
    // A read under way ends before its file does: its descriptor could be another file's.
    await ahead.settle();
    await handle.close();
  };
  return { blob: blobOver(0, size, read), close };
}

/** Reads bytes `from .. to` of the file into `buffer` from byte `at` (less at the file's end). */
async function fill(handle: FileHandle, buffer: ArrayBuffer, at: number, from: number, to: number) {
  const out = new Uint8Array(buffer, at, to - from);
  let got = 0;
  while (got < out.length) {
    const { bytesRead } = await handle.read(out, got, out.length - got, from + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
}

/**
 * The range after the last read, read before it is asked for. It is read once the last two
 * reads each began where the one before ended (a stride of one: reads of a few of the
 * columns jump over the others, and a guess there would read bytes nobody wants), as long
 * as the last one. A read that begins there takes it, shrunk or grown to its length (row
 * groups of one file differ by a few bytes); any other read leaves it to the pool.
 */
class ReadAhead {
  private pending: { from: number; to: number; buffer: Promise<ResizableBuffer> } | undefined;
  /** The last two reads' ends, and the last one's start. */
  private lastTo = -1;
  private beforeTo = -1;
  private lastFrom = -1;

  constructor(
    private readonly handle: FileHandle,
    private readonly size: number,
    private readonly fresh: (from: number, to: number) => Promise<ResizableBuffer>,
    private readonly pool: ResizableBuffer[],
  ) {}

  /** The bytes `from .. to` when they were read ahead, else undefined. */
  async take(from: number, to: number): Promise<ResizableBuffer | undefined> {
    const p = this.pending;
    this.pending = undefined;
    if (!p) return undefined;
    if (p.from !== from) {
      void this.drop(p);
      return undefined;
    }
    // Its error, if it failed, is this read's.
    const buffer = await p.buffer;
    if (buffer.maxByteLength < to - from) {
      this.pool.push(buffer);
      return undefined;
    }
    buffer.resize(to - from);
    if (to > p.to) await fill(this.handle, buffer, p.to - p.from, p.to, to);
    return buffer;
  }

  /** After a read of `from .. to`: starts reading the next range when the reads run on. */
  after(from: number, to: number): void {
    const onward = from === this.lastTo && this.lastFrom === this.beforeTo;
    this.beforeTo = this.lastTo;
    this.lastTo = to;
    this.lastFrom = from;
    const end = Math.min(this.size, to + (to - from));
    if (!onward || end <= to || to - from > MOST_AHEAD) return;
    const buffer = this.fresh(to, end);
    // Its error, if any, is met by the read that takes it (a read nobody takes drops it).
    buffer.catch(() => {});
    this.pending = { from: to, to: end, buffer };
  }

  /** Waits for a read under way, whatever its end. */
  async settle(): Promise<void> {
    const p = this.pending;
    this.pending = undefined;
    if (p) await this.drop(p);
  }

  /** Gives a read ahead that nobody takes to the pool once it is done (its error dropped). */
  private drop(p: { buffer: Promise<ResizableBuffer> }): Promise<void> {
    return p.buffer.then(
      (b) => {
        this.pool.push(b);
      },
      () => {},
    );
  }
}

/**
 * A Blob over any byte source (an archive's member read in place): each range is read
 * through the source, in order as parquet-wasm asks for them.
 */
export function sourceBlob(source: ByteSource): FileBlob {
  return blobOver(0, source.size, async (from, to) => {
    // A copy: the bytes may be a view into a larger buffer (a kept head, a chunk).
    return new Uint8Array(await source.read(from, to - from)).buffer;
  });
}

/** Bytes `from .. to` of what `read` reads, as a Blob whose slices read their own ranges. */
function blobOver(
  from: number,
  to: number,
  read: (from: number, to: number) => Promise<ArrayBuffer>,
): FileBlob {
  return {
    size: to - from,
    slice: (start = 0, end = to - from) =>
      blobOver(from + Math.min(start, to - from), from + Math.min(end, to - from), read),
    arrayBuffer: () => read(from, to),
  };
}

/** A resizable ArrayBuffer (ES2024, in Node 20; the project's TypeScript lib is older). */
interface ResizableBuffer extends ArrayBuffer {
  readonly maxByteLength: number;
  resize(n: number): void;
}
const ResizableBuffer = ArrayBuffer as unknown as new (
  n: number,
  options: { maxByteLength: number },
) => ResizableBuffer;

/** A buffer of `n` bytes: one from the pool resized when it can grow that far, else a new one. */
function reusedBuffer(pool: ResizableBuffer[], n: number): ResizableBuffer {
  const free = pool.pop();
  if (free && free.maxByteLength >= n) {
    free.resize(n);
    return free;
  }
  // Room to grow: row groups of one file are often of about one size.
  return new ResizableBuffer(n, { maxByteLength: Math.max(n * 2, 1 << 20) });
}
