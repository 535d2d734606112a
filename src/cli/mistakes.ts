/**
 * The command line's answers to common mistakes: an unknown flag gets the nearest known
 * one, a secret or address given as a flag gets its environment variable, a data file
 * where a config is expected (or the other way round) and a URL where a local file is
 * expected get what was given, what was expected and the command to run instead.
 */
import { suggestClosest as closest, didYouMean } from '../validate/index.js';
import { UsageError } from './errors.js';

/** Flags people reach for (without dashes) that are environment variables here. */
const ENVIRONMENT_FLAGS: Record<string, string> = {
  apikey: 'IMPORTKIT_API_KEY',
  key: 'IMPORTKIT_API_KEY',
  token: 'IMPORTKIT_API_KEY',
  baseurl: 'IMPORTKIT_BASE_URL',
  host: 'IMPORTKIT_BASE_URL',
  server: 'IMPORTKIT_BASE_URL',
  endpoint: 'IMPORTKIT_BASE_URL',
};

/** `--timeColumn`, `--time_column`, `--TIME-COLUMN` → `time-column`. */
function kebab(flag: string): string {
  return flag
    .replace(/^-+/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/_/g, '-')
    .toLowerCase();
}

/**
 * The known flag an unknown one most likely meant: the same words in another case or
 * separator, else the only flag it is the start of, else the nearest by edit distance
 * (at most 2 edits, or a third of its length).
 */
export function nearestFlag(given: string, known: readonly string[]): string | undefined {
  const name = kebab(given);
  if (name === '') return undefined;
  const exact = known.find((k) => k === name);
  if (exact) return exact;
  const prefixed = known.filter((k) => k.startsWith(name));
  if (prefixed.length === 1) return prefixed[0];
  // Flags are short: allow two edits even for a name of five letters.
  return closest(name, known, Math.max(2, Math.floor(name.length / 3)));
}

/** An unknown flag: a usage error that also carries the flags the command knows. */
export class UnknownFlagError extends UsageError {
  /** The command's flags, without dashes (`reporter`, `r`). */
  readonly known: readonly string[];
  constructor(message: string, hint: string | undefined, known: readonly string[]) {
    super(message, hint);
    this.known = known;
  }
}

/** The usage error for an unknown flag, with the nearest known one or its variable. */
export function unknownFlagError(given: string, known: readonly string[]): UnknownFlagError {
  const name = kebab(given);
  const variable = ENVIRONMENT_FLAGS[name.replace(/-/g, '')];
  if (variable && !known.includes(name)) {
    const what = variable === 'IMPORTKIT_API_KEY' ? 'the API key' : 'the service’s address';
    return new UnknownFlagError(
      `unknown option '${given}': ${what} is never given on the command line`,
      `set ${variable} in the environment (export ${variable}=...) and run the command again`,
      known,
    );
  }
  const near = nearestFlag(given, known);
  const flag = (k: string) => (k.length === 1 ? `-${k}` : `--${k}`);
  return new UnknownFlagError(
    `unknown option '${given}'`,
    near ? didYouMean(near, flag) : undefined,
    known,
  );
}

/** True for a name a config file has (`.yaml`, `.yml`, `.json`). */
export function isConfigName(path: string): boolean {
  return /\.(ya?ml|json)$/i.test(path);
}

/** True for an address rather than a path (`https://...`, `s3://...`). */
export function isUrl(arg: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(arg);
}

/**
 * Refuses a config argument that is a URL or a data file, with the usage line (`importkit
 * <command> <config> <data-file>`) and, when the data-file argument `other` is named like a
 * config (the two swapped), the command as it should read.
 */
export async function checkConfigArgument(
  arg: string,
  usage: string,
  other?: string,
): Promise<void> {
  if (isUrl(arg)) {
    throw new UsageError(`${arg} is a URL; a config is a local file`, `usage: ${usage}`);
  }
  // The format table, only for a name that is not a config's: a cold `lint` of a config
  // then loads 77 modules, not 84 (25 alternated runs, twice: 277 and 287 ms on average,
  // against 285 and 293 ms).
  if (isConfigName(arg)) return;
  const { formatOfName } = await import('../formats/index.js');
  const format = formatOfName(arg)?.title;
  if (format) {
    throw new UsageError(
      `${arg} looks like a ${format} data file, not a config (YAML or JSON)`,
      other !== undefined && isConfigName(other)
        ? `usage: ${usage}; with the arguments swapped: ${usage.replace('<config>', other).replace('<data-file>', arg)}`
        : `usage: ${usage}`,
    );
  }
}

/**
 * Refuses a data-file argument that is a URL or a config file: `submit` takes a URL with
 * `--url`; the other commands read local files only.
 */
export function checkDataArgument(arg: string, command: string, usage: string): void {
  if (isUrl(arg)) {
    throw new UsageError(
      `${arg} is a URL, not a local file`,
      command === 'submit'
        ? 'the service fetches a URL itself: importkit submit <config> --url URL'
        : `${command} reads local files only: download the file, then run importkit ${command} on it`,
    );
  }
  if (isConfigName(arg)) {
    throw new UsageError(`${arg} looks like a config, not a data file`, `usage: ${usage}`);
  }
}
