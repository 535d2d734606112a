/**
 * `importkit serve [--port 0] [--data-dir DIR] [--api-key KEY=ORG ...] [--faults SPEC]
 * [--strict] [--url-map PREFIX=FOLDER ...] [--seed FILE]`: runs the local emulator until
 * interrupted, printing the URLs it listens on; its log goes to stderr.
 */
import { readFile } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import { resolve } from 'node:path';
import {
  type Emulator,
  type EmulatorOptions,
  type EmulatorSeed,
  parseFaults,
  SeedError,
  StoreError,
  seededIds,
  startEmulator,
} from '../../emulator/index.js';
import { parseCommandArgs } from '../args.js';
import { CommandError, EXIT_OK, UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { printable } from '../printable.js';

const HELP = `Usage: importkit serve [--port N] [--host ADDR] [--data-dir DIR] [--api-key KEY=ORG ...] [--faults SPEC]
                      [--strict] [--url-map PREFIX=FOLDER ...] [--seed FILE]

Runs a local emulator of the platform's HTTP interface (data imports and the eight
operations) until interrupted. Prints the URLs it listens on (with --host 0.0.0.0 or ::,
each address of this machine). A client on another machine or container sends the key
over plain http only to a host it names: IMPORTKIT_ALLOW_HTTP_HOST=NAME (or
--allow-http-host NAME on submit and status).

Options:
  --port N          port to listen on (default 0: any free port)
  --host ADDR       address to listen on (default 127.0.0.1; 0.0.0.0 or :: for every one)
  --data-dir DIR    keep state and uploads in DIR, so a restart loses nothing
  --api-key KEY=ORG accept KEY for organization ORG (repeatable; default emulator-key=local)
  --faults SPEC     inject faults: comma-separated KIND=AMOUNT[:PARAM] with KIND 503, 429
                    (PARAM: Retry-After seconds), latency (PARAM: ms) or drop, AMOUNT a
                    probability (0.2, 20%) or Nx (the first N requests); seed=N
  --step-delay MS   pause between the steps of an import (default 0)
  --strict          refuse what the platform silently drops (unknown fields and enum
                    names): 400 for an update, FAILED for an import's config
  --url-map PREFIX=FOLDER
                    URL imports of addresses starting with PREFIX read FOLDER instead
                    (repeatable), e.g. https://bucket.example/=./data/
  --seed FILE       start with the runs, assets, channels, views, saved searches and
                    function versions of a JSON file; their ids are printed
  -h, --help        this help
`;

/** An address the emulator answers at besides its own URL: one interface's. */
interface Address {
  url: string;
  host: string;
  /** The interface's name (`eth0`). */
  name: string;
}

/**
 * Where a wildcard host (`0.0.0.0`: every IPv4 address; `::`: every address) answers
 * besides loopback: each interface's address that another machine can reach (link-local
 * IPv6 addresses are left out: they need a zone). None for any other host.
 */
function otherAddresses(host: string | undefined, port: number): Address[] {
  if (host !== '0.0.0.0' && host !== '::') return [];
  const out: Address[] = [];
  for (const [name, list] of Object.entries(networkInterfaces())) {
    for (const a of list ?? []) {
      if (a.internal || (a.family === 'IPv6' && (host !== '::' || /^fe80:/i.test(a.address))))
        continue;
      const shown = a.family === 'IPv6' ? `[${a.address}]` : a.address;
      out.push({ url: `http://${shown}:${port}`, host: a.address, name });
    }
  }
  return out;
}

/** `--api-key KEY=ORG` pairs; undefined when none is given. */
function apiKeysOf(pairs: readonly string[]): Record<string, string> | undefined {
  let apiKeys: Record<string, string> | undefined;
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0 || eq === pair.length - 1)
      throw new UsageError(`--api-key '${pair.replace(/=.*/, '=…')}': expected KEY=ORG`);
    apiKeys ??= {};
    apiKeys[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return apiKeys;
}

/** The options for tests of pipelines: --strict, --url-map, --seed, and the log on stderr. */
async function testOptionsOf(
  values: { strict?: boolean; 'url-map'?: string[]; seed?: string },
  io: Io,
): Promise<Pick<EmulatorOptions, 'strict' | 'urlMap' | 'seed' | 'log'>> {
  const seed = values.seed === undefined ? undefined : await readSeed(values.seed, io.cwd);
  return {
    strict: values.strict === true,
    urlMap: urlMapOf(values['url-map'] ?? [], io.cwd),
    ...(seed ? { seed } : {}),
    log: (line) => io.stderr.write(`emulator: ${printable(line)}\n`),
  };
}

/** The ids `--seed` put in, for tests to name. */
function printSeeded(emulator: Emulator, io: Io): void {
  if (!emulator.seeded) return;
  const { organization, ids } = emulator.seeded;
  const lists = Object.entries(ids).map(([list, got]) => `${list} ${got.join(', ')}`);
  io.stderr.write(
    `seeded for organization ${organization.organizationName}: ${lists.join('; ')}\n`,
  );
}

/** `--url-map PREFIX=FOLDER` pairs, each folder resolved from the working directory. */
function urlMapOf(pairs: readonly string[], cwd: string): Record<string, string> {
  const map: Record<string, string> = {};
  for (const pair of pairs) {
    const m = /^([a-z][a-z0-9+.-]*:\/\/[^=]*)=(.+)$/i.exec(pair);
    if (!m?.[1] || !m[2])
      throw new UsageError(
        `--url-map '${pair}': expected PREFIX=FOLDER, e.g. https://bucket.example/=./data/`,
      );
    map[m[1]] = resolve(cwd, m[2]);
  }
  return map;
}

/** The seed file, read as JSON; a file that cannot be read or parsed is a usage error. */
async function readSeed(path: string, cwd: string): Promise<EmulatorSeed> {
  let text: string;
  try {
    text = await readFile(resolve(cwd, path), 'utf8');
  } catch (err) {
    throw new UsageError(
      `--seed ${path}: cannot read it (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  try {
    return JSON.parse(text) as EmulatorSeed;
  } catch (err) {
    throw new UsageError(`--seed ${path}: not JSON (${(err as Error).message})`);
  }
}

export async function serve(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    port: { type: 'string' },
    host: { type: 'string' },
    'data-dir': { type: 'string' },
    'api-key': { type: 'string', multiple: true },
    faults: { type: 'string' },
    'step-delay': { type: 'string' },
    strict: { type: 'boolean' },
    'url-map': { type: 'string', multiple: true },
    seed: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError('--port must be 0..65535');
  const stepDelayMs = values['step-delay'] === undefined ? 0 : Number(values['step-delay']);
  if (!Number.isFinite(stepDelayMs) || stepDelayMs < 0)
    throw new UsageError('--step-delay must be ms ≥ 0');
  const apiKeys = apiKeysOf(values['api-key'] ?? []);
  let faults: ReturnType<typeof parseFaults> | undefined;
  if (values.faults !== undefined) {
    try {
      faults = parseFaults(values.faults);
    } catch (err) {
      throw new UsageError(`--faults: ${(err as Error).message}`);
    }
  }
  const emulator = await startEmulator({
    port,
    ...(values.host ? { host: values.host } : {}),
    ...(values['data-dir'] ? { dataDir: resolve(io.cwd, values['data-dir']) } : {}),
    ...(apiKeys ? { apiKeys } : {}),
    ...(faults ? { faults } : {}),
    stepDelayMs,
    ...(await testOptionsOf(values, io)),
  }).catch((err: unknown) => {
    // A store that cannot be read: what is wrong and how to recover, exit 1.
    if (err instanceof StoreError) throw new CommandError(err.message, err.hint);
    if (err instanceof SeedError)
      throw new CommandError(`--seed ${values.seed}: ${err.message}`, 'fix the seed file');
    throw err;
  });
  printSeeded(emulator, io);
  printUsage(io, emulator, otherAddresses(values.host, emulator.port), apiKeys !== undefined);
  await new Promise<void>((resolveStop) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolveStop();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await emulator.close();
  io.stderr.write('importkit emulator stopped\n');
  return EXIT_OK;
}

/**
 * What the emulator prints once it listens: its addresses, its organizations, and the
 * exports for a client on this machine and (listening on every interface) on another.
 */
function printUsage(io: Io, emulator: Emulator, others: Address[], givenKeys: boolean): void {
  const out = [`importkit emulator listening on ${emulator.url}`];
  for (const a of others) out.push(`  and on ${a.url} (${a.name})`);
  const err: string[] = [];
  for (const [key, org] of emulator.organizations) {
    const ids = seededIds(org.organizationId);
    const shownKey = givenKeys ? '' : ` (key: ${key})`;
    err.push(
      `organization ${org.organizationName} ${org.organizationId}${shownKey}: views ${ids.views.join(', ')}; saved search ${ids.savedSearches.join(', ')}`,
    );
  }
  const [firstKey] = emulator.organizations.keys();
  err.push(
    'to use it, in another shell:',
    `  export IMPORTKIT_BASE_URL=${emulator.url}`,
    `  export IMPORTKIT_API_KEY=${givenKeys ? '<a KEY given with --api-key>' : firstKey}`,
  );
  const other = others[0];
  if (other) {
    err.push(
      'from another machine or container, at an address above or a name it knows this one by (plain http: the key crosses the network, so name the host to allow it):',
      `  export IMPORTKIT_BASE_URL=${other.url}`,
      `  export IMPORTKIT_ALLOW_HTTP_HOST=${other.host}`,
    );
  }
  // Each in one write, so that a process reading the pipe sees the whole of it at once.
  io.stdout.write(`${out.join('\n')}\n`);
  io.stderr.write(`${err.join('\n')}\n`);
}
