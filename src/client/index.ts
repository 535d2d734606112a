/**
 * The HTTP client of the platform's data-import interface and of the eight operations of
 * its reference. `createClient` returns plain async functions; the transport (fetch,
 * timeouts, retries, errors), the operations and the polling are separate modules.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import type { DataImport, ImportDocument } from '../model/index.js';
import { assertValidConfig } from '../validate/index.js';
import { type BatchPlan, planBatch } from './batch.js';
import { FileError } from './errors.js';
import { type CallOptions, createOperations, type Operations } from './operations.js';
import { type WaitOptions, waitForImport } from './poll.js';
import { createTransport, type TransportOptions } from './transport.js';
import type { UploadOptions } from './upload.js';

export { type ApartCheckOptions, checkBatchApart } from './batch.js';
export {
  ApiError,
  BatchCheckError,
  ClientError,
  type ClientErrorCode,
  FileError,
  ImportFailedError,
  NetworkError,
  RequestError,
  ResponseError,
  TimeoutError,
} from './errors.js';
export { toCamelPath, toSnakePath } from './mask.js';
export type {
  CallOptions,
  ChannelUpdate,
  DataImportPage,
  DetectedConfig,
  ListDataImportsOptions,
  RunUpdate,
  SavedSearchUpdate,
  UpdateOptions,
  UploadTarget,
  ViewUpdate,
} from './operations.js';
export type { WaitOptions } from './poll.js';
export type { RetryOptions } from './retry.js';
export type { FetchLike, TransportOptions as ClientOptions } from './transport.js';
export { plainHttpHost } from './transport.js';
export type { UploadOptions } from './upload.js';

export interface ImportFileOptions extends CallOptions {
  /** Follow the import to its end (SUCCEEDED returns it, FAILED throws ImportFailedError). */
  wait?: boolean | WaitOptions;
  /** Upload options: gzip, filename, onProgress. */
  upload?: Omit<UploadOptions, 'signal'>;
  /** Called once the import exists, before the upload starts. */
  onCreated?: (dataImportId: string) => void;
}

export interface Client extends Operations {
  /** Polls GetDataImport until the import ends (see WaitOptions). */
  waitForImport(dataImportId: string, options?: WaitOptions): Promise<DataImport>;
  /**
   * Validates the config (as `importkit submit` does: ConfigValidationError, nothing sent),
   * checks that the file can be read (FileError, nothing created), creates an import,
   * uploads the file, and answers the DataImport: as it stands after the upload, or (with
   * `wait`) as it ended. With a BatchConfig, `path` is a folder or a zip, tar or tar.gz
   * archive, checked against the config first (BatchCheckError on errors, nothing created):
   * a folder is sent as a zip of the listed files, made as it streams; an archive as it is.
   */
  importFile(
    path: string,
    document: ImportDocument,
    options?: ImportFileOptions,
  ): Promise<DataImport>;
}

export function createClient(options: TransportOptions): Client {
  const transport = createTransport(options);
  const ops = createOperations(transport);
  const wait = (id: string, w: WaitOptions = {}) =>
    waitForImport((i, o) => ops.getDataImport(i, o), id, w, transport.log);
  return {
    ...ops,
    waitForImport: wait,
    async importFile(path, document, o = {}) {
      const call: CallOptions = {};
      if (o.signal) call.signal = o.signal;
      if (o.deadlineMs !== undefined) call.deadlineMs = o.deadlineMs;
      const canonical = assertValidConfig(document);
      // A file that cannot be read fails here, before an import exists that would never get it.
      let batch: BatchPlan | undefined;
      if (canonical.batchConfig) batch = await planBatch(path, canonical.batchConfig);
      else await assertReadableFile(path);
      const { uploadUrl, dataImportId } = await ops.createImportFromUpload(canonical, call);
      o.onCreated?.(dataImportId);
      const upload: UploadOptions = { ...o.upload };
      if (o.signal) upload.signal = o.signal;
      if (batch?.kind === 'folder') await ops.uploadFolder(uploadUrl, path, batch.members, upload);
      // An archive goes as it is: a .tar.gz is not a gzip-encoded upload of a tar.
      else if (batch) await ops.uploadFile(uploadUrl, path, { gzip: false, ...upload });
      else await ops.uploadFile(uploadUrl, path, upload);
      if (o.wait) {
        const w: WaitOptions = typeof o.wait === 'object' ? { ...o.wait } : {};
        if (o.signal && !w.signal) w.signal = o.signal;
        return wait(dataImportId, w);
      }
      return ops.getDataImport(dataImportId, call);
    },
  };
}

/** A FileError with the system's reason when the file to upload cannot be read. */
async function assertReadableFile(path: string): Promise<void> {
  try {
    // stat first: opening a FIFO to test it would wait for a writer.
    const kind = await stat(path);
    if (kind.isDirectory()) throw new FileError(path, 'not a regular file', { errno: 'EISDIR' });
    if (!kind.isFile()) throw new FileError(path, 'not a regular file', {});
    await access(path, constants.R_OK);
  } catch (err) {
    if (err instanceof FileError) throw err;
    const errno = (err as NodeJS.ErrnoException).code;
    const detail = errno === 'ENOENT' ? 'no such file' : `cannot be read (${errno ?? String(err)})`;
    throw new FileError(path, detail, errno ? { cause: err, errno } : { cause: err });
  }
}
