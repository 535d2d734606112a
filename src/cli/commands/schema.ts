import { CONFIG_KIND_NAMES, CONFIG_KINDS, type ConfigKind } from '../../model/index.js';
import { committedSchema } from '../../validate/committed-schemas.js';
import type { SchemaName } from '../../validate/index.js';
import { parseCommandArgs } from '../args.js';
import { EXIT_OK, UsageError } from '../errors.js';
import type { Io } from '../io.js';

const HELP = `Usage: importkit schema [kind]

Prints the JSON Schema (draft 2020-12) of a config document, or of one config kind:
${CONFIG_KIND_NAMES.join(', ')} (also accepted: csvConfig, CsvConfig, ...).
Editors use it for completion, for example with yaml-language-server:
  # yaml-language-server: $schema=node_modules/importkit/schemas/document.schema.json

Options:
  -h, --help  show this help
`;

/** `importkit schema [kind]`: prints a JSON Schema. */
export async function schema(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  if (positionals.length > 1) throw new UsageError('give at most one kind');
  const name = schemaName(positionals[0]);
  io.stdout.write(`${JSON.stringify(committedSchema(name), null, 2)}\n`);
  return EXIT_OK;
}

function schemaName(arg: string | undefined): SchemaName {
  if (arg === undefined || arg === 'document') return 'document';
  const lower = arg.toLowerCase();
  const kind = CONFIG_KIND_NAMES.find(
    (k: ConfigKind) => k === lower || CONFIG_KINDS[k].key.toLowerCase() === lower,
  );
  if (!kind) {
    throw new UsageError(
      `unknown kind '${arg}' (one of document, ${CONFIG_KIND_NAMES.join(', ')})`,
    );
  }
  return kind;
}
