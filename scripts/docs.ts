/**
 * Writes docs/issue-codes.md from the code registry (`npm run docs`). A test renders it
 * in memory and fails when the committed page differs: after adding a code, rerun this.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'issue-codes.md');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, renderIssueCodes());
  console.log('wrote docs/issue-codes.md');
}
