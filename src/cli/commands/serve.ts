/**
 * `importkit serve [--port 0] [--data-dir DIR] [--api-key KEY=ORG ...] [--faults SPEC]`:
 * runs the local emulator until interrupted, printing the URL it listens on.
 */
import { resolve } from 'node:path';
import { parseFaults, StoreError, seededIds, startEmulator } from '../../emulator/index.js';
import { parseCommandArgs } from '../args.js';
import { CommandError, EXIT_OK, UsageError } from '../errors.js';
import type { Io } from '../io.js';

const HELP = `Usage: importkit serve [--port N] [--host ADDR] [--data-dir DIR] [--api-key KEY=ORG ...] [--faults SPEC]

Runs a local emulator of the platform's HTTP interface (data imports and the eight
operations) until interrupted. Prints the URL it listens on.

Options:
  --port N          port to listen on (default 0: any free port)
  --host ADDR       address to listen on (default 127.0.0.1)
  --data-dir DIR    keep state and uploads in DIR, so a restart loses nothing
  --api-key KEY=ORG accept KEY for organization ORG (repeatable; default emulator-key=local)
  --faults SPEC     inject faults: comma-separated KIND=AMOUNT[:PARAM] with KIND 503, 429
                    (PARAM: Retry-After seconds), latency (PARAM: ms) or drop, AMOUNT a
                    probability (0.2, 20%) or Nx (the first N requests); seed=N
  --step-delay MS   pause between the steps of an import (default 0)
  -h, --help        this help
`;

export async function serve(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    port: { type: 'string' },
    host: { type: 'string' },
    'data-dir': { type: 'string' },
    'api-key': { type: 'string', multiple: true },
    faults: { type: 'string' },
    'step-delay': { type: 'string' },
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
  let apiKeys: Record<string, string> | undefined;
  for (const pair of values['api-key'] ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0 || eq === pair.length - 1)
      throw new UsageError(`--api-key '${pair.replace(/=.*/, '=…')}': expected KEY=ORG`);
    apiKeys ??= {};
    apiKeys[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
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
  }).catch((err: unknown) => {
    // A store that cannot be read: what is wrong and how to recover, exit 1.
    if (err instanceof StoreError) throw new CommandError(err.message, err.hint);
    throw err;
  });
  io.stdout.write(`importkit emulator listening on ${emulator.url}\n`);
  for (const [key, org] of emulator.organizations) {
    const ids = seededIds(org.organizationId);
    const shownKey = apiKeys ? '' : ` (key: ${key})`;
    io.stderr.write(
      `organization ${org.organizationName} ${org.organizationId}${shownKey}: views ${ids.views.join(', ')}; saved search ${ids.savedSearches.join(', ')}\n`,
    );
  }
  const [firstKey] = emulator.organizations.keys();
  io.stderr.write(
    `to use it, in another shell:\n  export IMPORTKIT_BASE_URL=${emulator.url}\n  export IMPORTKIT_API_KEY=${apiKeys ? '<a KEY given with --api-key>' : firstKey}\n`,
  );
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
