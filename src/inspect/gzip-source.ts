import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { issue } from '../model/plain.js';
import type { ByteSource } from './byte-source.js';
import { InspectError } from './profile.js';

const KiB = 1024;

/** True when the bytes start with the gzip magic number. */
export function isGzip(head: Uint8Array): boolean {
  return head.byteLength >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

/**
 * The decompressed content of a gzip byte source as a stream of chunks. Compressed bytes
 * are read through `source` in `chunkSize` pieces only as the consumer pulls, so stopping
 * early (a `break` out of `for await`) reads only what was needed.
 */
export async function* gunzipChunks(
  source: ByteSource,
  chunkSize = 64 * KiB,
): AsyncGenerator<Uint8Array> {
  async function* compressed() {
    for (let offset = 0; offset < source.size; offset += chunkSize) {
      yield await source.read(offset, chunkSize);
    }
  }
  const input = Readable.from(compressed(), { objectMode: false, highWaterMark: chunkSize });
  const gunzip = createGunzip({ chunkSize: chunkSize });
  input.on('error', (err) => gunzip.destroy(err));
  input.pipe(gunzip);
  try {
    for await (const chunk of gunzip) yield chunk as Uint8Array;
  } catch (err) {
    if (err instanceof InspectError) throw err;
    throw new InspectError(
      issue(
        'csv_gzip_corrupt',
        '',
        `${source.name}: the gzip data is corrupt or truncated (${(err as Error).message})`,
        {
          hint: 'Check the file with `gzip -t`; re-compress it or give the uncompressed file.',
          source: { file: source.name },
        },
      ),
      { cause: err },
    );
  } finally {
    input.destroy();
    gunzip.destroy();
  }
}

/**
 * The first `maxBytes` decompressed bytes of a gzip source (fewer when the content is
 * shorter: then `complete` is true). Reads only the compressed bytes needed for them.
 */
export async function gunzipHead(
  source: ByteSource,
  maxBytes: number,
  chunkSize = 64 * KiB,
): Promise<{ bytes: Uint8Array; complete: boolean }> {
  const parts: Uint8Array[] = [];
  let total = 0;
  let complete = true;
  for await (const chunk of gunzipChunks(source, chunkSize)) {
    parts.push(chunk);
    total += chunk.byteLength;
    if (total >= maxBytes) {
      complete = false;
      break;
    }
  }
  const all = Buffer.concat(parts, total);
  // Exactly maxBytes when cut: the rest of the content was not looked at.
  const bytes = total > maxBytes ? all.subarray(0, maxBytes) : all;
  return { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), complete };
}
