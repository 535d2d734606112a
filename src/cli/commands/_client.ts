import {
  ApiError,
  type Client,
  createClient,
  ImportFailedError,
  NetworkError,
  plainHttpHost,
  TimeoutError,
  type WaitOptions,
} from '../../client/index.js';
import { CONFIG_KEYS, type DataImport } from '../../model/index.js';
import { CommandError, EXIT_INTERRUPTED, EXIT_INVALID, EXIT_OK, UsageError } from '../errors.js';
import { type Io, showsProgress } from '../io.js';
import { printable, printableJson } from '../printable.js';
import { Interrupted, type InterruptGuard, interruptGuard } from './_unfinished.js';

/**
 * The service's address and key from the environment; a usage error when unset. Plain http
 * to another machine is refused unless its host is named (`--allow-http-host`, or
 * IMPORTKIT_ALLOW_HTTP_HOST, comma-separated): then the command warns, once.
 */
export function clientFromEnv(io: Io, allowHttpHost?: string): Client {
  const baseUrl = io.env.IMPORTKIT_BASE_URL;
  const apiKey = io.env.IMPORTKIT_API_KEY;
  const local = 'for local work: importkit serve, then the two exports it prints';
  if (!baseUrl)
    throw new UsageError(
      'IMPORTKIT_BASE_URL is not set (the service’s address)',
      `export IMPORTKIT_BASE_URL=https://... (${local})`,
    );
  if (!/^https?:\/\//i.test(baseUrl))
    throw new UsageError(
      `IMPORTKIT_BASE_URL is '${baseUrl}': the address needs its scheme`,
      `export IMPORTKIT_BASE_URL=${/^[\w.-]+(:\d+)?(\/|$)/.test(baseUrl) ? `http://${baseUrl}` : 'http://HOST:PORT'}`,
    );
  if (!apiKey)
    throw new UsageError(
      'IMPORTKIT_API_KEY is not set (the API key; never given on the command line)',
      `export IMPORTKIT_API_KEY=... (${local})`,
    );
  const allowHttpHosts = allowedHttpHosts(io, baseUrl, allowHttpHost);
  const debug = io.env.IMPORTKIT_DEBUG;
  return createClient({
    baseUrl,
    apiKey,
    allowHttpHosts,
    userAgent: 'importkit-cli',
    ...(debug ? { log: (line: string) => io.stderr.write(`debug: ${printable(line)}\n`) } : {}),
  });
}

/**
 * The hosts the key may go to over plain http: when IMPORTKIT_BASE_URL is plain http to
 * another machine, its host must be among them (else the command stops, saying how to name
 * it), and the command warns once that the key crosses the network in clear text.
 */
function allowedHttpHosts(io: Io, baseUrl: string, flag: string | undefined): string[] {
  const named = [flag ?? '', ...(io.env.IMPORTKIT_ALLOW_HTTP_HOST ?? '').split(',')]
    .map((h) =>
      h
        .trim()
        .toLowerCase()
        .replace(/^\[(.*)\]$/, '$1'),
    )
    .filter((h) => h !== '');
  const host = plainHttpHost(baseUrl);
  if (host === undefined) return named;
  if (!named.includes(host)) {
    throw new CommandError(
      `IMPORTKIT_BASE_URL is ${baseUrl}: the API key is never sent over plain http to another machine unless its host is named`,
      `use https; or, on a network you trust (a CI service container, a docker compose service), name the host: --allow-http-host ${host} or export IMPORTKIT_ALLOW_HTTP_HOST=${host}`,
    );
  }
  io.stderr.write(
    `${printable(`warning: the API key goes to ${host} over plain http (allowed by name): anyone who can watch that network can read it`)}\n`,
  );
  return named;
}

/**
 * A client error the user can act on, as one line and a hint: a refused key names
 * IMPORTKIT_API_KEY, an address nothing answers at names the address and `importkit serve`.
 * Other errors are returned as they are.
 */
export function explainClientError(err: unknown, io: Io): unknown {
  if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
    return new CommandError(
      err.message,
      'the service refused the API key: check IMPORTKIT_API_KEY (importkit serve prints the key it accepts)',
    );
  }
  if (err instanceof NetworkError && err.unsent) {
    const why = err.errno === 'ECONNREFUSED' ? 'connection refused' : (err.errno ?? 'no answer');
    return new CommandError(
      `cannot reach ${io.env.IMPORTKIT_BASE_URL} (${why})`,
      'check IMPORTKIT_BASE_URL; for local work start the emulator with importkit serve and use the address it prints',
    );
  }
  return err;
}

/** Runs a command that talks to the service, explaining the client errors it ends with. */
export async function explainingClientErrors(io: Io, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (err) {
    throw explainClientError(err, io);
  }
}

export function seconds(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0)
    throw new UsageError(`${flag} must be a number of seconds > 0`);
  return n * 1000;
}

const short = (status: string | undefined) =>
  (status ?? 'UNKNOWN').replace(/^DATA_IMPORT_STATUS_/, '');

/**
 * One line about a DataImport, for people: the run and the asset by the names its config
 * gave them (`asset rig-2 (<id>)`), by id alone when it named none.
 */
export function describeImport(d: DataImport): string {
  const parts = [`data import ${d.dataImportId ?? '?'}: ${short(d.status)}`];
  const config = CONFIG_KEYS.map((k) => d[k] as { runName?: unknown; assetName?: unknown }).find(
    (c) => c !== undefined,
  );
  const named = (name: unknown, id: string) =>
    typeof name === 'string' && name !== '' ? `${name} (${id})` : id;
  if (d.runId) parts.push(`run ${named(config?.runName, d.runId)}`);
  if (d.assetId) parts.push(`asset ${named(config?.assetName, d.assetId)}`);
  if (d.dataStartTime || d.dataStopTime)
    parts.push(`data ${d.dataStartTime ?? '?'} – ${d.dataStopTime ?? '?'}`);
  return printable(parts.join(', '));
}

/** What a wait that is cut short prints: the import goes on; how to follow it up. */
export function continues(id: string, io: Io, json: boolean, last: DataImport | undefined): void {
  if (json) io.stdout.write(`${printableJson(last ?? { dataImportId: id })}\n`);
  io.stderr.write(`import ${printable(id)} continues: importkit status ${printable(id)} --wait\n`);
}

/**
 * Waits for an import, showing the status: a line rewritten in place on a terminal,
 * a plain line per change otherwise. Answers the exit code: 0 SUCCEEDED, 1 FAILED or
 * timed out, 130 interrupted (Ctrl-C); when the wait is cut short, the import goes on and
 * the command to follow it up is printed.
 */
export async function follow(
  client: Client,
  id: string,
  io: Io,
  options: {
    timeoutMs?: number | undefined;
    intervalMs?: number | undefined;
    json: boolean;
    /** The guard of the command around the wait (else the wait has its own). */
    interrupt?: InterruptGuard;
  },
): Promise<number> {
  const tty = showsProgress(io);
  const started = Date.now();
  let last: DataImport | undefined;
  const interrupt = options.interrupt ?? interruptGuard(io);
  const wait: WaitOptions = {
    signal: interrupt.signal,
    onStatus: (d) => {
      const s = printable(short(d.status));
      if (tty) {
        const secs = ((Date.now() - started) / 1000).toFixed(0);
        io.stderr.write(`\rwaiting for ${printable(id)}: ${s} (${secs} s)\x1b[K`);
      } else if (s !== printable(short(last?.status ?? ''))) {
        io.stderr.write(`status: ${s}\n`);
      }
      last = d;
    },
    onUnknownStatus: (s) => {
      if (tty) io.stderr.write('\n');
      io.stderr.write(
        `warning: the service reports a status this version does not know (${printable(s)}); still waiting\n`,
      );
    },
  };
  if (options.timeoutMs !== undefined) wait.timeoutMs = options.timeoutMs;
  if (options.intervalMs !== undefined) wait.intervalMs = options.intervalMs;
  try {
    const done = await client.waitForImport(id, wait);
    if (tty) io.stderr.write('\r\x1b[K');
    printResult(done, io, options.json);
    return EXIT_OK;
  } catch (err) {
    if (tty) io.stderr.write('\r\x1b[K');
    return endedEarly(err, id, io, options.json, last);
  } finally {
    if (!options.interrupt) interrupt.release();
  }
}

/**
 * A wait that ended without SUCCEEDED: failed, timed out or interrupted → its exit code.
 * `stopped` is what Ctrl-C stopped (the wait, or a submit whose import goes on).
 */
export function endedEarly(
  err: unknown,
  id: string,
  io: Io,
  json: boolean,
  last?: DataImport,
  stopped = 'the wait',
): number {
  if (err instanceof ImportFailedError) {
    if (json) io.stdout.write(`${printableJson(err.dataImport)}\n`);
    else io.stdout.write(`${describeImport(err.dataImport as DataImport)}\n`);
    io.stderr.write(
      `importkit: data import ${printable(id)} failed: ${printable(err.errorMessage) || '(no message)'}\n`,
    );
    return EXIT_INVALID;
  }
  if (err instanceof Interrupted) {
    io.stderr.write(`interrupted: ${stopped} stopped, not the import\n`);
    continues(id, io, json, last);
    return EXIT_INTERRUPTED;
  }
  if (err instanceof TimeoutError) {
    io.stderr.write(`importkit: ${err.message}\n`);
    continues(id, io, json, last);
    return EXIT_INVALID;
  }
  throw err;
}

export function printResult(d: DataImport, io: Io, json: boolean): void {
  if (json) io.stdout.write(`${printableJson(d)}\n`);
  else io.stdout.write(`${describeImport(d)}\n`);
  const warnings = (d as { warnings?: unknown }).warnings;
  if (Array.isArray(warnings))
    for (const w of warnings) io.stderr.write(`warning: ${printable(String(w))}\n`);
  if (d.errorMessage && d.status === 'DATA_IMPORT_STATUS_FAILED') {
    io.stderr.write(
      `importkit: data import ${printable(String(d.dataImportId))} failed: ${printable(d.errorMessage)}\n`,
    );
  }
}
