/**
 * HDF5 members of an archive are read in place, never extracted: a stored zip, a deflated
 * zip, a tar and a tar.gz give the same draft as their folder, each HDF5 member's
 * source says where its bytes are (a file's range, deflate data, a gzip stream), and
 * nothing is written to the temp folder while the archive is inferred.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { zipBytes } from '../../scripts/fixtures/zip-writer.js';
import { inspectHdf5 } from '../../src/formats/hdf5/inspect.js';
import { type BatchDraft, inferBatch } from '../../src/infer/batch.js';
import {
  type ContainerKind,
  InspectError,
  memorySource,
  openContainer,
} from '../../src/inspect/index.js';
import { tarOf } from '../helpers/archives.js';
import { timeAndValues } from '../helpers/hdf5.js';
import { platformExamples, repoRoot } from '../helpers/paths.js';
import { tempWritesDuring } from '../helpers/temp-writes.js';

const tmp = mkdtempSync(join(tmpdir(), 'importkit-hdf5-in-place-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Rows of an HDF5 file of a few MiB (time and values over 1 MiB in): reads past the kept head. */
const ROWS = 200_000;

let files: Array<[string, Uint8Array]>;
const archives: Array<[string, ContainerKind]> = [
  ['set-stored.zip', 'zip'],
  ['set-deflated.zip', 'zip'],
  ['set.tar', 'tar'],
  ['set.tar.gz', 'tar.gz'],
];

beforeAll(async () => {
  const bad = Buffer.from(readFileSync(join(platformExamples, 'hdf5-one-d.h5')));
  bad.fill(0xa5, 96, 144);
  files = [
    ['run.csv', Buffer.from('time,temp\n2024-01-01T00:00:00Z,1.5\n2024-01-01T00:00:01Z,2.5\n')],
    ['h5/one d.h5', readFileSync(join(repoRoot, 'fixtures', 'hdf5', 'one-d-root.h5'))],
    ['h5/compound.h5', readFileSync(join(platformExamples, 'hdf5-compound.h5'))],
    ['h5/larger.h5', await timeAndValues(join(tmp, 'larger.h5'), ROWS, 16_384)],
    ['h5/damaged.h5', bad],
    ['ch10/recorder.ch10', readFileSync(join(repoRoot, 'fixtures', 'ch10', 'recorder.ch10'))],
  ];
  for (const [name, data] of files) {
    mkdirSync(join(tmp, 'set', dirname(name)), { recursive: true });
    writeFileSync(join(tmp, 'set', name), data);
  }
  const zip = (method: 0 | 8) => zipBytes(files.map(([name, data]) => ({ name, data, method })));
  writeFileSync(join(tmp, 'set-stored.zip'), zip(0));
  writeFileSync(join(tmp, 'set-deflated.zip'), zip(8));
  const tar = await tarOf(files);
  writeFileSync(join(tmp, 'set.tar'), tar);
  writeFileSync(join(tmp, 'set.tar.gz'), gzipSync(tar));
});

/** Runs `inferBatch` with the OS temp folder pointed at an empty folder that is watched. */
async function inferWatchingTemp(path: string): Promise<{ draft: BatchDraft; written: string[] }> {
  const { result, written } = await tempWritesDuring(tmp, () => inferBatch(path, { jobs: 2 }));
  return { draft: result, written };
}

describe('HDF5 members read in place', () => {
  test('each archive gives the folder draft, and nothing is written to the temp folder', async () => {
    const folder = await inferBatch(join(tmp, 'set'), { jobs: 2 });
    const configs = folder.document.batchConfig?.fileConfigs ?? {};
    expect(Object.keys(configs).sort()).toEqual([
      'ch10/recorder.ch10',
      'h5/compound.h5',
      'h5/larger.h5',
      'h5/one d.h5',
      'run.csv',
    ]);
    // A CH10 file is recognised by its content, and listed by its type only: a batch has no
    // CH10 config.
    expect(configs['ch10/recorder.ch10']).toEqual({ type: 'DATA_TYPE_KEY_CH10' });
    expect(folder.issues.filter((i) => i.source?.file === 'ch10/recorder.ch10')).toEqual([]);
    // The damaged member's issue names it by its path inside, and the library's reason.
    const damaged = folder.issues.find((i) => i.source?.file === 'h5/damaged.h5');
    expect(damaged?.code).toBe('hdf5_unreadable');
    expect(damaged?.message).toMatch(/^h5\/damaged\.h5: the HDF5 library cannot read the file \(/);
    for (const [name] of archives) {
      const { draft, written } = await inferWatchingTemp(join(tmp, name));
      expect(written, name).toEqual([]);
      expect(draft.document, name).toEqual({
        batchConfig: {
          ...folder.document.batchConfig,
          assetName: draft.document.batchConfig?.assetName,
        },
      });
      expect(draft.issues, name).toEqual(folder.issues);
    }
  });

  test("each HDF5 member's source says where its bytes are in the archive", async () => {
    const want: Record<string, string> = {
      'set-stored.zip': 'file',
      'set-deflated.zip': 'deflate',
      'set.tar': 'file',
      'set.tar.gz': 'gzip',
    };
    for (const [name, kind] of archives) {
      const container = await openContainer(join(tmp, name), kind);
      const places: string[] = [];
      try {
        await container.walk(async (member, open) => {
          if (!member.path.endsWith('.h5')) return;
          const source = await open();
          try {
            expect(member.file, name).toBeUndefined();
            expect(source.place?.path, name).toBe(join(tmp, name));
            places.push(source.place?.kind ?? 'none');
            // Read through the source, the worker reads the bytes the source has.
            if (member.path === 'h5/larger.h5') {
              const p = await inspectHdf5(source);
              expect(p.file.path).toBe('h5/larger.h5');
              expect(p.datasets.find((d) => d.path === '/time')?.tail?.at(-1)).toEqual([
                String(1_700_000_000_000_000_000n + BigInt(ROWS - 1) * 1_000_000n),
              ]);
            }
          } finally {
            await source.close();
          }
        }, 1);
      } finally {
        await container.close();
      }
      expect(places, name).toEqual(Array(4).fill(want[name]));
    }
  });

  test('a source whose bytes are only in memory is refused with a clear error', async () => {
    const bytes = readFileSync(join(repoRoot, 'fixtures', 'hdf5', 'one-d-root.h5'));
    const err = await inspectHdf5(memorySource(bytes, 'in-memory.h5')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InspectError);
    expect((err as InspectError).issue.code).toBe('hdf5_unreadable');
    expect((err as InspectError).message).toMatch(/^in-memory\.h5: .*only in memory/);
  });
});
