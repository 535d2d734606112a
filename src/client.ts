/**
 * `importkit/client`: submit imports to the platform and follow them; the eight operations.
 * Node only (uploads stream files from disk).
 */

export type * from './client/index.js';
export {
  ApiError,
  BatchCheckError,
  ClientError,
  createClient,
  FileError,
  ImportFailedError,
  NetworkError,
  RequestError,
  ResponseError,
  TimeoutError,
} from './client/index.js';
