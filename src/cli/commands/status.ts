/** `importkit status <id> [--wait] [--timeout SECONDS]`: shows (or follows) a data import. */

import { parseCommandArgs } from '../args.js';
import { EXIT_INVALID, EXIT_OK, UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { clientFromEnv, explainingClientErrors, follow, printResult, seconds } from './_client.js';

const HELP = `Usage: importkit status <data-import-id> [--wait] [--timeout SECONDS] [--json]

Shows a data import; with --wait, follows it until it ends (exit 0 SUCCEEDED, 1 FAILED).
Reads IMPORTKIT_BASE_URL and IMPORTKIT_API_KEY from the environment.

Options:
  --wait                  follow the import until it ends (Ctrl-C: exit 130)
  --timeout SECONDS       give up waiting after this long (exit 1; the import goes on)
  --poll-interval SECONDS first interval between status reads (default 1; doubles to 30)
  --json                  print the DataImport as JSON on stdout
  --allow-http-host NAME  send the key over plain http to NAME (a network you trust; warns);
                          also IMPORTKIT_ALLOW_HTTP_HOST=NAME[,NAME]
  -h, --help              this help
`;

export async function status(args: string[], io: Io): Promise<number> {
  return explainingClientErrors(io, () => showStatus(args, io));
}

async function showStatus(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    wait: { type: 'boolean' },
    timeout: { type: 'string' },
    'poll-interval': { type: 'string' },
    json: { type: 'boolean' },
    'allow-http-host': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  const [id, ...extra] = positionals;
  if (!id) throw new UsageError('missing <data-import-id>');
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);
  const timeoutMs = seconds(values.timeout, '--timeout');
  const intervalMs = seconds(values['poll-interval'], '--poll-interval');
  if (timeoutMs !== undefined && !values.wait) throw new UsageError('--timeout needs --wait');
  const client = clientFromEnv(io, values['allow-http-host']);
  if (values.wait)
    return follow(client, id, io, { timeoutMs, intervalMs, json: values.json === true });
  const d = await client.getDataImport(id);
  printResult(d, io, values.json === true);
  return d.status === 'DATA_IMPORT_STATUS_FAILED' ? EXIT_INVALID : EXIT_OK;
}
