/**
 * Text that is not what it seems (issue 12, point 9): non-UTF-8 files are refused by
 * `lint` and `fmt`; `fmt` keeps every value exact; an alias that reordering would put
 * before its anchor is refused with its reason; server text is printed with its control
 * characters escaped.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { printable } from '../../src/cli/printable.js';
import { run } from '../../src/cli/run.js';
import { formatConfigText } from '../../src/fmt/index.js';
import { json, plainServer } from '../client/_helpers.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importkit-security-text-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function capture(env: Record<string, string> = {}) {
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
    env,
    cwd: dir,
  };
  return { io, out: () => out, err: () => err };
}

const CONFIG = 'csvConfig:\n  assetName: rig\n  firstDataRow: 2\n';
const GOOD = [
  'csvConfig:',
  '  assetName: rig',
  '  firstDataRow: 2',
  '  timeColumn:',
  '    columnNumber: 1',
  '    format: TIME_FORMAT_ABSOLUTE_RFC3339',
  '  dataColumns:',
  '    "2":',
  '      name: x',
  '      dataType: CHANNEL_DATA_TYPE_DOUBLE',
  '',
].join('\n');

describe('non-UTF-8 text is refused, never rewritten', () => {
  const encodings: Array<[string, Buffer, string]> = [
    [
      'utf16le',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(CONFIG, 'utf16le')]),
      'UTF-16',
    ],
    [
      'utf16be-nobom',
      Buffer.from(CONFIG, 'utf16le').swap16(),
      'binary data or UTF-16 (it holds NUL bytes)',
    ],
    [
      'latin1',
      Buffer.from(`${CONFIG}  runName: caf\xe9\n`, 'latin1'),
      'in another encoding (Latin-1 or binary: some bytes are not UTF-8)',
    ],
  ];
  test.each(encodings)(
    '%s: lint and fmt exit 1 with text_not_utf8; the file is unchanged',
    async (name, bytes, what) => {
      const file = join(dir, `${name}.yaml`);
      await writeFile(file, bytes);
      const lint = capture();
      expect(await run(['lint', '--reporter', 'json', file], lint.io)).toBe(1);
      const report = JSON.parse(lint.out());
      expect(
        report.files[0].issues.map((i: { code: string; message: string }) => [i.code, i.message]),
      ).toEqual([['text_not_utf8', `The file is ${what}, not UTF-8 text.`]]);
      const fmt = capture();
      expect(await run(['fmt', file], fmt.io)).toBe(1);
      expect(fmt.err()).toBe(
        `${file}:1:1 error text_not_utf8: The file is ${what}, not UTF-8 text.\n`,
      );
      expect(await readFile(file)).toEqual(bytes);
    },
  );

  test('UTF-8 with a byte-order mark is still read', async () => {
    const file = join(dir, 'bom.yaml');
    await writeFile(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(CONFIG)]));
    const fmt = capture();
    expect(await run(['fmt', '--check', file], fmt.io)).toBe(0);
  });
});

describe('fmt keeps values exact', () => {
  test.each([
    [
      'YAML key past 2^64',
      'c.yaml',
      'csvConfig:\n  dataColumns:\n    99999999999999999999:\n      name: a\n',
    ],
    [
      'JSON 1e400, -0, 2^53+1, 2.50',
      'c.json',
      '{\n  "csvConfig": {\n  "firstDataRow": 9007199254740993,\n  "x": 1e400,\n  "y": -0,\n  "z": 2.50\n}\n}\n',
    ],
    [
      'YAML 1e400, -0, 2^53+1, 2.50',
      'c.yaml',
      'csvConfig:\n  firstDataRow: 9007199254740993\n  x: 1e400\n  y: -0\n  z: 2.50\n',
    ],
  ])('%s', (_name, filename, text) => {
    const r = formatConfigText(text, { filename });
    expect(r.error).toBeUndefined();
    for (const n of ['99999999999999999999', '9007199254740993', '1e400', '-0', '2.50']) {
      if (text.includes(n)) expect(r.text).toContain(n);
    }
    expect(r.text).not.toContain('100000000000000000000');
    expect(r.text).not.toContain('null');
    expect(r.text).not.toContain('9007199254740992');
  });

  test('JSON output of a canonical file is byte for byte the same', () => {
    const text = `${JSON.stringify({ csvConfig: { assetName: 'a', firstDataRow: 2, dataColumns: { '2': { name: 'x' } } } }, null, 2)}\n`;
    expect(formatConfigText(text, { filename: 'c.json' })).toEqual({
      text,
      changed: false,
      changes: [],
    });
  });
});

describe('aliases under reordering', () => {
  test('an alias that reordering would put before its anchor: refused with the reason, file unchanged', async () => {
    const text = 'csvConfig:\n  runName: &n rig-1\n  assetName: *n\n  firstDataRow: 2\n';
    const r = formatConfigText(text, { filename: 'c.yaml' });
    expect(r.text).toBe(text);
    expect(r.changed).toBe(false);
    expect(r.error?.code).toBe('format_alias_before_anchor');
    expect(r.error?.message).toMatch(
      /^Putting the keys in order would move an alias before its anchor \(.*\); the file is left as it is\.$/,
    );
    const file = join(dir, 'alias.yaml');
    await writeFile(file, text);
    const fmt = capture();
    expect(await run(['fmt', file], fmt.io)).toBe(1);
    expect(fmt.err()).toMatch(/^.*alias\.yaml error format_alias_before_anchor: Putting the keys/);
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  test('an alias that stays after its anchor is kept', () => {
    const text = 'csvConfig:\n  assetName: &n rig-1\n  runName: *n\n';
    expect(formatConfigText(text, { filename: 'c.yaml' })).toEqual({
      text,
      changed: false,
      changes: [],
    });
  });
});

describe('server text is printed with control characters escaped', () => {
  test('printable escapes ESC, OSC, CR, LF, DEL, C1 and bidi overrides', () => {
    expect(printable('ok \x1b]0;pwned\x07 a\rb\nc\x7f\x9b\u202e d')).toBe(
      'ok \\x1b]0;pwned\\x07 a\\rb\\nc\\x7f\\x9b\\u202e d',
    );
  });

  test('status and a failed request print no raw control character from the server', async () => {
    const evil = '\x1b]0;owned\x07\rimportkit: all good\n\x1b[2K';
    const srv = await plainServer((req, res) => {
      if (req.url?.includes('bad')) return json(res, 404, { code: 5, message: evil });
      json(res, 200, {
        dataImport: {
          dataImportId: 'i1',
          status: 'DATA_IMPORT_STATUS_FAILED',
          errorMessage: evil,
          warnings: [evil],
        },
      });
    });
    try {
      const env = { IMPORTKIT_BASE_URL: srv.url, IMPORTKIT_API_KEY: 'k-123456' };
      for (const id of ['i1', 'bad']) {
        const c = capture(env);
        expect(await run(['status', id], c.io)).toBe(1);
        const printed = c.out() + c.err();
        // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for them
        expect(printed.replace(/\n/g, '')).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
        expect(printed).toContain('\\x1b]0;owned\\x07\\rimportkit: all good\\n\\x1b[2K');
      }
    } finally {
      await srv.close();
    }
  });

  test('submit --wait prints the id, status and message the server gave with their controls escaped', async () => {
    const evilId = 'i\x1b[31m1';
    const srv = await plainServer((req, res) => {
      if (req.method === 'POST') return json(res, 200, { dataImportId: evilId });
      json(res, 200, {
        dataImport: {
          dataImportId: evilId,
          status: 'DATA_IMPORT_STATUS_FAILED',
          errorMessage: 'bad\rforged line',
        },
      });
    });
    try {
      await writeFile(join(dir, 'url.yaml'), GOOD);
      const c = capture({ IMPORTKIT_BASE_URL: srv.url, IMPORTKIT_API_KEY: 'k-123456' });
      const argv = ['submit', 'url.yaml', '--url', 'https://data.example/d.csv', '--wait'];
      expect(await run([...argv, '--poll-interval', '0.01'], c.io)).toBe(1);
      const printed = c.out() + c.err();
      // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for them
      expect(printed.replace(/\n/g, '')).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
      expect(c.err()).toContain(
        'created data import i\\x1b[31m1 from https://data.example/d.csv\n',
      );
      expect(c.err()).toContain('data import i\\x1b[31m1 failed: bad\\rforged line\n');
    } finally {
      await srv.close();
    }
  });

  test('lint prints a key holding control characters escaped', async () => {
    const file = join(dir, 'esc-key.yaml');
    await writeFile(file, `${GOOD}  "\x1b]0;t\x07": 1\n`);
    const c = capture();
    expect(await run(['lint', file], c.io)).toBe(1);
    const printed = c.out() + c.err();
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for them
    expect(printed.replace(/\n/g, '')).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
    expect(printed).toContain('\\x1b]0;t\\x07');
    expect(printed).not.toContain('importkit lint:');
  });
});
