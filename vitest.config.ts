import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Type tests (`expectTypeOf`, `@ts-expect-error` in `*.test-d.ts`) run with the suite:
    // vitest checks them with tsc and fails on a type error or an unused `@ts-expect-error`.
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: 'tsconfig.typetests.json',
    },
    globalSetup: ['test/setup/temp-root.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker less than the cores: one worker on a 2-core machine,
    // which ran the whole suite file after file. Much of it waits on child processes, servers
    // and worker threads, so two workers keep both cores busy there.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A worker keeps the modules it loaded from one test file to the next instead of loading
    // the library again for each of the 160 files: the suite took 6 min 05 s of wall time and
    // 11 min of CPU on 2 cores, 3 min 20 s and 6 min without. Tests clean up what they change
    // (temp files, servers, environment they set), so none depends on a fresh module graph.
    isolate: false,
    // Worker threads started by the code under test load the TypeScript sources.
    execArgv: [
      '--import',
      fileURLToPath(new URL('./test/helpers/ts-register.mjs', import.meta.url)),
    ],
  },
});
