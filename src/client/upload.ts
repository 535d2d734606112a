/** Streams a local file as a request body: positioned reads, one chunk in memory at a time. */
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import type { PreparedBody } from './transport.js';

export interface UploadOptions {
  /**
   * The file is gzip-compressed: sent as is with `Content-Encoding: gzip`. Default: true
   * when the file starts with the gzip magic bytes.
   */
  gzip?: boolean;
  /** The name sent in Content-Disposition (default: the file's base name). */
  filename?: string;
  /** Called as bytes go out: (sent, total). */
  onProgress?: (sent: number, total: number) => void;
  /** Stops the upload at once. */
  signal?: AbortSignal;
  /** Time limit of one upload attempt in ms (default: none; the deadline still applies). */
  timeoutMs?: number;
  /**
   * A folder's zip: written with ZIP64 records for every member and the end of the archive
   * even when small (by default they are written only past 4 GiB or 65,535 files).
   */
  forceZip64?: boolean;
}

const CHUNK = 1024 * 1024;

/** `attachment; filename="..."`, with an RFC 5987 `filename*` for names beyond ASCII. */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, (c) => `\\${c}`);
  const plain = `attachment; filename="${ascii}"`;
  if (/^[\x20-\x7e]*$/.test(name)) return plain;
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${plain}; filename*=UTF-8''${encoded}`;
}

async function isGzip(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await fh.read(head, 0, 2, 0);
    return bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    await fh.close();
  }
}

/**
 * A fresh body over the file: a pull-based stream, so nothing is read before the
 * connection asks for it and memory stays at about one chunk whatever the file's size.
 */
export async function fileBody(path: string, options: UploadOptions = {}): Promise<PreparedBody> {
  const gzip = options.gzip ?? (await isGzip(path));
  const fh = await open(path, 'r');
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await fh.close();
  };
  const total = (await fh.stat()).size;
  let position = 0;
  options.onProgress?.(0, total);
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const buffer = new Uint8Array(Math.min(CHUNK, Math.max(1, total - position)));
        const { bytesRead } = await fh.read(buffer, 0, buffer.length, position);
        if (bytesRead === 0) {
          controller.close();
          await close();
          return;
        }
        position += bytesRead;
        controller.enqueue(bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead));
        options.onProgress?.(position, total);
      },
      async cancel() {
        await close();
      },
    },
    { highWaterMark: 0 },
  );
  const headers: Record<string, string> = {
    'content-type': 'application/octet-stream',
    'content-disposition': contentDisposition(options.filename ?? basename(path)),
  };
  if (gzip) headers['content-encoding'] = 'gzip';
  return { body: stream, headers, close };
}
