/** The table of config pages in docs/README.md is the format table rendered (`npm run docs`). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { renderFormatIndex, withFormatIndex } from '../../scripts/docs.js';
import { formats } from '../../src/inspect/index.js';

const readme = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'README.md'), 'utf8');

test('docs/README.md lists every format of the table (run npm run docs when this fails)', () => {
  expect(withFormatIndex(readme)).toBe(readme);
  for (const f of formats()) expect(renderFormatIndex()).toContain(`\`${f.config.key}\``);
});
