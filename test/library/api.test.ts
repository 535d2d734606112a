/**
 * The library API as docs/library.md describes it: the typing (checked by `npm run
 * typecheck`, asserted at run time where it can be), `client.importFile` validating first
 * and refusing an unreadable file before anything is sent, and every error class exposing
 * its `code` (and `issues` where it has several) the same way.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, expectTypeOf, test } from 'vitest';
import {
  ApiError,
  ClientError,
  ConfigBuildError,
  ConfigValidationError,
  createClient,
  csvConfig,
  type DataImport,
  type DataImportStatus,
  FileError,
  type ImportDocument,
  InspectError,
  inspectFile,
  isIssueCode,
  UsageError,
  validateConfig,
} from '../../src/node.js';
import { json, plainServer } from '../client/_helpers.js';

const root = join(import.meta.dirname, '..', '..');
const DATA = join(root, 'fixtures', 'csv', 'unix-milliseconds.csv');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-library-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const valid = csvConfig({
  asset: 'rig',
  firstDataRow: 2,
  time: { column: 1, format: 'absolute_unix_milliseconds' },
  columns: { 2: { name: 'p', type: 'double' } },
});

describe('typing', () => {
  test('validateConfig: ok true narrows value to the document', () => {
    const r = validateConfig(valid);
    if (r.ok) {
      expectTypeOf(r.value).toEqualTypeOf<ImportDocument>();
      expect(r.value.csvConfig?.assetName).toBe('rig');
    } else {
      expectTypeOf(r.value).toEqualTypeOf<ImportDocument | undefined>();
    }
    expect(r.ok).toBe(true);
    expect(validateConfig({ csvConfig: { firstDataRow: -1 } }).ok).toBe(false);
  });

  test('DataImport.status: the known statuses, and any other string', () => {
    expectTypeOf<'DATA_IMPORT_STATUS_SUCCEEDED'>().toExtend<NonNullable<DataImport['status']>>();
    expectTypeOf<'SOMETHING_NEWER'>().toExtend<NonNullable<DataImport['status']>>();
    expectTypeOf<DataImportStatus>().toExtend<NonNullable<DataImport['status']>>();
    expectTypeOf<42>().not.toExtend<NonNullable<DataImport['status']>>();
  });
});

describe('client.importFile', () => {
  test('validates the config first: ConfigValidationError, and nothing is sent', async () => {
    let requests = 0;
    const server = await plainServer((_req, res) => {
      requests++;
      json(res, 500, {});
    });
    try {
      const client = createClient({ baseUrl: server.url, apiKey: 'k' });
      const err = await client
        .importFile(DATA, { csvConfig: { firstDataRow: -1 } } as never)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConfigValidationError);
      expect((err as ConfigValidationError).code).toBe(
        (err as ConfigValidationError).issues[0]?.code,
      );
      expect(requests).toBe(0);
    } finally {
      await server.close();
    }
  });

  test('a missing file or a folder: a FileError with its code, nothing created', async () => {
    let requests = 0;
    const server = await plainServer((_req, res) => {
      requests++;
      json(res, 500, {});
    });
    try {
      const client = createClient({ baseUrl: server.url, apiKey: 'k' });
      for (const [path, detail, errno] of [
        [join(dir, 'nope.csv'), 'no such file', 'ENOENT'],
        [dir, 'not a regular file', 'EISDIR'],
      ] as const) {
        const err = await client.importFile(path, valid).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(FileError);
        expect(err).toBeInstanceOf(ClientError);
        const { code, message } = err as FileError;
        expect({ code, message, errno: (err as FileError).errno }).toEqual({
          code: 'upload_file_unreadable',
          message: `${path}: ${detail}; no import was created`,
          errno,
        });
      }
      expect(requests).toBe(0);
    } finally {
      await server.close();
    }
  });
});

describe('every error class exposes code the same way', () => {
  test('a registered issue code on each; issues where there are several', async () => {
    const client = createClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k' });
    const errors: Array<{ name: string; code: string }> = [];
    const api = new ApiError({ method: 'GET', url: 'http://x' }, 404, { code: 5, message: 'gone' });
    expect(api.grpcCode).toBe(5);
    errors.push(api);
    errors.push(
      (await client.importFile(join(dir, 'nope'), valid).catch((e: unknown) => e)) as FileError,
    );
    const build = (() => {
      try {
        csvConfig({
          firstDataRow: 0 as never,
          time: { column: 1, format: 'absolute_unix_seconds' },
          columns: {},
        });
      } catch (e) {
        return e as ConfigBuildError;
      }
    })();
    expect(build).toBeInstanceOf(ConfigBuildError);
    expect(build?.issues.length).toBeGreaterThan(0);
    errors.push(build as ConfigBuildError);
    const inspect = (await inspectFile(join(dir, 'nope.csv')).catch(
      (e: unknown) => e,
    )) as InspectError;
    expect(inspect).toBeInstanceOf(InspectError);
    expect(inspect.issues).toEqual([inspect.issue]);
    errors.push(inspect);
    errors.push(new UsageError('x'));
    expect(errors.map((e) => [e.name, e.code])).toEqual([
      ['ApiError', 'api_error'],
      ['FileError', 'upload_file_unreadable'],
      ['ConfigBuildError', build?.issues.find((i) => i.severity === 'error')?.code],
      ['InspectError', 'file_not_found'],
      ['UsageError', 'usage_error'],
    ]);
    for (const e of errors) expect(isIssueCode(e.code)).toBe(true);
  });
});
