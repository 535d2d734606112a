import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkConfig } from '../../src/check/index.js';
import { formatConfigText } from '../../src/fmt/index.js';
import type { ImportDocument } from '../../src/model/document.js';
import { validateConfig } from '../../src/validate/index.js';
import { repoRoot } from '../helpers/paths.js';

/** Every inspector fixture whose expected draft is a document (error fixtures have none). */
function drafts(
  area: string,
): Array<{ name: string; file: string; document: ImportDocument; flagged: boolean }> {
  const dir = join(repoRoot, 'fixtures', area);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.expected.json'))
    .sort()
    .flatMap((f) => {
      const expected = JSON.parse(readFileSync(join(dir, f), 'utf8')) as {
        file?: string;
        document?: ImportDocument;
        issues?: Array<{ severity: string }>;
      };
      const name = f.replace('.expected.json', '');
      const file =
        expected.file ??
        readdirSync(dir).find((x) => x.startsWith(`${name}.`) && !x.endsWith('.json'));
      if (!expected.document || !file) return [];
      const flagged = (expected.issues ?? []).some((i) => i.severity === 'error');
      return [
        { name: `${area}/${name}`, file: join(dir, file), document: expected.document, flagged },
      ];
    });
}

const AREAS = { csv: 47, parquet: 11, hdf5: 10 } as const;

/** What `importkit check` says on a draft: whether the config validates, and the file's errors. */
interface Verdict {
  valid: boolean;
  sampled: string[];
  full: string[];
}

const FITS: Verdict = { valid: true, sampled: [], full: [] };

/**
 * The drafts inference itself flags as wrong, and what the check says on each. A draft that
 * names no time column, a split date and time, AM/PM or zone-named times, or a relative time
 * without its start, is invalid as a config; dates the platform cannot read, decimal commas,
 * thousands separators, stray text, empty time cells and a header without rows fail the file
 * check, sampled or full.
 */
const FLAGGED: Record<string, Verdict> = {
  'csv/dates-ambiguous': {
    valid: true,
    sampled: ['time_not_parseable'],
    full: ['time_not_parseable'],
  },
  'csv/dates-day-first': {
    valid: true,
    sampled: ['time_not_parseable'],
    full: ['time_not_parseable'],
  },
  'csv/date-time-split': { valid: false, sampled: [], full: [] },
  'csv/decimal-comma': {
    valid: true,
    sampled: ['value_type_mismatch'],
    full: ['value_type_mismatch'],
  },
  'csv/header-only': {
    valid: false,
    sampled: ['csv_no_data_rows'],
    full: ['csv_no_data_rows'],
  },
  'csv/no-time': { valid: false, sampled: [], full: [] },
  'csv/one-column': { valid: false, sampled: [], full: [] },
  'csv/relative-ms-no-start': { valid: false, sampled: [], full: [] },
  'csv/stray-text': {
    valid: true,
    sampled: ['value_type_mismatch'],
    full: ['value_type_mismatch'],
  },
  'csv/thousands-separators': {
    valid: true,
    sampled: ['value_type_mismatch'],
    full: ['value_type_mismatch'],
  },
  'csv/time-ampm': { valid: false, sampled: [], full: [] },
  'csv/time-empty-cells': { valid: true, sampled: ['csv_time_empty'], full: ['csv_time_empty'] },
  'csv/time-zone-name': { valid: false, sampled: [], full: [] },
  'parquet/no-time': { valid: false, sampled: [], full: [] },
  'hdf5/no-channels': { valid: false, sampled: [], full: [] },
};

/**
 * The inspectors' fixtures come with the draft inference makes for them. A draft that
 * inference found no error in fits its file (valid, no check error sampled or full); each
 * draft inference flags as wrong gets the verdict pinned above: the two stages agree.
 */
describe('check agrees with inference on every inspector fixture', () => {
  const all = Object.keys(AREAS).flatMap((area) => drafts(area));

  test('each area has its number of drafts, and every flagged one is among them', () => {
    for (const [area, count] of Object.entries(AREAS)) {
      expect(
        all.filter((d) => d.name.startsWith(`${area}/`)),
        area,
      ).toHaveLength(count);
    }
    // The drafts inference flags are exactly those pinned, and each fails the check.
    expect(
      all
        .filter((d) => d.flagged)
        .map((d) => d.name)
        .sort(),
    ).toEqual(Object.keys(FLAGGED).sort());
    for (const [name, v] of Object.entries(FLAGGED)) {
      expect(!v.valid || v.sampled.length > 0, name).toBe(true);
    }
  });

  test.each(all)('$name', async (d) => {
    const errors = async (full: boolean) =>
      (await checkConfig(d.document, d.file, { full }))
        .filter((i) => i.severity === 'error')
        .map((i) => i.code);
    const verdict: Verdict = {
      valid: validateConfig(d.document).ok,
      sampled: await errors(false),
      full: await errors(true),
    };
    expect(verdict).toEqual(FLAGGED[d.name] ?? FITS);
  });
});

describe('the preview fixtures', () => {
  test('their configs are in the canonical form `importkit fmt` writes', () => {
    const dir = join(repoRoot, 'fixtures', 'preview');
    const configs = readdirSync(dir).filter((f) => f.endsWith('.yaml'));
    expect(configs.length).toBeGreaterThanOrEqual(6);
    for (const f of configs) {
      const text = readFileSync(join(dir, f), 'utf8');
      expect(formatConfigText(text, { filename: f }).text, f).toBe(text);
    }
  });
});
