/**
 * Writes every fixture under fixtures/ from code (`npm run fixtures`). Each generator owns
 * one folder (fixtures/<area>/) and writes `<case>.<ext>` beside `<case>.expected.json`.
 * Pass area names to regenerate only those: `npm run fixtures -- csv`.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

type Generator = (dir: string) => Promise<string[]>;

const GENERATORS: Record<string, () => Promise<Generator>> = {
  config: async () => (await import('./fixtures/config.js')).generate,
  csv: async () => (await import('./fixtures/csv.js')).generate,
  parquet: async () => (await import('./fixtures/parquet.js')).generate,
  'check-parquet': async () => (await import('./fixtures/check-parquet.js')).generate,
  hdf5: async () => (await import('./fixtures/hdf5.js')).generate,
  'check-hdf5': async () => (await import('./fixtures/check-hdf5.js')).generate,
  tdms: async () => (await import('./fixtures/tdms.js')).generate,
  'check-tdms': async () => (await import('./fixtures/check-tdms.js')).generate,
  ch10: async () => (await import('./fixtures/ch10.js')).generate,
  ulog: async () => (await import('./fixtures/ulog.js')).generate,
  'check-ulog': async () => (await import('./fixtures/check-ulog.js')).generate,
  examples: async () => (await import('./fixtures/examples.js')).generate,
  preview: async () => (await import('./fixtures/preview.js')).generate,
  batch: async () => (await import('./fixtures/batch.js')).generate,
};

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures');
const wanted = process.argv.slice(2);
for (const [area, load] of Object.entries(GENERATORS)) {
  if (wanted.length > 0 && !wanted.includes(area)) continue;
  const generate = await load();
  const written = await generate(join(root, area));
  console.log(`${area}: ${written.length} files`);
}
