import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { expect, test } from 'vitest';
import { generate } from '../../scripts/fixtures/examples.js';

const committed = join(import.meta.dirname, '..', '..', 'fixtures', 'examples');

test('fixtures/examples are what the builders write today', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'importkit-examples-'));
  try {
    const written = await generate(dir);
    expect(written.map((f) => basename(f)).sort()).toEqual((await readdir(committed)).sort());
    for (const file of written) {
      const name = basename(file);
      expect(await readFile(file, 'utf8'), name).toBe(
        await readFile(join(committed, name), 'utf8'),
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
