/** `importkit schema [kind]` prints the committed JSON Schema. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { run } from '../../src/cli/run.js';

const root = join(import.meta.dirname, '..', '..');

async function schema(...args: string[]) {
  let out = '';
  let err = '';
  const io: Io = {
    stdout: {
      write: (s) => {
        out += s;
      },
    },
    stderr: {
      write: (s) => {
        err += s;
      },
    },
    env: {},
    cwd: root,
  };
  const code = await run(['schema', ...args], io);
  return { code, out, err };
}

const file = (name: string) => readFileSync(join(root, 'schemas', name), 'utf8');

describe('importkit schema', () => {
  test('no kind: the whole document', async () => {
    expect(await schema()).toEqual({ code: 0, out: file('document.schema.json'), err: '' });
  });
  test('a kind by name, key or title', async () => {
    for (const k of ['parquet', 'parquetConfig', 'ParquetConfig']) {
      expect(await schema(k)).toEqual({
        code: 0,
        out: file('parquet-config.schema.json'),
        err: '',
      });
    }
  });
  test('an unknown kind is a usage error', async () => {
    const r = await schema('xml');
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err.split('\n')[0]).toBe(
      "importkit schema: unknown kind 'xml' (one of document, csv, ch10, tdms, parquet, hdf5, ulog, batch)",
    );
  });
});
