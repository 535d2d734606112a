/**
 * What an agent can read without a web search, as MCP resources: the JSON Schemas, the
 * issue-code table (as JSON, from the registry, and as the generated page), the config
 * pages and the agents' guide. One table: a resource is a row.
 */
import { CODE_AREAS, SCHEMA_FILES, type SchemaName } from '../model/plain.js';
import { committedSchema } from '../validate/committed-schemas.js';
import { schemaText } from '../validate/index.js';
import { configPages, docText } from './docs.js';

export interface ResourceDef {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  read(): string | undefined;
}

/** Every issue code with its area, severity, summary and fix, as JSON. */
function issueCodes(): string {
  const rows = Object.entries(CODE_AREAS).flatMap(([area, codes]) =>
    Object.entries(codes).map(([code, doc]) => ({ code, area, ...doc })),
  );
  return `${JSON.stringify(rows, null, 2)}\n`;
}

const TITLES: Record<string, string> = {
  'batch.md': 'Batch (batchConfig)',
  'ch10.md': 'CH10 (ch10Config)',
  'channel.md': 'Channels, data types, time formats',
  'csv.md': 'CSV (csvConfig)',
  'hdf5.md': 'HDF5 (hdf5Config)',
  'parquet.md': 'Parquet (parquetConfig)',
  'tdms.md': 'TDMS (tdmsConfig)',
  'ulog.md': 'ULog (ulogConfig)',
};

/** The resources, built once the docs folder has been looked at. */
export function resources(): ResourceDef[] {
  const schemas = (Object.entries(SCHEMA_FILES) as Array<[SchemaName, string]>).map(
    ([name, file]): ResourceDef => ({
      uri: `importkit://schemas/${file}`,
      name: file,
      title: `JSON Schema: ${name === 'document' ? 'a config document' : `${name} config`}`,
      description: `The JSON Schema (draft 2020-12) of ${name === 'document' ? 'a whole config document' : `a ${name} config`}: every field, type and enum value.`,
      mimeType: 'application/schema+json',
      read: () => schemaText(committedSchema(name)),
    }),
  );
  const pages = configPages().map(
    (file): ResourceDef => ({
      uri: `importkit://docs/configs/${file}`,
      name: `configs/${file}`,
      title: `Config page: ${TITLES[file] ?? file}`,
      description:
        'Every field of this config kind, an example, the common mistakes and their issue codes.',
      mimeType: 'text/markdown',
      read: () => docText(`configs/${file}`),
    }),
  );
  return [
    {
      uri: 'importkit://docs/agents.md',
      name: 'agents.md',
      title: 'How to prepare an import with these tools',
      description:
        'The loop that works (inspect → infer → check → preview → fix → submit) and how to read issue codes.',
      mimeType: 'text/markdown',
      read: () => docText('agents.md'),
    },
    {
      uri: 'importkit://issue-codes',
      name: 'issue-codes.json',
      title: 'Issue codes',
      description: 'Every issue code with its area, severity, meaning and fix (JSON).',
      mimeType: 'application/json',
      read: issueCodes,
    },
    {
      uri: 'importkit://docs/issue-codes.md',
      name: 'issue-codes.md',
      title: 'Issue codes (page)',
      description: 'Every issue code by area with what it means and how to fix it.',
      mimeType: 'text/markdown',
      read: () => docText('issue-codes.md'),
    },
    ...pages,
    ...schemas,
  ];
}
