/**
 * A child process for the kill test (emulator-store.test.ts): opens the store in the
 * folder it is given and saves, one after another, runs of about 2 MB, printing
 * `saved <n>` once each save has resolved, until it is killed.
 */
import { Store } from '../../src/emulator/store.js';

const store = await Store.open(process.argv[2]);
const filler = 'x'.repeat(2 * 1024 * 1024);
for (let n = 0; ; n++) {
  const id = `r${n}`;
  store.data.runs[id] = { orgId: 'o', value: { runId: id, name: `${n}`, description: filler } };
  store.touch('runs', id);
  await store.save();
  process.stdout.write(`saved ${n}\n`);
}
