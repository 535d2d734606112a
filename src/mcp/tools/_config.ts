/** The config a tool reads: given as text (`config`) or as a file (`configPath`), never both. */
import { z } from 'zod';
import { readConfigFile } from '../../files/index.js';
import type { ImportDocument } from '../../model/index.js';
import type { Issue } from '../../model/plain.js';
import {
  MAX_CONFIG_BYTES,
  MAX_CONFIG_TEXT,
  type TextValidationResult,
  validateConfigText,
} from '../../validate/index.js';
import { fail, ToolFailure } from '../failure.js';
import type { Sandbox } from '../sandbox.js';

export const CONFIG_ARGS = {
  config: z
    .string()
    .optional()
    .describe(
      'the config document as YAML or JSON text, e.g. {"csvConfig": {...}} (or configPath)',
    ),
  configPath: z
    .string()
    .optional()
    .describe(
      'a config file (YAML or JSON) inside the roots, e.g. a draft infer wrote (or config)',
    ),
};

export interface ConfigArgs {
  config?: string | undefined;
  configPath?: string | undefined;
}

/** The name an inline config is shown by. */
const INLINE = '<config>';

/** The config's text and the name it is shown by; read as `lint` reads a file (at most MAX_CONFIG_TEXT). */
export async function configText(
  args: ConfigArgs,
  sandbox: Sandbox,
): Promise<{ text: string; name: string }> {
  if ((args.config === undefined) === (args.configPath === undefined))
    throw fail(
      'tool_argument_invalid',
      args.config === undefined ? 'no config given' : 'both config and configPath given',
      'give the config as text in `config`, or a file in `configPath`',
    );
  if (args.config !== undefined) {
    if (Buffer.byteLength(args.config) > MAX_CONFIG_BYTES)
      throw fail(
        'input_too_large',
        `the config text is larger than ${MAX_CONFIG_BYTES} bytes (${MAX_CONFIG_TEXT})`,
        'Check that this is a config and not data.',
      );
    return { text: args.config, name: INLINE };
  }
  const file = await sandbox.configFile(args.configPath as string);
  const read = readConfigFile(file.path);
  if (typeof read !== 'string')
    throw new ToolFailure({
      ...read,
      message: `${file.shown}: ${read.message}`,
      source: { file: file.shown },
    });
  return { text: read, name: file.shown };
}

/** The config validated, with its first valid document (undefined when none is valid). */
export function validated(
  text: string,
  name: string,
): { result: TextValidationResult; document: ImportDocument | undefined; issues: Issue[] } {
  const result = validateConfigText(text, { filename: name });
  const document = result.documents.find((d) => d.value !== undefined)?.value as
    | ImportDocument
    | undefined;
  return { result, document, issues: result.issues };
}
