/**
 * The format table drives dispatch: a toy "kv" format (`#kv` then `key=value` lines),
 * registered in each stage's part of the table, is detected, inspected, inferred and
 * checked through the public entries, and gone again once unregistered. The three parts
 * list the same built-in formats.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type CheckFormat,
  checkConfig,
  checkFormats,
  registerCheckFormat,
} from '../../src/check/index.js';
import {
  type InferFormat,
  inferConfig,
  inferFormats,
  registerInferFormat,
} from '../../src/infer/index.js';
import {
  type BaseProfile,
  type ByteSource,
  detectFormat,
  type InspectFormat,
  inspectFile,
  inspectFormats,
  openFileSource,
  registerInspectFormat,
} from '../../src/inspect/index.js';
import type { ImportDocument, Issue } from '../../src/model/index.js';

let dir: string;
let kvPath: string;
let csvPath: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-format-table-'));
  kvPath = join(dir, 'settings.txt');
  csvPath = join(dir, 'data.csv');
  await writeFile(kvPath, '#kv\nspeed=12\nmode=auto\n');
  await writeFile(csvPath, 'time,value\n2024-01-01T00:00:00Z,1\n');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The pairs of a kv file. */
async function pairs(path: string): Promise<Map<string, string>> {
  const source = await openFileSource(path);
  try {
    return await pairsOf(source);
  } finally {
    await source.close();
  }
}

/** The pairs of kv bytes read through a source. */
async function pairsOf(source: ByteSource): Promise<Map<string, string>> {
  const text = new TextDecoder().decode(await source.read(0, source.size));
  const lines = text.split('\n').slice(1).filter(Boolean);
  return new Map(lines.map((l) => l.split('=', 2) as [string, string]));
}

const KV_INSPECT: InspectFormat = {
  id: 'kv',
  title: 'KV',
  extensions: ['.kv'],
  magic: [{ bytes: [...'#kv\n'].map((c) => c.charCodeAt(0)) }],
  text: true,
  inspect: async (path): Promise<BaseProfile> => {
    const found = await pairs(path);
    return {
      format: 'kv',
      file: { path, size: 0 },
      bytesRead: 0,
      fields: [...found].map(([name, value]) => ({
        name,
        physicalType: 'text',
        samples: [value],
      })),
      issues: [],
    };
  },
};

const KV_INFER: InferFormat = {
  id: 'kv',
  infer: async (path) => ({
    document: { kvConfig: { keys: [...(await pairs(path)).keys()] } } as ImportDocument,
    kind: 'csv',
    evidence: [
      { path: '/kvConfig/keys', choice: 'speed, mode', reason: 'every key', confidence: 'high' },
    ],
    issues: [],
  }),
};

const KV_CHECK: CheckFormat = {
  id: 'kv',
  configKey: 'kvConfig',
  title: 'KvConfig',
  reads: { sampled: 'every pair read', full: 'every pair read' },
  check: async (config, source, { key }) => {
    const found = await pairsOf(source);
    const keys = (config.keys ?? []) as string[];
    return keys
      .filter((k) => !found.has(k))
      .map(
        (k): Issue => ({
          code: 'column_not_in_file',
          severity: 'error',
          path: `/${key}/keys`,
          message: `${k} is not in ${source.name}`,
        }),
      );
  },
};

describe('the format table', () => {
  test('the three parts list the same built-in formats', () => {
    const ids = (list: ReadonlyArray<{ id: string }>) => list.map((f) => f.id).sort();
    const built = ['ch10', 'csv', 'hdf5', 'parquet', 'tdms', 'ulog'];
    expect(ids(inspectFormats())).toEqual(built);
    expect(ids(inferFormats())).toEqual(built);
    expect(ids(checkFormats())).toEqual(built);
  });

  test('a registered format is detected, inspected, inferred and checked, then removed', async () => {
    const removers = [
      registerInspectFormat(KV_INSPECT),
      registerInferFormat(KV_INFER),
      registerCheckFormat(KV_CHECK),
    ];
    try {
      const source = await openFileSource(kvPath);
      const detection = await detectFormat(source).finally(() => source.close());
      expect(detection).toEqual({ format: 'kv', gzip: false, by: 'magic' });

      const profile = await inspectFile(kvPath);
      expect(profile.format).toBe('kv');
      expect(profile.fields.map((f) => [f.name, f.samples])).toEqual([
        ['speed', ['12']],
        ['mode', ['auto']],
      ]);

      const draft = await inferConfig(kvPath);
      expect(draft.document).toEqual({ kvConfig: { keys: ['speed', 'mode'] } });
      expect(draft.evidence.map((e) => e.path)).toEqual(['/kvConfig/keys']);
      // The shared validation still runs on the draft, and knows no kvConfig.
      expect(draft.issues.map((i) => [i.code, i.path])).toEqual([
        ['unknown_key', '/kvConfig'],
        ['config_kind_missing', ''],
      ]);

      const kv = { kvConfig: { keys: ['speed', 'gear'] } } as ImportDocument;
      expect(await checkConfig(kv, kvPath)).toEqual([
        {
          code: 'column_not_in_file',
          severity: 'error',
          path: '/kvConfig/keys',
          message: `gear is not in ${kvPath}`,
        },
      ]);
      // The table also says which format a config reads: a CSV file is not a kv file.
      expect((await checkConfig(kv, csvPath)).map((i) => [i.code, i.message])).toEqual([
        ['data_format_mismatch', `${csvPath} is a CSV file, but the config is a KvConfig`],
      ]);
    } finally {
      for (const remove of removers) remove();
    }
    expect(inspectFormats().map((f) => f.id)).not.toContain('kv');
    // Unregistered, the file is plain text again (read as CSV) and a kv config names no format.
    expect((await inspectFile(kvPath)).format).toBe('csv');
    expect(await checkConfig({ kvConfig: {} } as ImportDocument, kvPath)).toEqual([]);
  });

  test('an id that is taken is refused', () => {
    expect(() => registerInspectFormat({ ...KV_INSPECT, id: 'csv' })).toThrow(/already/);
    expect(() => registerInferFormat({ ...KV_INFER, id: 'csv' })).toThrow(/already/);
    expect(() => registerCheckFormat({ ...KV_CHECK, configKey: 'csvConfig' })).toThrow(/already/);
  });
});
