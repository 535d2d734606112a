import type { ImportDocument } from '../model/index.js';
import { finish } from './_common.js';

/**
 * The body of CreateDataImportFromUrl: a built config and the http, https or s3 address
 * the platform fetches the file from. `fromUrl('s3://bucket/run.csv', csvConfig({...}))`.
 */
export function fromUrl<D extends ImportDocument>(url: string, doc: D): D & { url: string } {
  return finish('url', { url, ...doc });
}
