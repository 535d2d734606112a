import { UsageError } from '../errors.js';
import type { ReporterFactory } from './types.js';

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
