/**
 * A read-only file in h5wasm's in-memory file system whose reads go to a PlaceReader, so
 * the HDF5 library reads a file's range, a zip member's deflate data or a tar.gz member in
 * place, as it reads any file: nothing is copied to disk or held whole in memory.
 *
 * h5wasm has no API for this; it relies on these parts of Emscripten's FS (the build of
 * h5wasm that uses MEMFS, `h5wasm` rather than `h5wasm/node`), pinned by
 * test/inspect/hdf5-file-node.test.ts so an upgrade that changes them fails there first:
 * - `FS.createFile(parent, name, {}, canRead, canWrite)` makes a MEMFS file node;
 * - `FS.open` copies the node's `stream_ops` onto each stream it opens, so replacing them on
 *   the node routes `open`, `close`, `llseek` and `read(stream, heap, offset, length,
 *   position)` of every later open to us;
 * - MEMFS reports a file node's `usedBytes` as its size (`stat`), which the HDF5 library
 *   takes for the end of the file;
 * - throwing `new FS.ErrnoError(errno)` from a stream op fails the C call with that errno.
 */
import type { PlaceReader } from '../../inspect/shared.js';

interface EmStream {
  position: number;
}

interface EmNode {
  stream_ops: unknown;
  usedBytes: number;
}

/** The part of Emscripten's FS object used here. */
export interface EmFs {
  createFile(
    parent: string,
    name: string,
    props: object,
    canRead: boolean,
    canWrite: boolean,
  ): EmNode;
  mkdir(path: string): unknown;
  unlink(path: string): void;
  analyzePath(path: string): { exists: boolean };
  ErrnoError: new (errno: number) => Error;
}

/** Emscripten's errno values (its own numbering, not the host's). */
const EINVAL = 28;
const EIO = 29;
/** The folder of the file nodes. */
const FOLDER = '/places';

let count = 0;

/**
 * Makes a file node reading through `reader`; returns its path in h5wasm's FS, the reason
 * of the last failed read (the reader's message, for the job's reason) and a function that
 * removes the node. The reader stays the caller's to close.
 */
export function placeFile(
  fs: EmFs,
  reader: PlaceReader,
): { path: string; failure(): string | undefined; remove(): void } {
  if (!fs.analyzePath(FOLDER).exists) fs.mkdir(FOLDER);
  count += 1;
  const name = `${count}.h5`;
  const node = fs.createFile(FOLDER, name, {}, true, false);
  let failure: string | undefined;
  node.stream_ops = {
    open() {},
    close() {},
    llseek(stream: EmStream, offset: number, whence: number): number {
      const base = whence === 1 ? stream.position : whence === 2 ? reader.size : 0;
      const position = base + offset;
      if (position < 0) throw new fs.ErrnoError(EINVAL);
      return position;
    },
    read(_stream: EmStream, heap: Int8Array, offset: number, length: number, position: number) {
      try {
        // The wasm heap as bytes: copies into an Int8Array would convert each byte.
        const into = new Uint8Array(heap.buffer, heap.byteOffset + offset, length);
        return reader.read(into, 0, length, position);
      } catch (err) {
        failure = err instanceof Error ? err.message : String(err);
        throw new fs.ErrnoError(EIO);
      }
    },
  };
  node.usedBytes = reader.size;
  const path = `${FOLDER}/${name}`;
  return { path, failure: () => failure, remove: () => fs.unlink(path) };
}
