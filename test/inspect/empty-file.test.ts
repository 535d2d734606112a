import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { inspectCh10 } from '../../src/formats/ch10/inspect.js';
import { inspectCsv } from '../../src/formats/csv/inspect.js';
import { inspectHdf5 } from '../../src/formats/hdf5/inspect.js';
import { inspectParquet } from '../../src/formats/parquet/inspect.js';
import { inspectTdms } from '../../src/formats/tdms/inspect.js';
import { inspectUlog } from '../../src/formats/ulog/inspect.js';
import { InspectError, inspectFile } from '../../src/inspect/index.js';

/** An empty file is one fact: every inspector, called by name or through inspectFile, says `file_empty`. */

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-empty-file-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function issueOf(run: Promise<unknown>) {
  const err = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InspectError);
  return (err as InspectError).issue;
}

const inspectors: Array<[string, (path: string) => Promise<unknown>]> = [
  ['empty.csv', inspectCsv],
  ['empty.csv.gz', inspectCsv],
  ['empty.parquet', inspectParquet],
  ['empty.h5', inspectHdf5],
  ['empty.tdms', inspectTdms],
  ['empty.ulg', inspectUlog],
  ['empty.ch10', inspectCh10],
];

describe('an empty file', () => {
  test.each(inspectors)(
    '%s: file_empty, by name and through inspectFile',
    async (name, inspect) => {
      const path = join(dir, name);
      await writeFile(path, '');
      const expected = {
        code: 'file_empty',
        severity: 'error',
        path: '',
        message: `${path}: the file is empty (0 bytes)`,
        hint: 'Check that the export finished and that this is the file you meant.',
        source: { file: path },
      };
      expect(await issueOf(inspect(path))).toEqual(expected);
      expect(await issueOf(inspectFile(path))).toEqual(expected);
    },
  );
});
