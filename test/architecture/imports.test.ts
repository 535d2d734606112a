/**
 * The import rules of src/, checked on every test run (and so in CI):
 * - no import cycle, counting every import: static, dynamic (`import()`), re-exports and
 *   type-only ones (a type-only cycle is still two modules that cannot be read apart);
 * - a stage (a folder directly under src/) imports another stage only through its
 *   `index.ts`; `src/index.ts` too. `src/model` is no exception: it is the leaf everyone
 *   imports, through `model/index.ts` or its zod-free part `model/plain.ts` (what the
 *   validator and `lint` need, without building the zod schemas).
 *
 * Our own check with the TypeScript compiler API rather than dependency-cruiser: the
 * current dependency-cruiser (18) requires Node 22 while importkit supports Node 20 (only
 * its previous major, 17, still installs there), and the two rules need ~100 lines over a
 * parser we already depend on: no install, no config language, and `.js`-suffixed
 * imports of `.ts` files need no resolver setup. It runs with the tests, so CI fails on
 * a violation.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return sourceFiles(path);
    return d.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every module specifier a file names: imports, re-exports and `import('...')`. */
function specifiers(file: string): string[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      out.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      out.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** The import graph of src/: file → the src/ files it imports (relative to src/, POSIX). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const targets = specifiers(file)
      .filter((s) => s.startsWith('.'))
      .map((s) => resolve(dirname(file), s.replace(/\.js$/, '.ts')))
      .filter((t) => t.startsWith(SRC + sep) && t.endsWith('.ts'))
      .map(posix);
    graph.set(posix(file), targets);
  }
  return graph;
}

function posix(file: string): string {
  return relative(SRC, file).split(sep).join('/');
}

/** The stage a file belongs to (its folder under src/), or '' for files in src/ itself. */
function stageOf(file: string): string {
  const slash = file.indexOf('/');
  return slash < 0 ? '' : file.slice(0, slash);
}

/**
 * The files of a stage others may import: its index.ts (and model's zod-free entry, and
 * inspect's CSV record scanner, which check's worker threads load without the inspectors,
 * and validate's committed JSON Schemas of every kind, which validation does not need: it
 * reads the document's alone, so `lint`, `infer` and `check` do not load the other seven,
 * and values' reader of date-time text, which a CSV check's worker threads load without
 * the rest of values/: through values/index.ts a worker took 39 to 45 ms to load its
 * modules, against 24 to 32 ms).
 */
const ENTRIES: Readonly<Record<string, readonly string[]>> = {
  model: ['model/index.ts', 'model/plain.ts'],
  inspect: ['inspect/index.ts', 'inspect/shared.ts'],
  infer: ['infer/index.ts', 'infer/shared.ts'],
  check: ['check/index.ts', 'check/shared.ts'],
  validate: ['validate/index.ts', 'validate/committed-schemas.ts'],
  formats: ['formats/index.ts', 'formats/public.ts'],
  values: ['values/index.ts', 'values/iso-time.ts'],
};

function isEntry(file: string, stage: string): boolean {
  return (ENTRIES[stage] ?? [`${stage}/index.ts`]).includes(file);
}

/** Imports of another stage's internals, as `from → to`. */
function internalImports(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const stage = stageOf(to);
      if (stage === '' || stage === stageOf(from)) continue;
      if (!isEntry(to, stage)) found.push(`${from} → ${to}`);
    }
  }
  return found;
}

/** The import cycles (strongly connected components of more than one file, or a self-import). */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string | undefined;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)?.includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return found;
}

describe('imports in src/', () => {
  const graph = importGraph();

  test('the graph is read (the check would pass vacuously otherwise)', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('index.ts')).toContain('model/index.ts');
  });

  test('no import cycle', () => {
    expect(cycles(graph).map((c) => c.join(' ↔ '))).toEqual([]);
  });

  test('a stage imports another stage only through its index.ts', () => {
    expect(internalImports(graph)).toEqual([]);
  });

  test('check does not import infer (what both need lives below them, in values/ or inspect/shared.ts)', () => {
    const reach = [...graph].filter(
      ([from, targets]) => stageOf(from) === 'check' && targets.some((t) => stageOf(t) === 'infer'),
    );
    expect(reach.map(([from]) => from)).toEqual([]);
  });

  test('a format folder imports no other format, and a stage only through its shared entry', () => {
    const formatOf = (f: string) => /^formats\/([^/]+)\//.exec(f)?.[1];
    const found = [...graph].flatMap(([from, targets]) => {
      const own = formatOf(from);
      if (own === undefined) return [];
      return targets
        .filter((to) => {
          const other = formatOf(to);
          if (other !== undefined) return other !== own;
          return ['inspect', 'infer', 'check'].includes(stageOf(to)) && !to.endsWith('/shared.ts');
        })
        .map((to) => `${from} → ${to}`);
    });
    expect(found).toEqual([]);
  });

  test('below the formats nothing reaches up: the shared entries never lead to a format or a dispatch', () => {
    const below = ['inspect/shared.ts', 'infer/shared.ts', 'check/shared.ts', 'values/index.ts'];
    const seen = new Set<string>();
    const walk = (f: string): void => {
      if (seen.has(f)) return;
      seen.add(f);
      for (const t of graph.get(f) ?? []) walk(t);
    };
    for (const f of below) walk(f);
    const up = [...seen].filter(
      (f) =>
        f.startsWith('formats/') ||
        /^(inspect|infer|check|preview|cli|mcp|emulator)\/index\.ts$/.test(f),
    );
    expect(seen.size).toBeGreaterThan(20);
    expect(up).toEqual([]);
  });

  test("only the public entry imports the formats' named functions (formats/public.ts)", () => {
    const found = [...graph]
      .filter(([from, targets]) => from !== 'node.ts' && targets.includes('formats/public.ts'))
      .map(([from]) => from);
    expect(found).toEqual([]);
  });

  test('a command does not import another command (shared helpers are cli/commands/_*.ts)', () => {
    const command = (f: string) => /^cli\/commands\/[^_/][^/]*\.ts$/.test(f);
    const found = [...graph].flatMap(([from, targets]) =>
      command(from)
        ? targets.filter((t) => command(t) && t !== from).map((t) => `${from} → ${t}`)
        : [],
    );
    expect(found).toEqual([]);
  });

  test('a package whose internals src/ imports is pinned to an exact version', () => {
    const pkg = JSON.parse(readFileSync(resolve(SRC, '../package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const internals = new Set(
      sourceFiles(SRC).flatMap((file) =>
        specifiers(file).flatMap((s) => /^((?:@[^/]+\/)?[^./][^/]*)\/src\//.exec(s)?.[1] ?? []),
      ),
    );
    expect([...internals]).toEqual(['hyparquet']);
    for (const name of internals) expect(pkg.dependencies[name]).toMatch(/^\d+\.\d+\.\d+$/);
  });

  test('the checks find what they look for', () => {
    const sample = new Map([
      ['cli/run.ts', ['cli/commands/x.ts', 'infer/csv.ts', 'infer/index.ts']],
      ['cli/commands/x.ts', ['cli/run.ts', 'model/issue.ts', 'model/plain.ts']],
      ['infer/csv.ts', []],
      ['infer/index.ts', ['infer/csv.ts']],
    ]);
    expect(cycles(sample)).toEqual([['cli/commands/x.ts', 'cli/run.ts']]);
    expect(internalImports(sample)).toEqual([
      'cli/run.ts → infer/csv.ts',
      'cli/commands/x.ts → model/issue.ts',
    ]);
  });
});
