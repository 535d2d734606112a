/** CSV: its entry in the format table. */
import type { CsvConfig } from '../../model/index.js';
import { CONFIG_KIND_KEYS } from '../../model/plain.js';
import type { FormatEntry } from '../types.js';
import { csvFacts } from './facts.js';

export const csv: FormatEntry = {
  id: 'csv',
  title: 'CSV',
  // `.txt` is read as CSV when named on its own, but a batch leaves a .txt member out: an
  // archive's notes and READMEs are text too.
  extensions: ['.csv', '.tsv', '.txt'],
  batchExtensions: ['.csv', '.tsv'],
  text: true,
  config: { key: CONFIG_KIND_KEYS.csv, title: 'CsvConfig', kind: 'csv' },
  dataTypeKey: () => 'DATA_TYPE_KEY_CSV',
  inspect: async (path, options) => (await import('./inspect.js')).inspectCsv(path, options),
  infer: async (path, options) => (await import('./infer.js')).inferCsv(path, options),
  inferSource: async (source, options) =>
    (await import('./infer.js')).inferCsvSource(source, options),
  inferOptions: ['timeColumn', 'timeFormat', 'relativeStartTime', 'delimiter', 'headerRow'],
  reads: { sampled: 'its head and tail sampled; `full` reads every row', full: 'every row read' },
  check: async (config, source, options) =>
    (await import('./check.js')).checkCsv(config as CsvConfig, source, options),
  rows: async () => (await import('./rows.js')).csvRows,
  facts: csvFacts,
  normalize: async () => (await import('./normalize.js')).normalizeCsv,
};
