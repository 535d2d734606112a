/**
 * Runs given to a worker of a folder's batch (check's or infer's batch-worker) beside this
 * thread, which reads its own runs only once the worker has loaded, and slowly, so that the
 * worker takes runs: what each run gave, in order, and how many this thread read.
 */
import { runOrdered, startWorkers } from '../../src/values/index.js';

export async function runsBesideAWorker<I, R>(
  worker: URL,
  input: I,
  runs: string[][],
  here: (run: string[]) => Promise<R[]>,
): Promise<{ got: R[][]; here: number }> {
  const pool = startWorkers(worker, 1);
  const loaded = new Promise<void>((resolve) => {
    pool.slots[0]?.worker.on('message', (m: object) => {
      if ('ready' in m) resolve();
    });
  });
  let readHere = 0;
  const got: R[][] = [];
  await runOrdered({
    pool,
    input,
    parts: runs,
    here: async (run: string[]) => {
      await loaded;
      readHere += 1;
      await new Promise((resolve) => setTimeout(resolve, 200));
      return here(run);
    },
    onResult: (r: R[]) => {
      got.push(r);
    },
  });
  return { got, here: readHere };
}
