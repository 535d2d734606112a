/**
 * A child Node process that runs a script over the TypeScript sources, or the built command
 * line, and writes down every module it loads (load-trace-hooks.mjs): what the cold-start,
 * lazy-loading and bundle tests read.
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './paths.js';

/** Runs `script` (an ES module's text) in a child process that traces its loads into `trace`. */
export function tracedRun(trace: string, script: string): SpawnSyncReturns<string> {
  const tsHooks = pathToFileURL(join(repoRoot, 'test', 'helpers', 'ts-register.mjs')).href;
  return tracedNode(trace, [tsHooks], ['--input-type=module', '--eval', script]);
}

/**
 * Runs `node args` (with `imports` given to `--import` first) in a child process, from
 * `cwd`, that traces into `trace` the loads of every thread of it (worker threads take the
 * hook with the process's options). The trace's hook is registered last, so that it runs
 * first and sees every module, those the other hooks load themselves too.
 */
export function tracedNode(
  trace: string,
  imports: readonly string[],
  args: readonly string[],
  cwd = repoRoot,
): SpawnSyncReturns<string> {
  const hooks = pathToFileURL(join(repoRoot, 'test', 'helpers', 'load-trace-hooks.mjs')).href;
  const register = `import { register } from 'node:module'; register(${JSON.stringify(hooks)});`;
  return spawnSync(
    process.execPath,
    [
      ...imports.flatMap((i) => ['--import', i]),
      '--import',
      `data:text/javascript,${encodeURIComponent(register)}`,
      ...args,
    ],
    {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, IMPORTKIT_LOAD_TRACE: trace },
      timeout: 60_000,
    },
  );
}

/** The URLs of the modules a traced run loaded, in order. */
export function tracedUrls(trace: string): string[] {
  return readFileSync(trace, 'utf8').trim().split('\n');
}

/** The packages (by name) among loaded module URLs. */
export function packagesOf(urls: readonly string[]): Set<string> {
  return new Set(
    urls
      .map((u) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1])
      .filter((p): p is string => p !== undefined),
  );
}
