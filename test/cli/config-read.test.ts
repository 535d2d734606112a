/**
 * A config file as `lint` reads it (`readConfigFile`): the text of the whole file, decoded as
 * the validator decodes bytes, whatever its size and content, in the four system calls it
 * makes of a file (no `access`, no `fstat`, no read past the end `stat` gave); and the
 * names of a folder's files, as `path.join` would write them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { joinUnder } from '../../src/cli/commands/_files.js';
import { readConfigFile } from '../../src/files/index.js';
import { decodeConfigBytes } from '../../src/validate/index.js';

const dir = mkdtempSync(join(tmpdir(), 'importkit-config-read-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Bytes of every kind a config file holds: text, a BOM, UTF-8 of many lengths, any byte. */
const bytesArb = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 3000 }).map((s) => new TextEncoder().encode(s)),
  fc
    .tuple(
      fc.constantFrom([0xef, 0xbb, 0xbf], [0xff, 0xfe], []),
      fc.uint8Array({ maxLength: 5000 }),
    )
    .map(([head, rest]) => Uint8Array.from([...head, ...rest])),
  // Larger than one page, and than the 64 KiB a read of a pipe gives at once.
  fc.integer({ min: 60_000, max: 140_000 }).map((n) => new Uint8Array(n).fill(0x61)),
);

describe('readConfigFile', () => {
  test('reads the whole file, decoded as the validator decodes its bytes', () => {
    let n = 0;
    fc.assert(
      fc.property(bytesArb, (bytes) => {
        n += 1;
        const file = join(dir, `c-${n}.yaml`);
        writeFileSync(file, bytes);
        expect(readConfigFile(file)).toEqual(decodeConfigBytes(bytes));
        rmSync(file);
      }),
      { numRuns: 60 },
    );
  });

  test('a missing file and a folder are issues placed on the first line, not thrown', () => {
    expect(readConfigFile(join(dir, 'nothing.yaml'))).toMatchObject({
      code: 'file_not_found',
      line: 1,
      column: 1,
    });
    expect(readConfigFile(dir)).toMatchObject({ code: 'not_a_file', line: 1, column: 1 });
  });
});

describe('joinUnder', () => {
  test('is path.join of the folder and a path of file names under it', () => {
    const segment = fc.constantFrom('a', 'b', '.', '..', '', 'c d', 'configs', '.hidden', 'e..f');
    const dirArb = fc
      .tuple(fc.constantFrom('', '/', './', '../'), fc.array(segment, { maxLength: 5 }))
      .map(([lead, parts]) => lead + parts.join('/'));
    const name = fc.stringMatching(/^[a-z0-9._ -]{1,8}$/).filter((n) => n !== '.' && n !== '..');
    const relArb = fc.array(name, { minLength: 1, maxLength: 3 }).map((p) => p.join('/'));
    fc.assert(
      fc.property(dirArb, relArb, (dir, rel) => {
        expect(joinUnder(dir)(rel)).toBe(join(dir, rel));
      }),
      { numRuns: 500 },
    );
  });
});
