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
    // Worker threads started by the code under test load the TypeScript sources.
    execArgv: [
      '--import',
      fileURLToPath(new URL('./test/helpers/ts-register.mjs', import.meta.url)),
    ],
  },
});
