import {
  BATCH_FILE_KINDS,
  CHANNEL_PLACES,
  CONFIG_KIND_KEYS,
  CONFIG_KIND_NAMES,
  type ConfigKind,
  escapePointerToken,
  type Issue,
  BATCH_DEFAULT_KEYS as MODEL_BATCH_DEFAULT_KEYS,
} from '../../model/plain.js';
import { closest } from '../suggest.js';

/** A semantic rule: the (normalised) document in, its issues out. Rules never throw. */
export type Rule = (document: Record<string, unknown>) => Issue[];

/** One config inside a document: at the top, or a batch's default or per-file config. */
export interface ConfigAt {
  kind: ConfigKind;
  config: Record<string, unknown>;
  path: string;
  /** Set for configs inside a batch: `default` (defaultCsvConfig ...) or `file` (fileConfigs). */
  inBatch?: 'default' | 'file';
  /** The batch config a nested config belongs to. */
  batch?: Record<string, unknown>;
}

export function obj(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}

export function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** A string that is set (present and not empty). */
export function given(v: unknown): v is string {
  return typeof v === 'string' && v !== '';
}

export function join(path: string, ...tokens: Array<string | number>): string {
  return path + tokens.map((t) => `/${escapePointerToken(t)}`).join('');
}

/** Each config kind's default field in a batch (none for CH10 and batch). */
export const BATCH_DEFAULT_KEYS: Readonly<Partial<Record<ConfigKind, string>>> =
  MODEL_BATCH_DEFAULT_KEYS;

/** The configs of the document the rules are running on (withConfigsListed). */
let listed: { doc: Record<string, unknown>; configs: readonly ConfigAt[] } | undefined;

/**
 * Runs `rules` on `doc` with its configs listed once: each rule asks for them, and a batch of
 * 10,000 files listed its 10,000 configs once a rule (a fifth of a `lint` of its config).
 * The rules are synchronous and do not change the document, so the list holds throughout.
 */
export function withConfigsListed<T>(doc: Record<string, unknown>, rules: () => T): T {
  const outer = listed;
  listed = { doc, configs: listConfigs(doc) };
  try {
    return rules();
  } finally {
    listed = outer;
  }
}

/** Every config of the document: the top-level ones and those nested in a batch. */
export function configsOf(doc: Record<string, unknown>): readonly ConfigAt[] {
  return listed?.doc === doc ? listed.configs : listConfigs(doc);
}

function listConfigs(doc: Record<string, unknown>): ConfigAt[] {
  const out: ConfigAt[] = [];
  for (const kind of CONFIG_KIND_NAMES) {
    const key = CONFIG_KIND_KEYS[kind];
    const config = obj(doc[key]);
    if (!config) continue;
    out.push({ kind, config, path: join('', key) });
    if (kind !== 'batch') continue;
    for (const k of BATCH_FILE_KINDS) {
      const dkey = MODEL_BATCH_DEFAULT_KEYS[k];
      const d = obj(config[dkey]);
      if (d)
        out.push({
          kind: k,
          config: d,
          path: join('', key, dkey),
          inBatch: 'default',
          batch: config,
        });
    }
    const files = obj(config.fileConfigs) ?? {};
    for (const [name, entry] of Object.entries(files)) {
      const e = obj(entry);
      if (!e) continue;
      for (const k of BATCH_FILE_KINDS) {
        const ckey = CONFIG_KIND_KEYS[k];
        const c = obj(e[ckey]);
        if (c) {
          out.push({
            kind: k,
            config: c,
            path: join('', key, 'fileConfigs', name, ckey),
            inBatch: 'file',
            batch: config,
          });
        }
      }
    }
  }
  return out;
}

export interface ChannelAt {
  channel: Record<string, unknown>;
  path: string;
}

/** Every channel config of one config, with its pointer, at the places its kind holds them. */
export function channelsOf(c: ConfigAt): ChannelAt[] {
  const out: ChannelAt[] = [];
  const walk = (v: unknown, place: readonly string[], path: string): void => {
    const [step, ...rest] = place;
    if (step === undefined) {
      const channel = obj(v);
      if (channel) out.push({ channel, path });
    } else if (step === '*') {
      for (const [k, e] of Object.entries(obj(v) ?? {})) walk(e, rest, join(path, k));
    } else if (step === '#') {
      list(v).forEach((e, i) => {
        walk(e, rest, join(path, i));
      });
    } else {
      walk(obj(v)?.[step], rest, join(path, step));
    }
  };
  for (const place of CHANNEL_PLACES[c.kind]) walk(c.config, place, c.path);
  return out;
}

/**
 * Whether `holder` lacks `key` but has a near miss of it (`timeColum`): the shape check
 * already reports that as unknown_key with the right name, so rules about the missing key
 * stay quiet rather than report the same mistake twice.
 */
export function misspelt(holder: Record<string, unknown>, key: string): boolean {
  return Object.keys(holder).some((k) => k !== key && closest(k, [key]) === key);
}

/** The channel configs a config of `kind` declares, in order (for callers outside validate). */
export function configChannels(kind: ConfigKind, config: Record<string, unknown>): unknown[] {
  return channelsOf({ kind, config, path: '' }).map((c) => c.channel);
}
