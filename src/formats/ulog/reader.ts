import type { ByteSource } from '../../inspect/shared.js';

/** Bytes read per refill: big enough that small messages cost no read each, small for memory. */
export const CHUNK = 1 << 20;

/**
 * A read-ahead window over a ByteSource: `peek` answers from the window without waiting,
 * `get` refills it when a range is not inside. Only one window (at most CHUNK bytes, or one
 * message when larger) is held at a time, so memory stays bounded whatever the file size.
 * A range past the window's end that `skip`s over is never read.
 */
export class ChunkReader {
  readonly size: number;
  #source: ByteSource;
  #buf: Uint8Array = new Uint8Array(0);
  #start = 0;

  constructor(source: ByteSource) {
    this.#source = source;
    this.size = source.size;
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
    const length = Math.max(n, Math.min(CHUNK, this.size - offset, until - offset));
    this.#buf = await this.#source.read(offset, length);
    this.#start = offset;
    return this.peek(offset, n);
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
