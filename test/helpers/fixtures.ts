import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './paths.js';

/** One area of generated fixtures: `fixtures/<area>/<case>.expected.json` beside `<case><ext>`. */
export interface FixtureCases<T> {
  /** The area's directory. */
  dir: string;
  /** The case names (each expectation's base name), sorted. */
  cases: string[];
  /** The parsed expectation of a case. */
  load(name: string): T;
  /** The data file of a case. */
  file(name: string): string;
}

/** Lists the cases of `fixtures/<area>`, whose data files end in `ext` (with its dot). */
export function fixtureCases<T>(area: string, ext: string): FixtureCases<T> {
  const dir = join(repoRoot, 'fixtures', area);
  const cases = readdirSync(dir)
    .filter((f) => f.endsWith('.expected.json'))
    .map((f) => f.replace(/\.expected\.json$/, ''))
    .sort();
  return {
    dir,
    cases,
    load: (name) => JSON.parse(readFileSync(join(dir, `${name}.expected.json`), 'utf8')) as T,
    file: (name) => join(dir, `${name}${ext}`),
  };
}
