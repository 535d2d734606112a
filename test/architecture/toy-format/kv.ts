/**
 * The toy "kv" format's code: a file is `#kv` and then `time=value` lines (a unix time in
 * seconds and a number); its config names the asset and the keys it imports. Inspect,
 * infer, check, rows and the emulator's facts, each a few lines, as a format's folder holds
 * them.
 */
import type { BaseProfile, ByteSource } from '../../../src/inspect/index.js';
import { openFileSource } from '../../../src/inspect/index.js';
import type { ImportDocument, Issue } from '../../../src/model/index.js';

export interface KvConfig {
  assetName?: string;
  keys?: string[];
}

/** The pairs of kv bytes, in file order. */
export async function pairsOf(source: ByteSource): Promise<Array<[string, string]>> {
  const text = new TextDecoder().decode(await source.read(0, source.size));
  return text
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map((l) => l.split('=', 2) as [string, string]);
}

async function pairs(path: string): Promise<Array<[string, string]>> {
  const source = await openFileSource(path);
  try {
    return await pairsOf(source);
  } finally {
    await source.close();
  }
}

export async function inspectKv(path: string): Promise<BaseProfile> {
  const found = await pairs(path);
  const times = found.map(([t]) => Number(t));
  return {
    format: 'kv',
    file: { path, size: 0 },
    bytesRead: 0,
    fields: [
      {
        name: 'time',
        physicalType: 'int',
        samples: found.map(([t]) => t),
        stats: { min: Math.min(...times), max: Math.max(...times) },
      },
    ],
    issues: [],
  };
}

export async function inferKv(path: string) {
  const found = await pairs(path);
  return {
    document: { kvConfig: { assetName: 'toy', keys: found.map(([t]) => t) } } as ImportDocument,
    kind: 'csv' as const,
    evidence: [
      {
        path: '/kvConfig/keys',
        choice: 'every key',
        reason: 'each line',
        confidence: 'high' as const,
      },
    ],
    issues: [],
  };
}

export async function checkKv(config: KvConfig, source: ByteSource, key: string): Promise<Issue[]> {
  const found = new Set((await pairsOf(source)).map(([t]) => t));
  return (config.keys ?? [])
    .filter((k) => !found.has(k))
    .map((k) => ({
      code: 'column_not_in_file',
      severity: 'error',
      path: `/${key}/keys`,
      message: `${k} is not in ${source.name}`,
    }));
}

/** The config's own check (the validator knows no kvConfig schema). */
export function validateKv(config: unknown, path: string): Issue[] {
  const keys = (config as KvConfig | undefined)?.keys;
  if (Array.isArray(keys) && keys.every((k) => typeof k === 'string')) return [];
  return [
    {
      code: 'wrong_type',
      severity: 'error',
      path: `${path}/keys`,
      message: 'keys: a list of strings',
    },
  ];
}
