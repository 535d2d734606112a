/** The toy "kv" format's entry in the format table: its whole folder is this and kv.ts. */
import type { FormatEntry } from '../../../src/inspect/index.js';
import { timeValueToIso } from '../../../src/values/index.js';
import { validateKv } from './kv.js';

export const kv: FormatEntry = {
  id: 'kv',
  title: 'KV',
  extensions: ['.kv'],
  magic: [{ bytes: [...'#kv\n'].map((c) => c.charCodeAt(0)) }],
  text: true,
  config: {
    key: 'kvConfig',
    title: 'KvConfig',
    validate: validateKv,
  },
  docs: { page: 'configs/kv.md', imports: 'key=value lines' },
  // The platform has no DataTypeKey for it: a batch leaves a kv member out.
  batch: 'none',
  inspect: async (path) => (await import('./kv.js')).inspectKv(path),
  infer: async (path) => (await import('./kv.js')).inferKv(path),
  reads: { sampled: 'every pair read', full: 'every pair read' },
  check: async (config, source, { key }) => (await import('./kv.js')).checkKv(config, source, key),
  facts: async () => ({
    timeRange: (_config, profile) => {
      const stats = profile.fields[0]?.stats;
      const start = timeValueToIso(stats?.min, 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS');
      const stop = timeValueToIso(stats?.max, 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS');
      return { ...(start ? { start } : {}), ...(stop ? { stop } : {}) };
    },
  }),
};
