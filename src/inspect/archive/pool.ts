/** At most `jobs` tasks at once; `run` waits for a free slot before it starts one. */
export interface Pool {
  run(task: () => Promise<void>): Promise<void>;
  /** Waits for every task started; rejects with the first failure. */
  drain(): Promise<void>;
}

export function createPool(jobs: number): Pool {
  const limit = Math.max(1, Math.floor(jobs));
  const running = new Set<Promise<void>>();
  let failure: { err: unknown } | undefined;
  return {
    async run(task) {
      while (running.size >= limit) await Promise.race(running);
      if (failure) throw failure.err;
      const p: Promise<void> = task()
        .catch((err: unknown) => {
          failure ??= { err };
        })
        .finally(() => running.delete(p));
      running.add(p);
    },
    async drain() {
      while (running.size > 0) await Promise.race(running);
      if (failure) throw failure.err;
    },
  };
}
