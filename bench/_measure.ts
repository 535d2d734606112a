/** Small helpers the benchmarks share: timing, peak RSS, generated-data folder, tables. */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where benchmarks write their generated files (ignored by git). */
export function dataDir(): string {
  const dir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bench', '.data');
  mkdirSync(dir, { recursive: true });
  return dir;
}

export interface Measured<T> {
  value: T;
  ms: number;
  /** Peak RSS of this process (bytes) seen while the work ran, sampled every 5 ms. */
  peakRss: number;
}

/** Runs `fn` once, timing it and sampling this process's RSS. */
export async function measure<T>(fn: () => Promise<T> | T): Promise<Measured<T>> {
  (globalThis as { gc?: () => void }).gc?.();
  let peakRss = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 5);
  const start = performance.now();
  try {
    const value = await fn();
    const ms = performance.now() - start;
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
    return { value, ms, peakRss };
  } finally {
    clearInterval(timer);
  }
}

/** Best of `n` runs (least noisy on a shared machine). */
export async function best<T>(n: number, fn: () => Promise<T> | T): Promise<Measured<T>> {
  let result: Measured<T> | undefined;
  for (let i = 0; i < n; i++) {
    const m = await measure(fn);
    if (!result || m.ms < result.ms)
      result = { ...m, peakRss: Math.max(m.peakRss, result?.peakRss ?? 0) };
  }
  return result!;
}

/**
 * Runs `n` copies of a benchmark's child (`args` after node's path) at once, each printing
 * its measurement as JSON with its `ms` on its last line of output; their times.
 */
export async function atOnce(n: number, args: string[]): Promise<number[]> {
  const one = () =>
    new Promise<number>((resolve, reject) => {
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        out += d;
      });
      child.on('error', reject);
      child.on('close', (code) => {
        if (code !== 0) reject(new Error(`${args.join(' ')} exited with ${code}`));
        else resolve((JSON.parse(out.trim().split('\n').at(-1) as string) as { ms: number }).ms);
      });
    });
  return Promise.all(Array.from({ length: n }, one));
}

/**
 * What runs at once did together against one run alone (`alone` ms), each having done the
 * work of one in `together[i]` ms: their work while all of them ran (until the first was
 * done), a second, against one run's. A run that went on after the first was done did the
 * rest at most as fast as alone, so it had done at least all but that rest by then: exact
 * for two runs on an otherwise idle machine, and never more than they did.
 */
export function togetherOf(alone: number, together: number[]): number {
  const first = Math.min(...together);
  const done = together.reduce((sum, ms) => sum + Math.max(0, 1 - (ms - first) / alone), 0);
  return (done * alone) / first;
}

/**
 * `n` runs at once of `args` (atOnce), `rounds` times: the most they did together against
 * one run alone (`alone` ms) in any round (togetherOf).
 */
export async function bestTogether(
  n: number,
  args: string[],
  alone: number,
  rounds = 1,
): Promise<number> {
  let best = 0;
  for (let r = 0; r < rounds; r++) best = Math.max(best, togetherOf(alone, await atOnce(n, args)));
  return best;
}

export const MiB = 1024 * 1024;

export function fmtBytes(n: number): string {
  if (n >= 1024 * MiB) return `${(n / 1024 / MiB).toFixed(2)} GiB`;
  if (n >= MiB) return `${(n / MiB).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}

/** Prints a Markdown table. */
export function table(headers: string[], rows: Array<Array<string | number>>): void {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  console.log(line(headers));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of cells.slice(1)) console.log(line(r));
}

/** Every file under `dir`, as POSIX paths relative to it, sorted. */
export async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await listFiles(dir, rel)));
    else out.push(rel);
  }
  return out.sort();
}

/**
 * Prints the process's peak RSS and CPU time on stderr as it exits (worker threads share
 * both; the CPU time counts V8's own threads too, which compile and collect garbage beside
 * the thread that runs the code).
 */
const USAGE_HOOK = `process.on('exit', () => { const u = process.resourceUsage(); process.stderr.write('\\nPEAK_RSS ' + u.maxRSS * 1024 + ' CPU_US ' + (u.userCPUTime + u.systemCPUTime) + '\\n'); });`;

/**
 * One run of `node <args>` in a new process, with a hook (USAGE_HOOK, given with --import)
 * that reports its usage as it exits: its wall time, CPU time and peak RSS; throws when it
 * fails.
 */
export function runWithUsage(args: string[]): { ms: number; cpuMs: number; peakRss: number } {
  const t = process.hrtime.bigint();
  const r = spawnSync(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(USAGE_HOOK)}`, ...args],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0)
    throw new Error(`${args.join(' ')} exited with ${r.status}: ${r.stderr.slice(0, 2000)}`);
  const usage = /PEAK_RSS (\d+) CPU_US (\d+)/.exec(r.stderr);
  return { ms, cpuMs: Number(usage?.[2] ?? 0) / 1000, peakRss: Number(usage?.[1] ?? 0) };
}
