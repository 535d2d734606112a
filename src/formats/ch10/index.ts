/** CH10 (IRIG 106 Chapter 10): its entry in the format table. */
import type { Ch10Config } from '../../model/index.js';
import { CONFIG_KIND_KEYS } from '../../model/plain.js';
import type { FormatEntry } from '../types.js';

export const ch10: FormatEntry = {
  id: 'ch10',
  title: 'CH10',
  extensions: ['.ch10', '.c10'],
  magic: [{ bytes: [0x25, 0xeb] }], // the packet sync pattern 0xEB25, little-endian
  config: { key: CONFIG_KIND_KEYS.ch10, title: 'Ch10Config', kind: 'ch10' },
  docs: { page: 'configs/ch10.md', imports: 'IRIG 106 Chapter 10 recordings' },
  // A batch file entry holds no ch10Config and there is no defaultCh10Config: the platform
  // reads a CH10 member with its defaults, so a batch lists it by its type only.
  batch: 'type-only',
  dataTypeKey: () => 'DATA_TYPE_KEY_CH10',
  inspect: async (path) => (await import('./inspect.js')).inspectCh10(path),
  infer: async (path, options) => (await import('./infer.js')).inferCh10(path, options),
  inferOptions: [],
  reads: {
    sampled:
      "its TMATS record, the headers of the packets in its first and last MiB and the first time packet's time read, no other packet data; `full` reads every packet header",
    full: "its TMATS record, every packet header and the first time packet's time read, no other packet data",
  },
  check: async (config, source, options) =>
    (await import('./check.js')).checkCh10(config as Ch10Config, source, options),
  noRowsNote:
    'CH10 values are not plotted: importkit reads the TMATS setup and the packet headers of a CH10 file, not the data in its packets, so this page shows where each channel has packets instead of plots (the check verdict and the config stand)',
  timeline: async () => (await import('./check.js')).ch10Timeline,
  facts: async () => (await import('./facts.js')).ch10Facts,
};
