/**
 * Size-doubling ratios measured in a Node process of their own. The test processes are kept
 * from one test file to the next (`isolate: false`), so the CPU time of a run timed in one
 * also counts what other files left running there (timers, streams, a collection of their
 * garbage): a linear parser measured 25 times linear in the suite and 6 times alone. A fresh
 * process runs nothing but the cases it is given.
 *
 * A work module exports `cases`: for each name, the function of a size `n` and the size to
 * start from (`doublingRatio` in `test/security/_helpers.ts` compares `f(8n)` with `f(n)`),
 * and optionally `setup` and `teardown` (a temp folder for files the cases write). A case
 * that throws (a wrong result, asserted inside it) is reported with its error.
 */
import { execFile } from 'node:child_process';

export interface DoublingCase {
  /** The work of size `n`. */
  f: (n: number) => unknown;
  /** The small size: the large one is 8n. */
  n: number;
  /** Runs per size, the best counted (three unless told). */
  runs?: number;
}

export type DoublingCases = Record<string, DoublingCase>;

export type Outcome = { ratio: number } | { error: string };

const here = (f: string) => new URL(f, import.meta.url).href;

/** The script the child runs: the module's cases by name, then one JSON line of outcomes. */
function script(module: string, names: readonly string[]): string {
  return `const { doublingRatio } = await import(${JSON.stringify(here('../security/_helpers.ts'))});
const mod = await import(${JSON.stringify(module)});
const out = {};
await mod.setup?.();
try {
  for (const name of ${JSON.stringify(names)}) {
    const c = mod.cases[name];
    try {
      out[name] = { ratio: await doublingRatio((n) => c.f(n), c.n, c.runs ?? 3) };
    } catch (err) {
      out[name] = { error: String(err?.stack ?? err) };
    }
  }
} finally {
  await mod.teardown?.();
}
process.stdout.write(JSON.stringify(out));`;
}

/**
 * The doubling ratio of each named case of `module` (a file URL), measured in a child
 * process (one for all of them: its start is paid once). The child is stopped after 200 s,
 * before the 240 s its caller's hook is given: an exponential cost ends in a clear error.
 */
export function ratiosApart(
  module: URL,
  names: readonly string[],
): Promise<Record<string, Outcome>> {
  const args = [
    '--import',
    here('./ts-register.mjs'),
    '--input-type=module',
    '--eval',
    script(module.href, names),
  ];
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      args,
      { encoding: 'utf8', timeout: 200_000, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err?.killed) reject(new Error(`the cases did not end within 200 s\n${stderr}`));
        else if (err) reject(new Error(`${err.message}\n${stderr}`));
        else if (stderr !== '') reject(new Error(stderr));
        else resolve(JSON.parse(stdout) as Record<string, Outcome>);
      },
    );
  });
}

/**
 * The ratios of the named cases of `module`, measured once for a test file:
 * `beforeAll(apart.measure, 240_000)`, then `apart.ratio(name)` in each test.
 */
export function doublingApart(module: URL, names: readonly string[]) {
  let all: Record<string, Outcome> = {};
  return {
    measure: async (): Promise<void> => {
      all = await ratiosApart(module, names);
    },
    ratio: (name: string): number => {
      const outcome = all[name];
      if (outcome === undefined) throw new Error(`no ratio measured for ${name}`);
      if ('error' in outcome) throw new Error(outcome.error);
      return outcome.ratio;
    },
  };
}
