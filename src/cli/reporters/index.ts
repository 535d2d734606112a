import type { Issue } from '../../model/plain.js';
/**
 * Reporters: one interface, one file per output format (text, json, github, sarif, junit).
 * `lint` and `check` write each file's issues through the one `--reporter` names.
 */
import { UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { issueWithFlags } from '../option-flags.js';
import type { Reporter, ReporterFactory } from './types.js';

export type { FileReport, Reporter, ReporterFactory, ReporterOptions, Summary } from './types.js';
export { summarize } from './types.js';

/** Every reporter by its `--reporter` name, loaded when asked for. */
const REPORTERS: Record<string, () => Promise<ReporterFactory>> = {
  text: async () => (await import('./text.js')).textReporter,
  json: async () => (await import('./json.js')).jsonReporter,
  github: async () => (await import('./github.js')).githubReporter,
  sarif: async () => (await import('./sarif.js')).sarifReporter,
  junit: async () => (await import('./junit.js')).junitReporter,
};

export const REPORTER_NAMES = Object.keys(REPORTERS);

export async function loadReporter(name: string): Promise<ReporterFactory> {
  const load = Object.hasOwn(REPORTERS, name) ? REPORTERS[name] : undefined;
  if (!load) {
    throw new UsageError(`unknown reporter '${name}' (one of ${REPORTER_NAMES.join(', ')})`);
  }
  return load();
}

/** The flags every reporting command (`lint`, `check`) takes, for `parseArgs`. */
export const REPORTER_FLAGS = {
  reporter: { type: 'string', short: 'r', default: 'text' },
  'fail-on': { type: 'string', default: 'error' },
  quiet: { type: 'boolean', short: 'q', default: false },
  verbose: { type: 'boolean', default: false },
} as const;

export type FailOn = 'error' | 'warning';

/** The `--fail-on` level, or a usage error. */
export function failOnOf(value: unknown): FailOn {
  const level = String(value);
  if (level !== 'error' && level !== 'warning') {
    throw new UsageError(`--fail-on takes error or warning, not '${level}'`);
  }
  return level;
}

/** A file is valid when none of its issues reaches the `--fail-on` level. */
export function isValid(issues: readonly Issue[], failOn: FailOn): boolean {
  return !issues.some(
    (i) => i.severity === 'error' || (failOn === 'warning' && i.severity === 'warning'),
  );
}

/** The reporter the parsed REPORTER_FLAGS ask for, writing to stdout. */
export async function openReporter(
  values: { reporter?: unknown; quiet?: unknown; verbose?: unknown },
  io: Io,
  command: string,
): Promise<Reporter> {
  const factory = await loadReporter(String(values.reporter ?? 'text'));
  const reporter = factory(io.stdout, {
    quiet: values.quiet === true,
    verbose: values.verbose === true,
    color: io.stdout.isTTY === true && !io.env.NO_COLOR,
    command,
  });
  // The stages name options; the reporter shows the command's flags for them.
  return {
    write: (report) =>
      reporter.write({ ...report, issues: report.issues.map((i) => issueWithFlags(i, command)) }),
    end: (summary) => reporter.end(summary),
  };
}
