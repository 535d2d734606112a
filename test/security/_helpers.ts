import { request } from 'node:http';
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** One request by node:http (no fetch: paths and headers go out exactly as given). */
export function raw(
  base: string,
  method: string,
  path: string,
  options: {
    headers?: Record<string, string>;
    body?: string | Buffer;
    timeoutMs?: number;
    /** On a new connection rather than one kept alive from an earlier request. */
    fresh?: boolean;
  } = {},
): Promise<RawAnswer> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        method,
        path,
        headers: options.headers ?? {},
        ...(options.fresh ? { agent: false } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            headers: res.headers,
          }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(options.timeoutMs ?? 10_000, () =>
      req.destroy(new Error(`${method} ${path}: no answer`)),
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Milliseconds until the server closes a socket that sends `head` and then nothing. */
export function heldFor(base: string, head: string, limitMs: number): Promise<number> {
  const u = new URL(base);
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = connect(Number(u.port), u.hostname, () => socket.write(head));
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(performance.now() - started);
    };
    const timer = setTimeout(done, limitMs);
    socket.on('data', () => {});
    socket.on('close', done);
    socket.on('error', done);
  });
}

/**
 * Milliseconds of CPU this process spends in `f` (the best of `runs`). CPU time, not wall
 * time: on a shared machine a short run can fit in one time slice while a long one is always
 * interrupted, which inflates a wall-clock ratio; the CPU a run uses is what grows with it.
 * It counts all the process does: the test processes are kept between files, so it is
 * measured in a process of its own (`test/helpers/doubling-apart.ts`).
 */
export async function bestCpuTime(f: () => unknown, runs = 3): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const before = process.cpuUsage();
    await f();
    const used = process.cpuUsage(before);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

/**
 * Size doubling, three times: the CPU time of `f(8n)` over that of `f(n)` (best of `runs`
 * runs each, three unless told). A linear cost gives about 8, a quadratic one about 64, an
 * exponential one far more. Sizes are small and the machine shared: callers bound it at
 * RATIO_BOUND.
 */
export async function doublingRatio(
  f: (n: number) => unknown,
  n: number,
  runs = 3,
): Promise<number> {
  await f(n); // warm-up
  // A pause of the shared machine, or a collection of garbage earlier cases left, can
  // still land on the large runs; it does not land on five tries in a row, while a
  // quadratic cost shows on every try. (Three were once not enough: a linear case measured
  // 25.5 in a full run of the suite, and 5 to 8 alone. A collection forced before each run
  // made it worse: the heap, shrunk, grew again during the large run.)
  let ratio = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 5 && ratio >= RATIO_BOUND; attempt++) {
    const small = await bestCpuTime(() => f(n), runs);
    const large = await bestCpuTime(() => f(8 * n), runs);
    ratio = Math.min(ratio, large / Math.max(small, 1));
  }
  return ratio;
}

/** Three times linear (8): far below quadratic growth (64), with room for a loaded machine. */
export const RATIO_BOUND = 24;
