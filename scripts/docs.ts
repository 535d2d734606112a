/**
 * Writes docs/issue-codes.md from the code registry, and the table of config pages in
 * docs/README.md from the format table (`npm run docs`). A test renders both in memory and
 * fails when the committed pages differ: after adding a code or a format, rerun this.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formats } from '../src/inspect/index.js';
import { CODE_AREAS } from '../src/model/codes/index.js';

const AREA_TITLES: Record<string, string> = {
  validate: 'Config validation (`importkit lint`, `validateConfig`)',
  inspect: 'Reading data files (`importkit inspect`)',
  infer: 'Inferring configs (`importkit infer`)',
  csv: 'CSV files',
  parquet: 'Parquet files',
  hdf5: 'HDF5 files',
  ulog: 'ULog files',
  check: 'Checking a config against its file (`importkit check`)',
  normalize: 'Rewriting a CSV file (`importkit normalize`)',
  client: 'The platform client (`importkit submit`, `importkit status`)',
  cli: 'The command line',
  mcp: 'The MCP server (`importkit mcp`)',
};

function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** The Markdown page listing every issue code of every area, with its meaning and fix. */
export function renderIssueCodes(
  areas: Record<
    string,
    Record<string, { severity: string; summary: string; fix: string }>
  > = CODE_AREAS,
): string {
  const out: string[] = [
    '# Issue codes',
    '',
    '<!-- Generated from src/model/codes/ by `npm run docs`; do not edit by hand. -->',
    '',
    'Every issue importkit reports carries one of these codes. Codes are stable: programs may',
    'match on them (`importkit lint --reporter json` prints them). The severity is the one the',
    'code is usually reported with.',
    '',
  ];
  const total = Object.values(areas).reduce((n, a) => n + Object.keys(a).length, 0);
  out.push(`${total} codes in ${Object.keys(areas).length} areas.`, '');
  for (const [area, codes] of Object.entries(areas)) {
    out.push(`## ${AREA_TITLES[area] ?? area}`, '');
    const entries = Object.entries(codes);
    if (entries.length === 0) {
      out.push('No codes yet.', '');
      continue;
    }
    out.push('| code | severity | what it means | how to fix it |', '|---|---|---|---|');
    for (const [code, doc] of entries) {
      out.push(`| \`${code}\` | ${doc.severity} | ${cell(doc.summary)} | ${cell(doc.fix)} |`);
    }
    out.push('');
  }
  return out.join('\n');
}

const INDEX_START = '<!-- formats: generated from the format table by npm run docs -->';
const INDEX_END = '<!-- formats: end -->';

/** The rows of the docs index's table of configs: one per format of the table, then the rest. */
export function renderFormatIndex(): string {
  const rows = formats()
    .filter((f) => f.docs !== undefined)
    .map((f) => `| [${f.title}](${f.docs?.page}) | \`${f.config.key}\` | ${f.docs?.imports} |`);
  return [
    INDEX_START,
    '| page | config key | imports |',
    '|---|---|---|',
    ...rows,
    '| [Batch](configs/batch.md) | `batchConfig` | an archive of many files into one run |',
    '| [Channels and shared values](configs/channel.md) | | ChannelConfig, data types, enum and bit-field channels, metadata, time formats, 64-bit values, runs |',
    INDEX_END,
  ].join('\n');
}

/** docs/README.md (`text`) with its table of configs rendered anew. */
export function withFormatIndex(text: string): string {
  const start = text.indexOf(INDEX_START);
  const end = text.indexOf(INDEX_END);
  if (start < 0 || end < start)
    throw new Error('docs/README.md: the format table markers are missing');
  return text.slice(0, start) + renderFormatIndex() + text.slice(end + INDEX_END.length);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const docs = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs');
  const file = join(docs, 'issue-codes.md');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, renderIssueCodes());
  console.log('wrote docs/issue-codes.md');
  const readme = join(docs, 'README.md');
  writeFileSync(readme, withFormatIndex(readFileSync(readme, 'utf8')));
  console.log('wrote the table of configs in docs/README.md');
}
