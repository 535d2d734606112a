import { describe, expect, test } from 'vitest';
import { issueWithFlags, withFlags } from '../../src/cli/option-flags.js';

describe('option names become the command’s flags', () => {
  test('an option the command has a flag for is shown as the flag', () => {
    expect(withFlags('Set the `timeColumn` and `timeFormat` options.', 'infer')).toBe(
      'Set the --time-column and --time-format options.',
    );
    expect(withFlags('(the `defaults: false` option keeps every config whole)', 'infer')).toBe(
      '(the --no-defaults option keeps every config whole)',
    );
  });

  test('an option the command has no flag for, and other code spans, stay as written', () => {
    expect(withFlags('Set the `timeFormat` option; see `importkit inspect`.', 'check')).toBe(
      'Set the `timeFormat` option; see `importkit inspect`.',
    );
    expect(withFlags('Set the `full` option.', 'check')).toBe('Set the --full option.');
  });

  test('an issue keeps its code and severity; message and hint are shown with flags', () => {
    const shown = issueWithFlags(
      {
        code: 'csv_delimiter_uncertain',
        severity: 'warning',
        path: '',
        message: 'several delimiters fit',
        hint: 'Set the `delimiter` option to say which one the file uses.',
      },
      'inspect',
    );
    expect(shown).toEqual({
      code: 'csv_delimiter_uncertain',
      severity: 'warning',
      path: '',
      message: 'several delimiters fit',
      hint: 'Set the --delimiter option to say which one the file uses.',
    });
  });
});

test('no message or hint of the stages names a command-line flag', async () => {
  const { readdirSync, readFileSync, statSync } = await import('node:fs');
  const { join } = await import('node:path');
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts') && !p.includes('/generated/')) {
        readFileSync(p, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (/^\s*(\*|\/\/|\/\*)/.test(line)) return;
            if (
              /['"`][^'"`]*--(time-|relative-start|layout|complex-types|header-row|delimiter|full\b|asset\b|run\b|no-defaults)/.test(
                line,
              )
            )
              found.push(`${p}:${i + 1}`);
          });
      }
    }
  };
  for (const stage of ['src/infer', 'src/inspect', 'src/check', 'src/validate', 'src/build'])
    walk(stage);
  expect(found).toEqual([]);
});
