import { CONFIG_KINDS, type ConfigKind, type ImportDocument } from '../model/index.js';
import { issue } from '../model/plain.js';
import { notFoundHint, validateConfig } from '../validate/index.js';
import { type AbsoluteTimeFormatName, type RelativeTimeFormatName, timeFormat } from './_names.js';
import { ConfigBuildError } from './error.js';

/** A 64-bit integer as the caller has it: a bigint, a safe integer number or a decimal string. */
export type Int64Input = bigint | number | string;

/** A point in time: a `Date` or an RFC 3339 string with a zone (`2024-05-01T12:00:00Z`). */
export type TimeInput = Date | string;

/** The asset and the run an import goes to: a run by name, or an existing run by id, not both. */
export type RunInput =
  | { asset?: string; run?: string; runId?: never }
  | { asset?: string; runId: string; run?: never };

/** A time format and, for relative formats only, the time they count from. */
export type TimeSpec =
  | { format: AbsoluteTimeFormatName; start?: never }
  | { format: RelativeTimeFormatName; start: TimeInput };

export function fail(
  builder: string,
  code: 'value_out_of_range' | 'unknown_key' | 'wrong_type',
  path: string,
  message: string,
  hint?: string,
): never {
  throw new ConfigBuildError(builder, [issue(code, path, message, { hint })]);
}

/** The builder names of fields that the platform spells otherwise. */
const BUILDER_NAME: Readonly<Record<string, string>> = {
  assetName: 'asset',
  runName: 'run',
  timeColumn: 'time',
  dataColumns: 'columns',
  dataType: 'type',
  enumTypes: 'values',
  bitFieldElements: 'bits',
  channelConfig: 'channel',
  columnConfig: 'channel',
  relativeStartTime: 'start',
  flatDataset: 'flat',
};

/**
 * Refuses input keys a builder does not know: TypeScript catches them in object literals,
 * but not in objects built elsewhere or in JavaScript, and a dropped key would silently
 * change the config. `at` is the pointer of the object within the builder's input.
 */
export function knownKeys(builder: string, input: unknown, keys: readonly string[], at = ''): void {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    fail(builder, 'wrong_type', at, `${builder} takes an object${at ? ` at ${at}` : ''}`);
  }
  for (const key of Object.keys(input)) {
    if (keys.includes(key)) continue;
    const near = keys.includes(BUILDER_NAME[key] ?? '') ? BUILDER_NAME[key] : undefined;
    fail(
      builder,
      'unknown_key',
      `${at}/${key}`,
      `${builder} does not take \`${key}\``,
      notFoundHint(key, keys, 'It takes', near, { quote: (k) => `\`${k}\`` }),
    );
  }
}

export const RUN_KEYS = ['asset', 'run', 'runId'] as const;
export const TIME_KEYS = ['format', 'start'] as const;

/**
 * A 64-bit integer written as the platform wants it: a decimal string. Numbers past 2^53
 * are refused (they have already lost precision); other numbers that are not integers go
 * through unchanged so validation reports them.
 */
export function int64(builder: string, path: string, value: Int64Input): string {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') return value;
  if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
    fail(
      builder,
      'value_out_of_range',
      path,
      `${value} is past 2^53, where JavaScript numbers lose precision; pass a bigint or a decimal string`,
    );
  }
  return Number.isInteger(value) ? String(value) : (value as unknown as string);
}

export function timestamp(value: TimeInput): string {
  if (typeof value === 'string') return value;
  return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
}

/** Sets `key` on `out` only when `value` is given (exactOptionalPropertyTypes friendly). */
export function put<T extends object, K extends keyof T>(out: T, key: K, value: T[K] | undefined) {
  if (value !== undefined) out[key] = value;
}

export function runFields(input: {
  asset?: string | undefined;
  run?: string | undefined;
  runId?: string | undefined;
}): { assetName?: string; runName?: string; runId?: string } {
  const out: { assetName?: string; runName?: string; runId?: string } = {};
  put(out, 'assetName', input.asset);
  put(out, 'runName', input.run);
  put(out, 'runId', input.runId);
  return out;
}

export function timeFields(time: TimeSpec): {
  format: ReturnType<typeof timeFormat>;
  relativeStartTime?: string;
} {
  const out: { format: ReturnType<typeof timeFormat>; relativeStartTime?: string } = {
    format: timeFormat(time.format),
  };
  if (time.start !== undefined) out.relativeStartTime = timestamp(time.start);
  return out;
}

/**
 * Validates a built document and returns its canonical form; throws ConfigBuildError
 * with the validation issues when it has an error.
 */
export function finish<D extends ImportDocument>(kind: ConfigKind | 'url', doc: D): D {
  const builder = kind === 'url' ? 'fromUrl()' : `${CONFIG_KINDS[kind].key}()`;
  const result = validateConfig(doc);
  if (!result.ok) throw new ConfigBuildError(builder, result.issues);
  return (result.value ?? doc) as D;
}
