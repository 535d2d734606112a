/**
 * The repository tests, benchmarks and documents itself with nothing beside it: no file under
 * src/ test/ bench/ scripts/ docs/ or the README names the folder of sample files that sits
 * beside the repository on some machines, or a path that climbs out of the repository root.
 * The patterns are built from pieces so that this file does not name what it looks for.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, test } from 'vitest';
import { repoRoot } from './helpers/paths.js';

const UP = '..';
const SIBLING = ['sha', 'red'].join('');
const q = (s: string) => `'${s}'`;

/** Folders whose code runs compiled into dist/<folder>/: one level deeper than its source. */
const COMPILED = new Set(['src', 'bench', 'scripts']);

/** The sibling sample folder, named as a path (`../x`) or as join arguments (`'..', 'x'`). */
const siblingPattern = new RegExp(
  [`\\.\\.[/\\\\]+${SIBLING}\\b`, `${q('\\.\\.')}\\s*,\\s*${q(SIBLING)}`].join('|'),
);
/** A run of `'..'` arguments in a call (join, resolve). */
const upRunPattern = new RegExp(`(?:${q('\\.\\.')}\\s*,?\\s*)+`, 'g');
/** The repository root, then a step up. */
const rootUpPattern = new RegExp(`\\b(?:repoRoot|root)\\s*,\\s*${q('\\.\\.')}`);
/** A relative path written as text (dot-dot-slash steps), in an import, a link or a string. */
const relativePattern = /(?<![\w.])((?:\.\.\/)+)/g;

/** How far above its folder a file may climb and still be inside the repository. */
function allowedDepth(file: string): number {
  const rel = relative(repoRoot, dirname(file));
  const parts = rel === '' ? [] : rel.split(sep);
  return parts.length + (COMPILED.has(parts[0] ?? '') ? 1 : 0);
}

/** Each place in `text` (the content of `file`) that reads outside the repository. */
function outsideReferences(file: string, text: string): string[] {
  const found: string[] = [];
  const depth = allowedDepth(file);
  text.split('\n').forEach((line, i) => {
    const at = `${relative(repoRoot, file)}:${i + 1}`;
    if (siblingPattern.test(line)) found.push(`${at} names the sibling sample folder`);
    if (rootUpPattern.test(line)) found.push(`${at} climbs above the repository root`);
    for (const m of line.matchAll(upRunPattern)) {
      const steps = m[0].split(q(UP)).length - 1;
      if (steps > depth) found.push(`${at} climbs ${steps} folders up from depth ${depth}`);
    }
    for (const m of line.matchAll(relativePattern)) {
      const steps = (m[1] ?? '').length / 3;
      if (steps > depth) found.push(`${at} climbs ${steps} folders up from depth ${depth}`);
    }
  });
  return found;
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else if (/\.(ts|js|mjs|md|json|yaml|yml)$/.test(name)) out.push(p);
  }
  return out;
}

describe('the repository reads nothing outside itself', () => {
  test('the detector finds each kind of reference and passes plain ones', () => {
    const inTest = join(repoRoot, 'test', 'cli', 'x.test.ts');
    expect(outsideReferences(inTest, `const d = join(root, ${q(UP)}, ${q(SIBLING)});`)).toEqual([
      'test/cli/x.test.ts:1 names the sibling sample folder',
      'test/cli/x.test.ts:1 climbs above the repository root',
    ]);
    expect(outsideReferences(inTest, `read('${UP}/${SIBLING}/corpus')`)).toEqual([
      'test/cli/x.test.ts:1 names the sibling sample folder',
    ]);
    expect(outsideReferences(inTest, `join(here, ${q(UP)}, ${q(UP)}, ${q(UP)}, 'x')`)).toEqual([
      'test/cli/x.test.ts:1 climbs 3 folders up from depth 2',
    ]);
    expect(outsideReferences(inTest, `import { a } from '${UP}/${UP}/${UP}/x.js';`)).toEqual([
      'test/cli/x.test.ts:1 climbs 3 folders up from depth 2',
    ]);
    const readme = join(repoRoot, 'README.md');
    expect(outsideReferences(readme, `see [x](${UP}/notes.md)`)).toEqual([
      'README.md:1 climbs 1 folders up from depth 0',
    ]);
    // Inside the repository: from test/cli two steps up is the root; compiled src one more.
    expect(outsideReferences(inTest, `join(here, ${q(UP)}, ${q(UP)}, 'fixtures')`)).toEqual([]);
    const inSrc = join(repoRoot, 'src', 'cli', 'x.ts');
    expect(outsideReferences(inSrc, `join(here, ${q(UP)}, ${q(UP)}, ${q(UP)}, 'x')`)).toEqual([]);
    expect(outsideReferences(readme, 'code shared by every config; ./docs/x.md')).toEqual([]);
  });

  test('no file under src/ test/ bench/ scripts/ docs/ or the README reads outside the repository', () => {
    const files = [
      ...['src', 'test', 'bench', 'scripts', 'docs'].flatMap((d) => filesUnder(join(repoRoot, d))),
      join(repoRoot, 'README.md'),
    ];
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((f) => outsideReferences(f, readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });

  test('the platform examples are in the repository', () => {
    const dir = resolve(repoRoot, 'fixtures', 'platform-examples');
    expect(readdirSync(dir).sort()).toEqual([
      'README.md',
      'csv-absolute-datetime.csv',
      'hdf5-compound.h5',
      'hdf5-one-d.h5',
      'hdf5-two-d.h5',
      'parquet-flat.parquet',
      'parquet-multi-channel-per-row.parquet',
      'parquet-single-channel-per-row.parquet',
      'tdms-time-channel.tdms',
      'tdms-waveform.tdms',
      'ulog-sample.ulg',
    ]);
  });
});
