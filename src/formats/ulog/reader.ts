import type { ByteSource } from '../../inspect/shared.js';

/** Bytes read per refill: big enough that small messages cost no read each, small for memory. */
export const CHUNK = 1 << 20;

/**
 * A read-ahead window over a ByteSource: `peek` answers from the window without waiting,
 * `get` refills it when a range is not inside. Only one window (at most CHUNK bytes, or one
 * message when larger) is held at a time, so memory stays bounded whatever the file size.
 * A range past the window's end that `skip`s over is never read.
 *
 * Once a window is read, the bytes after it (up to CHUNK, not past the `until` of the get
 * that read it) are read while the walk goes through it. A get past the window then takes
 * them: as they are when it starts inside them, else joined after the window's last bytes
 * from where it starts (the message that runs past the window's end) in a buffer of the
 * reader's own. So a walk from start to end reads each byte once and does not wait for its
 * reads; a get that leaves the window elsewhere reads afresh. At most one read is under
 * way at a time, and a window is never read into while it is held (a source whose buffers
 * take turns is read again only after the walk has left the window before). On bench/ulog
 * (1 GB, alternated), a full check with one job took 6.29 to 6.48 s, against 6.77 to 8.70 s
 * waiting for each window's read.
 */
export class ChunkReader {
  readonly size: number;
  #source: ByteSource;
  #buf: Uint8Array = new Uint8Array(0);
  #start = 0;
  /** The read of the bytes after the window, under way. */
  #ahead: { start: number; read: Promise<Uint8Array | undefined> } | undefined;
  /** The reader's buffer for joined windows. */
  #joined = new Uint8Array(0);

  /** Whether the bytes after a window are read while it is walked (see above). */
  #readsAhead: boolean;

  /**
   * `readAhead` false: a source whose reads are done in the call (a worker's blocking
   * reads), where reading ahead would only add the join's copies.
   */
  constructor(source: ByteSource, options: { readAhead?: boolean } = {}) {
    this.#source = source;
    this.size = source.size;
    this.#readsAhead = options.readAhead !== false;
  }

  /**
   * Waits for a read ahead under way (its bytes stay for a get that wants them). A walk may
   * end with one whose bytes it skipped (the end of a data message it does not read): the
   * source's `bytesRead` counts it once it has settled, at once from memory, later from
   * disk, so a profile that reports `bytesRead` waits for it first.
   */
  async settle(): Promise<void> {
    await this.#ahead?.read;
  }

  /** The bytes read last, starting at file offset `windowStart`. */
  get window(): Uint8Array {
    return this.#buf;
  }

  get windowStart(): number {
    return this.#start;
  }

  /** The bytes [offset, offset + n) when they are in the window; undefined otherwise. */
  peek(offset: number, n: number): Uint8Array | undefined {
    const at = offset - this.#start;
    if (at < 0 || at + n > this.#buf.byteLength) return undefined;
    return this.#buf.subarray(at, at + n);
  }

  /**
   * The bytes [offset, offset + n), reading a new window if needed (not past `until` when
   * given, so that a walk over a range reads no further than the range needs); undefined
   * past the end.
   */
  async get(offset: number, n: number, until = this.size): Promise<Uint8Array | undefined> {
    const hit = this.peek(offset, n);
    if (hit) return hit;
    if (offset < 0 || offset + n > this.size) return undefined;
    const ahead = this.#ahead;
    this.#ahead = undefined;
    if (ahead) {
      // Settled before any other read: its buffer may be the one the next read goes into.
      const next = await ahead.read;
      if (next && this.#takeAhead(ahead.start, next, offset, n)) {
        this.#readAhead(until);
        return this.peek(offset, n);
      }
    }
    const length = Math.max(n, Math.min(CHUNK, this.size - offset, until - offset));
    this.#buf = await this.#source.read(offset, length);
    this.#start = offset;
    this.#readAhead(until);
    return this.peek(offset, n);
  }

  /**
   * Makes the bytes read ahead (`next`, from `start`, where the window ends) the window, when
   * [offset, offset + n) lies in them, or in the window's last bytes and them (joined);
   * false when it does not.
   */
  #takeAhead(start: number, next: Uint8Array, offset: number, n: number): boolean {
    if (offset + n > start + next.byteLength) return false;
    if (offset >= start) {
      this.#buf = next;
      this.#start = start;
      return true;
    }
    if (offset < this.#start) return false;
    const tail = this.#buf.subarray(offset - this.#start);
    const size = tail.byteLength + next.byteLength;
    // The window may be this buffer already: `set` copies a range of the same buffer whole.
    if (this.#joined.byteLength < size) {
      const bigger = new Uint8Array(Math.max(size, CHUNK + 65_536));
      bigger.set(tail, 0);
      this.#joined = bigger;
    } else this.#joined.set(tail, 0);
    this.#joined.set(next, tail.byteLength);
    this.#buf = this.#joined.subarray(0, size);
    this.#start = offset;
    return true;
  }

  /** Starts reading the bytes after the window, up to CHUNK and not past `until`. */
  #readAhead(until: number): void {
    if (!this.#readsAhead) return;
    const start = this.#start + this.#buf.byteLength;
    const length = Math.min(CHUNK, this.size - start, until - start);
    if (length <= 0) return;
    // A failed read ahead is read again by the get that wants its bytes, which meets the error.
    this.#ahead = { start, read: this.#source.read(start, length).catch(() => undefined) };
  }

  /**
   * The first offset in [from, end) where `magic` starts, searching window by window; -1
   * when it does not occur. Reads each byte at most once more than the scan would.
   */
  async find(magic: readonly number[], from: number, end: number): Promise<number> {
    let pos = from;
    while (pos + magic.length <= end) {
      const n = Math.min(CHUNK, end - pos);
      const bytes = await this.get(pos, n);
      if (!bytes) return -1;
      const hit = indexOf(bytes, magic);
      if (hit >= 0) return pos + hit;
      if (n < magic.length) return -1;
      pos += n - magic.length + 1;
    }
    return -1;
  }
}

function indexOf(bytes: Uint8Array, magic: readonly number[]): number {
  const first = magic[0] as number;
  const last = bytes.byteLength - magic.length;
  for (let i = bytes.indexOf(first); i >= 0 && i <= last; i = bytes.indexOf(first, i + 1)) {
    let ok = true;
    for (let j = 1; j < magic.length; j++) {
      if (bytes[i + j] !== magic[j]) {
        ok = false;
        break;
      }
    }
    if (ok) return i;
  }
  return -1;
}

/** Little-endian reads from a byte range. */
export function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

const utf8 = new TextDecoder('utf-8');

/** Text of a ULog string (no terminating NUL in the format; one written anyway is cut). */
export function text(bytes: Uint8Array): string {
  const nul = bytes.indexOf(0);
  return utf8.decode(nul >= 0 ? bytes.subarray(0, nul) : bytes);
}
