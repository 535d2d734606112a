import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import addFormatsNs from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Output } from '../../src/cli/io.js';
import { escapeData, escapeProperty, githubReporter } from '../../src/cli/reporters/github.js';
import { junitReporter } from '../../src/cli/reporters/junit.js';
import { sarifReporter } from '../../src/cli/reporters/sarif.js';
import type {
  FileReport,
  ReporterFactory,
  ReporterOptions,
} from '../../src/cli/reporters/types.js';
import { summarize } from '../../src/cli/reporters/types.js';
import type { Issue } from '../../src/model/issue.js';

const addFormats = addFormatsNs.default;
const here = dirname(fileURLToPath(import.meta.url));

/**
 * The SARIF 2.1.0 schema as published by the SARIF SDK (`sarif-2.1.0-rtm.5.json`, the
 * final 2.1.0 schema, vendored in test/data). It is written in JSON Schema draft-04; it
 * uses no keyword whose meaning changed after draft-04 (no boolean exclusiveMinimum), so
 * it compiles in ajv's draft-07 mode once `id` is read as `$id`.
 */
function sarifValidator() {
  const schema = JSON.parse(
    readFileSync(join(here, '..', 'data', 'sarif-schema-2.1.0.json'), 'utf8'),
  ) as Record<string, unknown>;
  const { $schema: _draft, id, ...rest } = schema;
  const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
  addFormats(ajv);
  return ajv.compile({ ...rest, $id: id as string });
}

function render(factory: ReporterFactory, reports: FileReport[], options: ReporterOptions = {}) {
  let text = '';
  const out: Output = {
    write: (s) => {
      text += s;
    },
  };
  const reporter = factory(out, options);
  for (const r of reports) reporter.write(r);
  reporter.end(summarize(reports));
  return text;
}

const configIssue: Issue = {
  code: 'unknown_key',
  severity: 'error',
  path: '/csvConfig/timeColum',
  message: "unknown key 'timeColum'",
  hint: "did you mean 'timeColumn'?",
  line: 4,
  column: 3,
};
const dataIssue: Issue = {
  code: 'value_type_mismatch',
  severity: 'warning',
  path: '/csvConfig/dataColumns/3',
  message: 'values do not fit INT_32: 3.5 (and 2 more)',
  line: 9,
  column: 5,
  source: { file: 'data/run 1.csv', row: 12, line: 13, column: 3 },
};
const infoIssue: Issue = {
  code: 'column_not_in_config',
  severity: 'info',
  path: '/csvConfig/dataColumns',
  message: 'column 7 (extra) is in the file but not in the config',
  source: { file: 'data/run 1.csv', column: 7 },
};
const nasty: Issue = {
  code: 'wrong_type',
  severity: 'error',
  path: '/csvConfig/assetName',
  message: 'bad: 100% "wrong" <tag> & a, b\r\nnext line \u0001',
};

const reports: FileReport[] = [
  { file: 'configs/good.yaml', valid: true, issues: [] },
  { file: 'configs/bad.yaml', valid: false, issues: [configIssue, dataIssue, infoIssue] },
  { file: 'configs/odd, name: x%.yaml', valid: false, issues: [nasty] },
];

describe('github reporter', () => {
  const ANNOTATION =
    /^::(error|warning|notice) file=[^,:]+(,line=\d+)?(,col=\d+)?,title=[^,:]+::[^\r\n]*$/;

  test('one workflow command per shown issue, in the documented syntax', () => {
    const lines = render(githubReporter, reports).trimEnd().split('\n');
    const commands = lines.filter((l) => l.startsWith('::'));
    expect(commands).toEqual([
      "::error file=configs/bad.yaml,line=4,col=3,title=unknown_key::unknown key 'timeColum'%0Ahint: did you mean 'timeColumn'?",
      '::warning file=configs/bad.yaml,line=9,col=5,title=value_type_mismatch::values do not fit INT_32: 3.5 (and 2 more)',
      // The message's own CR, LF and control characters are shown as escapes (printable).
      '::error file=configs/odd%2C name%3A x%25.yaml,title=wrong_type::bad: 100%25 "wrong" <tag> & a, b\\r\\nnext line \\x01',
    ]);
    for (const c of commands) expect(c).toMatch(ANNOTATION);
    expect(lines.at(-1)).toBe('3 files: 1 valid, 2 invalid (2 errors, 1 warning)');
  });

  test('--quiet shows errors only; --verbose adds info as notices', () => {
    const quiet = render(githubReporter, reports, { quiet: true });
    expect(quiet).not.toContain('::warning');
    expect(quiet.match(/^::error/gm)).toHaveLength(2);
    const verbose = render(githubReporter, reports, { verbose: true });
    expect(verbose).toContain(
      '::notice file=configs/bad.yaml,title=column_not_in_config::column 7 (extra) is in the file but not in the config',
    );
  });

  test('escaping round-trips through the runner’s decoding for any text', () => {
    const decode = (s: string) =>
      s
        .replace(/%0D/g, '\r')
        .replace(/%0A/g, '\n')
        .replace(/%3A/g, ':')
        .replace(/%2C/g, ',')
        .replace(/%25/g, '%');
    fc.assert(
      fc.property(fc.string(), (s) => {
        const data = escapeData(s);
        expect(data).not.toMatch(/[\r\n]/);
        const prop = escapeProperty(s);
        expect(prop).not.toMatch(/[\r\n,:]/);
        expect(decode(prop)).toBe(s);
      }),
    );
  });
});

describe('sarif reporter', () => {
  const validate = sarifValidator();

  test('the log validates against the SARIF 2.1.0 schema', () => {
    const log = JSON.parse(render(sarifReporter, reports, { command: 'check', verbose: true }));
    const ok = validate(log);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  test('results carry rule, level, location and pointer', () => {
    const log = JSON.parse(render(sarifReporter, reports, { command: 'lint' }));
    const run = log.runs[0];
    expect(log.version).toBe('2.1.0');
    expect(run.tool.driver.rules.map((r: { id: string }) => r.id)).toEqual([
      'unknown_key',
      'value_type_mismatch',
      'wrong_type',
    ]);
    expect(run.results).toHaveLength(3);
    expect(run.results[0]).toEqual({
      ruleId: 'unknown_key',
      ruleIndex: 0,
      level: 'error',
      message: { text: "unknown key 'timeColum' Hint: did you mean 'timeColumn'?" },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: 'configs/bad.yaml' },
            region: { startLine: 4, startColumn: 3 },
          },
          logicalLocations: [{ fullyQualifiedName: '/csvConfig/timeColum', kind: 'member' }],
        },
      ],
    });
    expect(run.results[2].locations[0].physicalLocation.artifactLocation.uri).toBe(
      'configs/odd%2C%20name%3A%20x%25.yaml',
    );
  });

  test('any issue text still gives a valid log', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string({ minLength: 1 }),
        fc.option(fc.nat({ max: 10_000 }), { nil: undefined }),
        (message, file, line) => {
          const issue: Issue = { code: 'wrong_type', severity: 'warning', path: '', message };
          if (line !== undefined) issue.line = line + 1;
          const log = JSON.parse(render(sarifReporter, [{ file, valid: true, issues: [issue] }]));
          expect(validate(log)).toBe(true);
        },
      ),
      { numRuns: 50 },
    );
  });
});

/**
 * A small XML well-formedness check (no XML package is a dependency): one root element,
 * tags nest and close in order, attributes quoted, only the five predefined entities and
 * character references, no raw `<` or `&` in text, no characters XML 1.0 forbids.
 */
function wellFormed(xml: string): { ok: true; root: string } | { ok: false; why: string } {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: checking for forbidden characters
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(xml)) return { ok: false, why: 'control' };
  let s = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  let root: string | undefined;
  const entity = /&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/y;
  while (s.length > 0) {
    const lt = s.indexOf('<');
    const textPart = lt === -1 ? s : s.slice(0, lt);
    for (let i = textPart.indexOf('&'); i !== -1; i = textPart.indexOf('&', i + 1)) {
      entity.lastIndex = i;
      if (!entity.test(textPart)) return { ok: false, why: `bad entity at ${i}` };
    }
    if (textPart.includes('>')) return { ok: false, why: 'raw >' };
    if (stack.length === 0 && textPart.trim() !== '')
      return { ok: false, why: 'text outside root' };
    if (lt === -1) break;
    s = s.slice(lt);
    const tag = /^<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>/.exec(s);
    if (!tag) return { ok: false, why: `bad tag near ${s.slice(0, 40)}` };
    const [whole, close, name, attrs, selfClose] = tag;
    for (const m of (attrs ?? '').matchAll(/="([^"]*)"/g)) {
      const v = m[1] ?? '';
      for (let i = v.indexOf('&'); i !== -1; i = v.indexOf('&', i + 1)) {
        entity.lastIndex = i;
        if (!entity.test(v)) return { ok: false, why: 'bad entity in attribute' };
      }
    }
    if (close) {
      if (stack.pop() !== name) return { ok: false, why: `unbalanced </${name}>` };
    } else {
      if (stack.length === 0) {
        if (root !== undefined) return { ok: false, why: 'two roots' };
        root = name;
      }
      if (!selfClose) stack.push(name as string);
    }
    s = s.slice(whole.length);
  }
  if (stack.length > 0 || root === undefined) return { ok: false, why: 'unclosed' };
  return { ok: true, root };
}

describe('junit reporter', () => {
  test('the well-formedness check itself rejects broken XML', () => {
    expect(wellFormed('<a><b></a></b>').ok).toBe(false);
    expect(wellFormed('<a>x & y</a>').ok).toBe(false);
    expect(wellFormed('<a x="1"><b/></a>')).toEqual({ ok: true, root: 'a' });
  });

  test('output is well-formed XML with one testcase per file and a failure per invalid file', () => {
    const xml = render(junitReporter, reports, { command: 'check' });
    expect(wellFormed(xml)).toEqual({ ok: true, root: 'testsuites' });
    expect(xml.match(/<testcase /g)).toHaveLength(3);
    expect(xml.match(/<failure /g)).toHaveLength(2);
    expect(xml).toContain('<testsuites name="importkit check" tests="3" failures="2" errors="0">');
    expect(xml).toContain(
      '<failure message="unknown_key: unknown key \'timeColum\'" type="unknown_key">configs/bad.yaml:4:3 error unknown_key',
    );
    expect(xml).toContain(
      'message="wrong_type: bad: 100% &quot;wrong&quot; &lt;tag&gt; &amp; a, b\\r\\nnext line \\x01"',
    );
  });

  test('any issue text and file name stay well-formed', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.boolean(), (message, file, valid) => {
        const xml = render(junitReporter, [
          {
            file,
            valid,
            issues: [{ code: 'wrong_type', severity: 'error', path: '', message }],
          },
        ]);
        expect(wellFormed(xml)).toEqual({ ok: true, root: 'testsuites' });
      }),
      { numRuns: 100 },
    );
  });
});
