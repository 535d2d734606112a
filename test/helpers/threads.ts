/** The threads of this process, for tests that check a read leaves none of its workers running. */
import { readdirSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/** Threads of this process (Linux lists them; elsewhere undefined). */
export function threads(): number | undefined {
  try {
    return readdirSync('/proc/self/task').length;
  } catch {
    return undefined;
  }
}

/** A pause for threads that were stopped to be gone from the list. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 300));
}

/**
 * Starts a worker of the ordered pool (values/ordered-pool.ts `serveParts`) from `url`,
 * gives it `input` and one `part` as the pool does (the input once, before the parts), and
 * answers its result; the worker is stopped after.
 */
export async function partInWorker(url: URL, input: unknown, part: unknown): Promise<unknown> {
  const worker = new Worker(url);
  try {
    return await new Promise((resolve, reject) => {
      worker.on('message', (m: { ready?: true; k?: number; result?: unknown; error?: string }) => {
        if (m.ready) {
          worker.postMessage({ input });
          worker.postMessage({ k: 7, part });
        } else if (m.k === 7) m.error ? reject(new Error(m.error)) : resolve(m.result);
      });
      worker.on('error', reject);
    });
  } finally {
    await worker.terminate();
  }
}
