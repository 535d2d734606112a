/**
 * The upload of an import's file: `POST /uploads/{id}?token=...`, the body streamed to disk
 * (gunzipped when gzip-encoded) under size and inflation guards, then the import started.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { basename, join } from 'node:path';
import { PassThrough, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { INFLATION_SLACK, MAX_INFLATION_RATIO } from '../../model/plain.js';
import { commit, type EmulatorContext, startImport } from '../context.js';
import { HttpFailure, invalid, notFound } from '../http.js';
import type { ImportRecord } from '../store-state.js';
import type { Route, RouteCall } from './table.js';

export const uploadRoutes: Route[] = [
  { method: 'POST', path: /^\/uploads\/([^/]+)$/, handler: upload },
];

async function upload({ req, url, params, orgId }: RouteCall, ctx: EmulatorContext) {
  const id = params[0] ?? '';
  const imports = ctx.store.data.imports;
  const rec = Object.hasOwn(imports, id) ? imports[id] : undefined;
  if (!rec || rec.orgId !== orgId || url.searchParams.get('token') !== rec.uploadToken) {
    throw notFound('upload', id);
  }
  if (rec.source !== 'upload') throw new HttpFailure(9, `data import ${id} takes no upload`);
  if (rec.filePath !== undefined || ctx.uploading.has(id)) {
    throw new HttpFailure(9, `data import ${id} already has its file`);
  }
  ctx.uploading.add(id);
  try {
    await receive(ctx, req, rec, id);
  } finally {
    ctx.uploading.delete(id);
  }
  return {};
}

async function receive(ctx: EmulatorContext, req: IncomingMessage, rec: ImportRecord, id: string) {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity' && encoding !== 'gzip') {
    throw invalid(`Content-Encoding '${encoding}' is not supported (gzip or none)`);
  }
  const gzip = encoding === 'gzip';
  const name = uploadName(req.headers['content-disposition'], gzip);
  const dir = join(ctx.uploadsDir, id);
  await mkdir(dir, { recursive: true });
  const path = join(dir, name);
  try {
    await saveBody(req, [...uploadStages(gzip, ctx.maxUploadBytes), createWriteStream(path)]);
  } catch (err) {
    await rm(path, { force: true });
    const code = (err as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && code.startsWith('Z_')) {
      throw invalid('the upload is not valid gzip data');
    }
    throw err;
  }
  const modified = rec.dataImport.modifiedDate;
  rec.filePath = path;
  rec.fileName = name;
  rec.dataImport.modifiedDate = ctx.now();
  ctx.store.touch('imports', id);
  await commit(ctx, async () => {
    delete rec.filePath;
    delete rec.fileName;
    if (modified === undefined) delete rec.dataImport.modifiedDate;
    else rec.dataImport.modifiedDate = modified;
    await rm(path, { force: true });
  });
  startImport(ctx, rec);
}

/** Reads `name` from `attachment; filename="name"` (or `filename*=UTF-8''...`). */
export function filenameOf(disposition: string | undefined): string | undefined {
  if (!disposition) return undefined;
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // fall through to the plain form
    }
  }
  const quoted = /filename\s*=\s*"((?:\\.|[^"\\])*)"/i.exec(disposition);
  if (quoted?.[1] !== undefined) return quoted[1].replace(/\\(.)/g, '$1');
  const plain = /filename\s*=\s*([^;\s]+)/i.exec(disposition);
  return plain?.[1];
}

/**
 * The name an upload is stored under: the base name of the one sent (`upload` when none),
 * without `.gz` when gzip-encoded. A name that cannot be a file name is a 400.
 */
export function uploadName(disposition: string | undefined, gzip: boolean): string {
  let name = basename((filenameOf(disposition) ?? '').replace(/\\/g, '/')) || 'upload';
  if (gzip) name = name.replace(/\.gz$/i, '') || 'upload';
  const why =
    name === '.' || name === '..'
      ? `'${name}' names a folder`
      : // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
        /[\u0000-\u001f\u007f]/.test(name)
        ? 'it holds control characters'
        : Buffer.byteLength(name) > 255
          ? 'it is longer than 255 bytes'
          : undefined;
  if (why) throw invalid(`the file name in Content-Disposition cannot be used: ${why}`, 'filename');
  return name;
}

/**
 * The transforms an upload goes through before the disk: gunzip when gzip-encoded, and a
 * guard that ends it (413) past `maxBytes`, or when gzip data grows past
 * MAX_INFLATION_RATIO times its size (a decompression bomb).
 */
function uploadStages(gzip: boolean, maxBytes: number): Transform[] {
  let wire = 0;
  let data = 0;
  const tooLarge = (why: string) => new HttpFailure(3, `the upload is refused: ${why}`, [], 413);
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      wire += chunk.length;
      done(null, chunk);
    },
  });
  const guard = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      data += chunk.length;
      if (data > maxBytes) {
        return done(tooLarge(`its data is larger than ${maxBytes} bytes`));
      }
      if (gzip && data > INFLATION_SLACK && data > MAX_INFLATION_RATIO * wire) {
        return done(tooLarge(`it decompresses to more than ${MAX_INFLATION_RATIO} times its size`));
      }
      done(null, chunk);
    },
  });
  return gzip ? [counter, createGunzip(), guard] : [guard];
}

/**
 * Pipes a request body through `stages`. Unlike a pipeline that starts at the request,
 * a failing stage leaves the request (and its socket) alone, so the answer that says why
 * still reaches the client while the rest of the body is drained.
 */
async function saveBody(
  req: IncomingMessage,
  stages: Array<NodeJS.ReadWriteStream | NodeJS.WritableStream>,
): Promise<void> {
  const entry = new PassThrough();
  const cutOff = () => {
    if (!req.complete) entry.destroy(new Error('the upload ended before its last byte'));
  };
  req.on('close', cutOff);
  req.on('error', cutOff);
  req.pipe(entry);
  try {
    await pipeline([entry, ...stages]);
  } finally {
    req.off('close', cutOff);
    req.unpipe(entry);
  }
}
