/**
 * `check --full` decodes each field of a ULog message as its type says, whatever its size:
 * every integer field (a bool cannot be an enum; other tests cover it) is declared an enum whose only key is the value written, so a value
 * read in the wrong byte order, from the wrong offset or of the wrong size is a key the enum
 * lacks, and a finding. The messages run across the reader's 1 MiB windows.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { type FormatSpec, UlogWriter } from '../../scripts/fixtures/ulog-writer.js';
import { checkConfig } from '../../src/check/index.js';
import type { ImportDocument } from '../../src/model/document.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-ulog-decode-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each field, its type, what it is written with, and the key it must read as. */
const FIELDS = [
  {
    name: 'a',
    type: 'uint8_t',
    size: 1,
    put: (v: DataView, o: number) => v.setUint8(o, 200),
    key: 200,
  },
  {
    name: 'b',
    type: 'int16_t',
    size: 2,
    put: (v: DataView, o: number) => v.setInt16(o, 258, true),
    key: 258,
  },
  {
    name: 'c',
    type: 'uint16_t',
    size: 2,
    put: (v: DataView, o: number) => v.setUint16(o, 513, true),
    key: 513,
  },
  {
    name: 'e',
    type: 'int32_t',
    size: 4,
    put: (v: DataView, o: number) => v.setInt32(o, 70_000, true),
    key: 70_000,
  },
  {
    name: 'f',
    type: 'uint32_t',
    size: 4,
    put: (v: DataView, o: number) => v.setUint32(o, 65_539, true),
    key: 65_539,
  },
  { name: 'g', type: 'int8_t', size: 1, put: (v: DataView, o: number) => v.setInt8(o, 9), key: 9 },
];
const FORMAT: FormatSpec = {
  name: 'm',
  fields: [
    { type: 'uint64_t', name: 'timestamp' },
    ...FIELDS.map((f) => ({ type: f.type, name: f.name })),
  ],
};
const SIZE = 8 + FIELDS.reduce((n, f) => n + f.size, 0);

function logOf(messages: number): string {
  const w = new UlogWriter();
  w.format(FORMAT).subscribe(0, 300, 'm');
  for (let i = 0; i < messages; i++) {
    const body = new Uint8Array(SIZE);
    const v = new DataView(body.buffer);
    v.setBigUint64(0, 1_000_000n + BigInt(i), true);
    let o = 8;
    for (const f of FIELDS) {
      f.put(v, o);
      o += f.size;
    }
    w.data(300, body);
  }
  const path = join(dir, `m-${messages}.ulg`);
  writeFileSync(path, w.bytes());
  return path;
}

function docOf(keyShift: number): ImportDocument {
  return {
    ulogConfig: {
      relativeStartTime: '2024-05-01T12:00:00Z',
      data: FIELDS.map((f) => ({
        messageName: 'm',
        fieldName: f.name,
        channelConfig: {
          name: `m.${f.name}`,
          dataType: 'CHANNEL_DATA_TYPE_ENUM',
          enumTypes: [{ name: 'written', key: f.key + keyShift }],
        },
      })),
    },
  } as ImportDocument;
}

test('every field reads as written, across the windows', async () => {
  // About 1.6 MiB of 25-byte messages: the walk leaves its first window mid-log.
  const path = logOf(70_000);
  const errors = (await checkConfig(docOf(0), path, { full: true, jobs: 1 })).filter(
    (i) => i.severity === 'error',
  );
  expect(errors).toEqual([]);
  // The same check with keys that are not the values finds each field: the test can fail.
  const shifted = await checkConfig(docOf(1), path, { full: true, jobs: 1 });
  const flagged = new Set(shifted.map((i) => i.path));
  for (const [k] of FIELDS.entries()) {
    expect(flagged.has(`/ulogConfig/data/${k}/channelConfig/enumTypes`)).toBe(true);
  }
});
