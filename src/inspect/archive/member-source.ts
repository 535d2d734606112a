/**
 * Byte sources over the members of a folder or an archive: every inspector reads a member
 * through the same ByteSource interface it reads a file through, named by the member's path.
 */
import type { Readable } from 'node:stream';
import { type ByteSource, isCompressedPlace, type Place, sourceOf } from '../byte-source.js';
import { type Spilled, spill } from './spill.js';

/** Bytes of a member read at once when it is spilled. */
const SPILL_CHUNK = 1024 * 1024;

/**
 * Counts reads into a source of `size` bytes: the bookkeeping every member source shares. A
 * source whose place is compressed can be spilled (ByteSource.spill): its bytes are read
 * once, in order, through its own reads (so they count) into a private temp file, removed
 * when it closes.
 */
function counted(
  name: string,
  size: number,
  readAt: (offset: number, length: number) => Promise<Uint8Array>,
  close: () => Promise<void> = async () => {},
  place?: Place,
): ByteSource {
  let spilled: Promise<Spilled> | undefined;
  const source: ByteSource = sourceOf({
    name,
    size,
    place,
    readAt: (start, n) => readAt(start, n),
    async close() {
      const file = spilled;
      spilled = undefined;
      try {
        await close();
      } finally {
        await file?.then((s) => s.remove()).catch(() => {});
      }
    },
  });
  if (isCompressedPlace(place)) {
    source.spill = async () => {
      spilled ??= spill(inOrder(source));
      return (await spilled).file;
    };
  }
  return source;
}

/** A source's bytes from its first, a chunk at a time. */
async function* inOrder(source: ByteSource): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < source.size; ) {
    const bytes = await source.read(at, Math.min(SPILL_CHUNK, source.size - at));
    if (bytes.byteLength === 0) throw new Error(`the data ends at byte ${at} of ${source.size}`);
    yield bytes;
    at += bytes.byteLength;
  }
}

/** How much of a member's start is kept once read from a file (format detection reads it first). */
const KEPT_FILE_HEAD = 64 * 1024;

/**
 * Reads through `readAt`, keeping the member's start once read (up to `keep` bytes): format
 * detection reads a member's head, then its inspector reads it again, so the second read (and
 * any read inside the kept head, e.g. a small file's tail) is answered from memory and each
 * byte of the head is read from the file or archive once.
 */
function keepingHead(
  readAt: (offset: number, length: number) => Promise<Uint8Array>,
  keep: number,
): (offset: number, length: number) => Promise<Uint8Array> {
  let head: Uint8Array = new Uint8Array(0);
  return async (offset, length) => {
    const end = offset + length;
    if (end <= head.byteLength) return head.subarray(offset, end);
    if (offset > head.byteLength) return readAt(offset, length);
    const rest = await readAt(head.byteLength, end - head.byteLength);
    let bytes = rest;
    if (head.byteLength > 0) {
      bytes = new Uint8Array(head.byteLength + rest.byteLength);
      bytes.set(head, 0);
      bytes.set(rest, head.byteLength);
    }
    if (bytes.byteLength <= keep) head = bytes;
    return bytes.subarray(offset);
  };
}

/** The same source under another name (a member's path inside its folder). */
export function renamedSource(inner: ByteSource, name: string): ByteSource {
  return counted(
    name,
    inner.size,
    keepingHead((o, n) => inner.read(o, n), KEPT_FILE_HEAD),
    () => inner.close(),
    inner.place,
  );
}

/** `size` bytes of `outer` from `start` (a stored zip member, read in place). */
export function sliceSource(outer: ByteSource, start: number, size: number, name: string) {
  return counted(
    name,
    size,
    keepingHead((o, n) => outer.read(start + o, n), KEPT_FILE_HEAD),
    undefined,
    shifted(outer.place, start),
  );
}

/** The place of the bytes from `start` of a source at `place` (none inside deflate data). */
function shifted(place: Place | undefined, start: number): Place | undefined {
  if (place?.kind === 'file') return { ...place, start: place.start + start };
  if (place?.kind === 'gzip') return { ...place, skip: place.skip + start };
  return undefined;
}

/** A stream of a member's bytes from its first byte, opened anew for each pass over it. */
export type OpenStream = () => Promise<AsyncIterable<Uint8Array>>;

/** Positioned reads over a restartable stream; `close` ends the stream's current pass. */
export interface ForwardReads {
  read(offset: number, length: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** How much of what a stream passed is kept behind its position (reads just behind it). */
const KEPT_BEHIND = 1024 * 1024;

/**
 * Positioned reads over a stream that can only go forward but can be opened again from its
 * start (an inflating zip member, a member of a tar.gz): a read at or ahead of the stream's
 * position continues the stream (skipping the bytes between), a read behind it opens the
 * stream again. The last chunks passed are kept (KEPT_BEHIND bytes), so a read a little
 * behind (a CSV scan's tail, a Parquet footer read after its length) needs no new pass, and
 * memory stays that much whatever the member's size. Readers that go forward (CSV scans,
 * Parquet row groups, the TDMS and ULog walks) pass over the member about once. Reads run
 * one at a time, in call order; a read that fails throws `fail(err)` (the archive's error).
 */
export function forwardReads(
  open: OpenStream,
  fail: (err: unknown) => unknown = (err) => err,
): ForwardReads {
  let stream: AsyncIterator<Uint8Array> | undefined;
  let kept = new KeptBehind();
  let queue: Promise<unknown> = Promise.resolve();
  const stop = async () => {
    const old = stream;
    stream = undefined;
    await old?.return?.();
  };
  const next = async (): Promise<boolean> => {
    const r = await (stream as AsyncIterator<Uint8Array>).next();
    if (r.done) return false;
    kept.push(r.value);
    return true;
  };
  const readAt = async (offset: number, length: number): Promise<Uint8Array> => {
    if (!stream || offset < kept.start) {
      await stop();
      stream = (await open())[Symbol.asyncIterator]();
      kept = new KeptBehind();
    }
    const out = new Uint8Array(length);
    let got = 0;
    while (got < length) {
      const at = offset + got;
      const piece = at < kept.end ? kept.pieceOf(at) : undefined;
      if (piece) {
        const from = at - piece.offset;
        const part = piece.bytes.subarray(
          from,
          Math.min(piece.bytes.byteLength, from + length - got),
        );
        out.set(part, got);
        got += part.byteLength;
      } else if (!(await next())) break;
    }
    return got === length ? out : out.subarray(0, got);
  };
  return {
    read(offset, length) {
      const result = queue.then(() =>
        readAt(offset, length).catch(async (err: unknown) => {
          // A failed pass is not continued: the next read starts a new one.
          await stop().catch(() => {});
          throw fail(err);
        }),
      );
      queue = result.catch(() => {});
      return result;
    },
    close() {
      const closed = queue.then(stop);
      queue = closed.catch(() => {});
      return closed;
    },
  };
}

/**
 * The chunks a forward stream passed, kept while they are within KEPT_BEHIND bytes of its
 * position: in order and contiguous, the last one ending at the stream's position (`end`).
 */
class KeptBehind {
  #pieces: Kept[] = [];
  /** The first piece still kept: the ones before it are dropped. */
  #first = 0;
  #bytes = 0;
  /** The member offset the stream has reached. */
  end = 0;

  /** The member offset of the first byte kept (`end` when none is). */
  get start(): number {
    return this.#pieces[this.#first]?.offset ?? this.end;
  }

  push(chunk: Uint8Array): void {
    if (chunk.byteLength === 0) return;
    this.#pieces.push({ offset: this.end, bytes: chunk });
    this.end += chunk.byteLength;
    this.#bytes += chunk.byteLength;
    while (
      this.#pieces.length - this.#first > 1 &&
      this.#bytes - this.#at(this.#first).bytes.byteLength >= KEPT_BEHIND
    ) {
      this.#bytes -= this.#at(this.#first).bytes.byteLength;
      this.#first += 1;
    }
    // Dropped pieces are cut off in one go once they are as many as those kept: a stream of
    // small chunks drops one a chunk, and a shift each would move every piece kept each time.
    if (this.#first > 1024 && this.#first * 2 > this.#pieces.length) {
      this.#pieces = this.#pieces.slice(this.#first);
      this.#first = 0;
    }
  }

  /**
   * The kept piece holding member offset `at` (start <= at < end): a binary search, since a
   * stream of small chunks keeps many pieces.
   */
  pieceOf(at: number): Kept {
    let lo = this.#first;
    let hi = this.#pieces.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.#at(mid).offset <= at) lo = mid;
      else hi = mid - 1;
    }
    return this.#at(lo);
  }

  #at(i: number): Kept {
    return this.#pieces[i] as Kept;
  }
}

/** How much of a compressed member's start is kept once read (the inspectors' heads). */
const KEPT_HEAD = 8 * 1024 * 1024;

/**
 * A compressed member (a deflated zip member): its first bytes are kept once read, since
 * every inspector reads them first; other reads go through one inflating stream of the
 * member (forwardReads: continued forward, opened again for a read behind it).
 */
export function streamedSource(
  name: string,
  size: number,
  open: () => Promise<Readable>,
  fail: (err: unknown) => Error,
  place?: Place,
): ByteSource {
  const stream = forwardReads(open, fail);
  return counted(
    name,
    size,
    keepingHead((offset, length) => stream.read(offset, length), KEPT_HEAD),
    () => stream.close(),
    place,
  );
}

/** One stretch of a member kept in memory. */
export interface Kept {
  offset: number;
  bytes: Uint8Array;
}

/**
 * A member of a tar.gz, known by what was kept of it as the walk's stream passed (all of it
 * when small, else its head and its tail); a read elsewhere goes through `open`, a new
 * stream of the archive from its start to the member (forwardReads).
 */
export function keptSource(
  name: string,
  size: number,
  kept: readonly Kept[],
  open: OpenStream,
  fail: (err: unknown) => Error,
  place?: Place,
): ByteSource {
  const stream = forwardReads(open, fail);
  return counted(
    name,
    size,
    async (offset, length) => {
      for (const k of kept) {
        if (offset >= k.offset && offset + length <= k.offset + k.bytes.byteLength)
          return k.bytes.subarray(offset - k.offset, offset - k.offset + length);
      }
      return stream.read(offset, length);
    },
    () => stream.close(),
    place,
  );
}
