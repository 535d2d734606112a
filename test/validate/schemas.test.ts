/**
 * The committed JSON Schemas are what the zod model generates (drift), and zod and ajv
 * (compiled from those schemas) agree on valid configs and on mutated ones.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CONFIG_KIND_NAMES, CONFIG_KINDS, ImportDocument } from '../../src/model/document.js';
import { ENUMS } from '../../src/model/enums.js';
import { generateSchemas } from '../../src/model/index.js';
import { pointer } from '../../src/model/issue.js';
import type { ConfigKind } from '../../src/model/plain.js';
import { committedSchema } from '../../src/validate/committed-schemas.js';
import {
  configTitle,
  SCHEMA_FILES,
  type SchemaName,
  schemaText,
} from '../../src/validate/index.js';
import { shapeValidator } from '../../src/validate/shape.js';
import { VALIDATOR_FILE, validatorText } from '../../src/validate/standalone.js';
import { arbConfigOf, arbDocument } from '../helpers/arbitraries.js';

const root = join(import.meta.dirname, '..', '..');

describe('schemas/ matches the model', () => {
  const generated = generateSchemas();
  for (const name of Object.keys(SCHEMA_FILES) as SchemaName[]) {
    test(`${SCHEMA_FILES[name]} is up to date (run npm run schemas when this fails)`, () => {
      const committed = readFileSync(join(root, 'schemas', SCHEMA_FILES[name]), 'utf8');
      expect(committed).toBe(schemaText(generated[name]));
    });
  }

  test(`${VALIDATOR_FILE} is the document schema compiled (run npm run schemas when this fails)`, () => {
    const committed = readFileSync(join(root, VALIDATOR_FILE), 'utf8');
    expect(committed).toBe(validatorText(generated.document));
  });

  test('every schema is draft 2020-12 with its own $id', () => {
    const ids = Object.values(generated).map((s) => s.$id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const s of Object.values(generated)) {
      expect(s.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(String(s.$id)).toMatch(
        /^https:\/\/importkit\.dev\/schemas\/[a-z0-9-]+\.schema\.json$/,
      );
    }
  });

  test('the document schema lists every config key and url', () => {
    const props = Object.keys(generated.document.properties as object);
    expect(props.sort()).toEqual(
      ['url', ...CONFIG_KIND_NAMES.map((k) => CONFIG_KINDS[k].key)].sort(),
    );
  });

  test("a kind's title read from the document schema is its own schema's title", () => {
    const titles = (kind: ConfigKind) => [configTitle(kind), committedSchema(kind).title];
    expect(CONFIG_KIND_NAMES.map(titles)).toEqual(
      CONFIG_KIND_NAMES.map((k) => [committedSchema(k).title, committedSchema(k).title]),
    );
    expect(configTitle('csv')).toBe('CsvConfig');
  });
});

/** A kind's published schema compiled here: only the document validator is compiled ahead. */
function kindValidator(kind: SchemaName) {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  ajv.addFormat('date-time', true);
  return ajv.compile(committedSchema(kind));
}

/** Every place in a value: [path tokens, value]. */
function places(v: unknown, path: string[] = []): Array<[string[], unknown]> {
  const out: Array<[string[], unknown]> = [[path, v]];
  if (Array.isArray(v)) {
    v.forEach((x, i) => {
      out.push(...places(x, [...path, String(i)]));
    });
  } else if (typeof v === 'object' && v !== null)
    for (const [k, x] of Object.entries(v)) out.push(...places(x, [...path, k]));
  return out;
}

function setAt(
  root: unknown,
  path: string[],
  f: (parent: Record<string, unknown> | unknown[], key: string) => void,
) {
  let node = root as Record<string, unknown>;
  for (const t of path.slice(0, -1)) node = node[t] as Record<string, unknown>;
  f(node, path[path.length - 1] as string);
}

const ENUM_NAMES = new Set(Object.values(ENUMS).flatMap((e) => e.values));

type Mutation = 'rename' | 'wrong-type' | 'enum';

/** Applies one mutation at one place of a copy of the document. */
function mutate(
  doc: unknown,
  kind: Mutation,
  pick: number,
): { doc: unknown; at: string[] } | undefined {
  const copy = structuredClone(doc);
  const all = places(copy).filter(([p]) => p.length > 0);
  const candidates = all.filter(([p, v]) => {
    if (kind === 'enum') return typeof v === 'string' && ENUM_NAMES.has(v);
    if (kind === 'rename') {
      // Keys of objects that are not records (record keys are free-form).
      const parent = p[p.length - 2];
      return (
        !Array.isArray(v) &&
        !['dataColumns', 'fileConfigs'].includes(parent ?? '') &&
        !/^\d+$/.test(p[p.length - 1] ?? '')
      );
    }
    return true;
  });
  if (candidates.length === 0) return undefined;
  const [at, value] = candidates[pick % candidates.length] as [string[], unknown];
  setAt(copy, at, (parent, key) => {
    const p = parent as Record<string, unknown>;
    if (kind === 'rename') {
      const v = p[key];
      delete p[key];
      p[`${key}X`] = v;
    } else if (kind === 'enum') {
      p[key] = `${String(value)}_NOPE`;
    } else {
      p[key] =
        typeof value === 'string'
          ? 42
          : typeof value === 'number'
            ? 'x'
            : typeof value === 'boolean'
              ? 'true'
              : Array.isArray(value)
                ? {}
                : [];
    }
  });
  return { doc: copy, at };
}

describe('zod and ajv agree', () => {
  test('on valid documents of every kind', () => {
    const ajv = shapeValidator();
    fc.assert(
      fc.property(arbDocument, (doc) => {
        expect(ImportDocument.safeParse(doc).success).toBe(true);
        expect(ajv(doc)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  test('each kind schema accepts that kind’s configs', () => {
    for (const kind of CONFIG_KIND_NAMES) {
      const ajv = kindValidator(kind);
      fc.assert(
        fc.property(arbConfigOf(kind), (config) => {
          expect(CONFIG_KINDS[kind].schema.safeParse(config).success).toBe(true);
          expect(ajv(config)).toBe(true);
        }),
        { numRuns: 30 },
      );
    }
  });

  test('on mutated documents (a key renamed, a value of the wrong type, an enum value changed)', () => {
    const ajv = shapeValidator();
    fc.assert(
      fc.property(
        arbDocument,
        fc.constantFrom<Mutation>('rename', 'wrong-type', 'enum'),
        fc.nat(),
        (doc, kind, pick) => {
          const m = mutate(doc, kind, pick);
          if (!m) return;
          const z = ImportDocument.safeParse(m.doc);
          const a = ajv(m.doc);
          expect(a).toBe(z.success);
          expect(a).toBe(false);
          // Both point at the mutated place or above it.
          const at = pointer(...m.at);
          const near = (p: string) => at.startsWith(p) || p.startsWith(at.replace(/\/[^/]*$/, ''));
          expect(ajv.errors?.some((e) => near(e.instancePath))).toBe(true);
          expect(z.error?.issues.some((i) => near(pointer(...i.path.map(String))))).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });
});
