/** CSV: its entry in the format table. */
import type { CsvConfig } from '../../model/index.js';
import { CONFIG_KIND_KEYS } from '../../model/plain.js';
import type { FormatEntry } from '../types.js';

export const csv: FormatEntry = {
  id: 'csv',
  title: 'CSV',
  // `.txt` is read as CSV when named on its own, but a batch leaves a .txt member out: an
  // archive's notes and READMEs are text too.
  extensions: ['.csv', '.tsv', '.txt'],
  batchExtensions: ['.csv', '.tsv'],
  text: true,
  config: { key: CONFIG_KIND_KEYS.csv, title: 'CsvConfig', kind: 'csv' },
  docs: {
    page: 'configs/csv.md',
    imports: 'delimited text: a time column and data columns by number',
  },
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
  facts: async () => (await import('./facts.js')).csvFacts,
  normalize: async () => (await import('./normalize.js')).normalizeCsv,
};
