/**
 * A batch's upload body from a folder: a zip of exactly the files the BatchConfig lists,
 * written as the connection asks for it. Nothing is copied to disk and memory stays at a
 * few chunks (one file read at a time, through deflate, with backpressure to the socket).
 *
 * Why yazl: it is by the author of yauzl (which reads our archives), it streams its output
 * (members are opened only when their turn comes), deflates members through zlib, and
 * switches to ZIP64 by itself for members or archives past 4 GiB or 65,535 entries.
 */
import { createReadStream, type ReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Readable } from 'node:stream';
import yazl from 'yazl';
import type { PreparedBody } from './transport.js';
import { contentDisposition, type UploadOptions } from './upload.js';

const CHUNK = 64 * 1024;

/** One listed file: its path inside the archive and where it is on disk. */
interface Listed {
  member: string;
  file: string;
  size: number;
  mtime: Date;
  mode: number;
}

async function listed(root: string, members: readonly string[]): Promise<Listed[]> {
  return Promise.all(
    members.map(async (member) => {
      const file = join(root, member);
      const s = await stat(file);
      return { member, file, size: s.size, mtime: s.mtime, mode: s.mode };
    }),
  );
}

/** The archive's name: the folder's name with `.zip`. */
export function zipName(root: string): string {
  return `${basename(root.replace(/[/\\]+$/, '')) || 'batch'}.zip`;
}

/**
 * A fresh body: the zip of `members` (paths inside `root`, POSIX `/`), deflated, in the
 * order given. `onProgress` counts the files' bytes read (sent, total of the files' sizes).
 */
export async function zipBody(
  root: string,
  members: readonly string[],
  options: UploadOptions = {},
): Promise<PreparedBody> {
  const files = await listed(root, members);
  const total = files.reduce((n, f) => n + f.size, 0);
  let read = 0;
  let current: ReadStream | undefined;
  const zip = new yazl.ZipFile();
  const forceZip64Format = options.forceZip64 === true;
  for (const f of files) {
    const entry = { size: f.size, mtime: f.mtime, mode: f.mode, compress: true, forceZip64Format };
    zip.addReadStreamLazy(f.member, entry, (cb) => {
      current = createReadStream(f.file, { highWaterMark: CHUNK });
      current.on('data', (chunk) => {
        read += chunk.length;
        options.onProgress?.(read, total);
      });
      cb(null, current);
    });
  }
  zip.end({ forceZip64Format, comment: '' });
  const output = zip.outputStream as Readable;
  // A file that fails (removed, changed size) ends the body with its error.
  zip.on('error', (err: Error) => output.destroy(err));
  const chunks = output[Symbol.asyncIterator]();
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    current?.destroy();
    output.destroy();
  };
  options.onProgress?.(0, total);
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) {
          controller.close();
          await close();
          return;
        }
        controller.enqueue(next.value as Uint8Array);
      },
      async cancel() {
        await close();
      },
    },
    { highWaterMark: 0 },
  );
  const headers = {
    'content-type': 'application/zip',
    'content-disposition': contentDisposition(options.filename ?? zipName(root)),
  };
  return { body, headers, close };
}
