import fs, { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { inspectHdf5 } from '../../src/formats/hdf5/inspect.js';
import { readSuperblock } from '../../src/formats/hdf5/superblock.js';
import { memorySource } from '../../src/inspect/byte-source.js';
import { inspectFile } from '../../src/inspect/inspect-file.js';
import { InspectError } from '../../src/inspect/profile.js';
import { timeAndValues, writeLoopingHdf5 } from '../helpers/hdf5.js';
import { platformExamples as corpus } from '../helpers/paths.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fixtures = join(repoRoot, 'fixtures', 'hdf5');
const tmp = mkdtempSync(join(tmpdir(), 'importkit-hdf5-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function errorOf(path: string): Promise<InspectError> {
  const err = await inspectHdf5(path).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InspectError);
  return err as InspectError;
}

describe('inspectHdf5 on the platform examples', () => {
  test('one-d: the tree, types, attributes, and samples of the time dataset only', async () => {
    const p = await inspectHdf5(join(corpus, 'hdf5-one-d.h5'));
    expect(p.format).toBe('hdf5');
    expect(p.superblock).toMatchObject({ offset: 0, version: 0, sizeOfOffsets: 8 });
    expect(p.datasets.map((d) => [d.path, d.type.class, d.type.size, d.shape])).toEqual([
      ['/channel_0', 'float', 8, [50]],
      ['/channel_1', 'float', 8, [50]],
      ['/channel_2', 'float', 8, [50]],
      ['/timestamp', 'integer', 8, [50]],
    ]);
    const ch0 = p.datasets[0];
    expect(ch0?.attributes.map((a) => [a.name, a.value])).toEqual([
      ['Name', 'channel_0'],
      ['Units', 'V'],
    ]);
    expect(ch0?.head).toBeUndefined();
    const ts = p.datasets[3];
    expect(ts?.head).toEqual([
      ['1735689600000000000'],
      ['1735689601000000000'],
      ['1735689602000000000'],
    ]);
    expect(ts?.tail?.at(-1)).toEqual(['1735689649000000000']);
    expect(p.fields.find((f) => f.path === '/channel_1')).toMatchObject({
      physicalType: 'float64',
      units: 'V',
    });
    // The signature and superblock (through the byte source), then what the library read.
    expect(p.bytesRead).toBeGreaterThan(256);
    expect(p.fields.map((f) => f.shape)).toEqual(p.datasets.map((d) => d.shape));
  });

  test('the bytes read are what the library read: the tree and samples of a 3 MB file, not its data', async () => {
    const path = join(tmp, 'big.h5');
    const size = (await timeAndValues(path, 200_000, 1000)).byteLength;
    const p = await inspectHdf5(path);
    expect(p.fields.map((f) => [f.path, f.shape])).toEqual([
      ['/time', [200_000]],
      ['/value', [200_000]],
    ]);
    expect(p.bytesRead).toBeGreaterThan(1000);
    expect(p.bytesRead).toBeLessThan(size / 20);
  });

  test('compound: members with their types, rows sampled whole', async () => {
    const p = await inspectHdf5(join(corpus, 'hdf5-compound.h5'));
    const d = p.datasets[0];
    expect(d?.type.members?.map((m) => `${m.name}:${m.type.class}${m.type.size * 8}`)).toEqual([
      'timestamp:integer64',
      'voltage:float64',
      'current:float64',
      'temperature:float32',
    ]);
    expect(d?.head?.[0]?.[0]).toBe('1735689600000000000');
    expect(d?.head?.[0]).toHaveLength(4);
  });

  test('two-d: [N, 2] rows sampled as pairs', async () => {
    const p = await inspectHdf5(join(corpus, 'hdf5-two-d.h5'));
    expect(p.datasets.map((d) => d.shape)).toEqual([
      [50, 2],
      [50, 2],
      [50, 2],
    ]);
    expect(p.datasets[0]?.head?.[0]).toHaveLength(2);
  });

  test('inspectFile dispatches HDF5 content by signature, whatever the extension', async () => {
    const copy = join(tmp, 'data.bin');
    fs.copyFileSync(join(corpus, 'hdf5-two-d.h5'), copy);
    const p = await inspectFile(copy);
    expect(p.format).toBe('hdf5');
  });

  test('chunking, filters, dimension scales and enum types are in the profile', async () => {
    const two = await inspectHdf5(join(fixtures, 'two-d.h5'));
    const wide = two.datasets.find((d) => d.path === '/wide');
    expect(wide).toMatchObject({ chunks: [4, 3], filters: ['deflate'] });
    const ds = await inspectHdf5(join(fixtures, 'dimension-scales.h5'));
    expect(ds.datasets.find((d) => d.path === '/axes/clock')?.isDimensionScale).toBe(true);
    expect(ds.datasets.find((d) => d.path === '/data/pressure')?.dimensionScales).toEqual([
      ['/axes/clock'],
    ]);
    const types = await inspectHdf5(join(fixtures, 'types.h5'));
    const mode = types.datasets.find((d) => d.path === '/mode');
    expect(mode?.type.enumMembers).toEqual([
      { name: 'IDLE', value: 0 },
      { name: 'RUN', value: 1 },
      { name: 'FAULT', value: 7 },
    ]);
    expect(types.datasets.find((d) => d.path === '/f16')?.type).toMatchObject({
      class: 'float',
      size: 2,
    });
    expect(types.datasets.find((d) => d.path === '/blob')?.type.class).toBe('opaque');
  });

  test('a user block before the superblock is found and skipped', async () => {
    const original = readFileSync(join(corpus, 'hdf5-one-d.h5'));
    const withBlock = join(tmp, 'userblock.h5');
    writeFileSync(withBlock, Buffer.concat([Buffer.alloc(512, 0x20), original]));
    const p = await inspectHdf5(withBlock);
    expect(p.superblock.offset).toBe(512);
    expect(p.datasets).toHaveLength(4);
  });
});

describe('files that are not HDF5 or are damaged give clear errors', () => {
  test('an empty file', async () => {
    const empty = join(tmp, 'empty.h5');
    writeFileSync(empty, '');
    const err = await errorOf(empty);
    expect(err.issue).toEqual({
      code: 'file_empty',
      severity: 'error',
      path: '',
      message: `${empty}: the file is empty (0 bytes)`,
      hint: 'Check that the export finished and that this is the file you meant.',
      source: { file: empty },
    });
  });

  test('a text file named .h5', async () => {
    const text = join(tmp, 'text.h5');
    writeFileSync(text, 'time,value\n0,1\n');
    const err = await errorOf(text);
    expect(err.issue.code).toBe('hdf5_signature_missing');
    expect(err.message).toContain('not an HDF5 file');
  });

  test('a missing file', async () => {
    const err = await errorOf(join(tmp, 'nope.h5'));
    expect(err.issue.code).toBe('file_not_found');
  });

  test('truncated at every kind of place: signature, superblock, metadata, data', async () => {
    const whole = readFileSync(join(corpus, 'hdf5-compound.h5'));
    for (const cut of [4, 8, 20, 60, 500, 2000, whole.byteLength - 1]) {
      const part = join(tmp, `cut-${cut}.h5`);
      writeFileSync(part, whole.subarray(0, cut));
      const err = await errorOf(part);
      expect([cut, err.issue.code]).toEqual([
        cut,
        cut < 8 ? 'hdf5_signature_missing' : 'hdf5_truncated',
      ]);
      expect(err.message.split('\n')).toHaveLength(1);
    }
  });

  test('damaged metadata: an error or a profile, never a crash', async () => {
    const whole = readFileSync(join(corpus, 'hdf5-one-d.h5'));
    const codes = new Set<string>();
    const messages: string[] = [];
    for (const at of [96, 200, 400, 800, 1200, 1600, 2400, 3000]) {
      const bad = Buffer.from(whole);
      bad.fill(0xa5, at, at + 48);
      const file = join(tmp, `bad-${at}.h5`);
      writeFileSync(file, bad);
      const result = await inspectHdf5(file).then(
        (p) => `profile of ${p.datasets.length} datasets`,
        (e: unknown) => {
          if (!(e instanceof InspectError)) return `unexpected ${String(e)}`;
          messages.push(e.message);
          return e.issue.code;
        },
      );
      codes.add(result.startsWith('profile') ? 'profile' : result);
    }
    expect([...codes].every((c) => c === 'profile' || c === 'hdf5_unreadable')).toBe(true);
    expect(codes.has('hdf5_unreadable')).toBe(true);
    // The reason is the library's own, taken from the error stack it prints.
    expect(messages).toContainEqual(
      expect.stringMatching(/cannot read the file \(bad object header version number: /),
    );
    // The module still works after failures.
    const p = await inspectHdf5(join(corpus, 'hdf5-one-d.h5'));
    expect(p.datasets).toHaveLength(4);
  });
});

describe('a file on which the HDF5 library never finishes', () => {
  test('is stopped after the time limit with a clear error, and the next file still reads', async () => {
    const file = join(tmp, 'loops.h5');
    writeLoopingHdf5(file);
    const started = performance.now();
    const err = await inspectHdf5(file, { timeoutMs: 1500 }).catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(err).toBeInstanceOf(InspectError);
    expect((err as InspectError).issue.code).toBe('hdf5_unreadable');
    expect((err as InspectError).message).toBe(
      `${file}: the HDF5 library cannot read the file (the HDF5 library did not finish reading it within 2 s)`,
    );
    const p = await inspectHdf5(join(corpus, 'hdf5-one-d.h5'));
    expect(p.datasets).toHaveLength(4);
  });
});

describe('readSuperblock', () => {
  test('reads version, offsets and end-of-file address of v0 and v2 superblocks', async () => {
    for (const [file, version] of [
      [join(corpus, 'hdf5-one-d.h5'), 0],
      [join(fixtures, 'one-d-root.h5'), 2],
    ] as const) {
      const bytes = readFileSync(file);
      const r = await readSuperblock(memorySource(bytes));
      expect(r).toEqual({
        ok: true,
        superblock: {
          offset: 0,
          version,
          sizeOfOffsets: 8,
          baseAddress: 0,
          endOfFileAddress: bytes.byteLength,
        },
      });
    }
  });

  test('an unknown version is invalid', async () => {
    const bytes = Buffer.from(readFileSync(join(corpus, 'hdf5-one-d.h5')));
    bytes[8] = 9;
    expect(await readSuperblock(memorySource(bytes))).toEqual({
      ok: false,
      problem: { kind: 'invalid', detail: 'unknown superblock version 9' },
    });
  });
});
