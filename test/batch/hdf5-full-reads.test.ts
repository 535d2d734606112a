/**
 * `check --full` of an HDF5 member of a deflated zip inflates the member once, not once a
 * slice: the HDF5 worker keeps the member's reader from one slice to the next, and that
 * reader keeps what it inflated (a member up to 32 MiB). The bytes the process reads are
 * Linux's count (/proc/self/io `rchar`: every thread, the HDF5 worker's included).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { zipBytes } from '../../scripts/fixtures/zip-writer.js';
import { checkBatch } from '../../src/check/index.js';
import { inferBatch } from '../../src/infer/batch.js';
import type { BatchConfig } from '../../src/model/batch.js';
import { timeAndValues } from '../helpers/hdf5.js';

const tmp = mkdtempSync(join(tmpdir(), 'importkit-hdf5-full-reads-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** 1,000,000 rows of time and of values: 8 slices of each dataset in `check --full`. */
const ROWS = 1_000_000;

function bytesReadByProcess(): number {
  const io = readFileSync('/proc/self/io', 'utf8');
  return Number(/^rchar: (\d+)$/m.exec(io)?.[1]);
}

test.skipIf(!existsSync('/proc/self/io'))(
  'a deflated HDF5 member is inflated once, not once a slice',
  async () => {
    const h5 = await timeAndValues(join(tmp, 'flight.h5'), ROWS, 65_536);
    const zip = join(tmp, 'set.zip');
    writeFileSync(zip, zipBytes([{ name: 'flight.h5', data: h5, method: 8 }]));
    const draft = await inferBatch(zip);
    const batch = draft.document.batchConfig as BatchConfig;
    expect(Object.keys(batch.fileConfigs ?? {})).toEqual(['flight.h5']);
    const size = statSync(zip).size;
    let before = bytesReadByProcess();
    expect(await checkBatch(batch, zip, { full: true })).toEqual([]);
    const first = bytesReadByProcess() - before;
    before = bytesReadByProcess();
    expect(await checkBatch(batch, zip, { full: true })).toEqual([]);
    const again = bytesReadByProcess() - before;
    // The member is inflated once (infer read its head; the check reads on from there:
    // 0.74 times the archive measured, module loading included) and kept by the worker's
    // reader, so a second check reads next to nothing (0.03); starting again at every
    // slice, or reading the datasets side by side, read 6 to 7 times the archive.
    expect(first).toBeLessThan(1.5 * size);
    expect(again).toBeLessThan(0.2 * size);
  },
  60_000,
);
