/**
 * Checks a UlogConfig against its ULog file. The structure first, from the file's
 * definitions and subscriptions (the walk `inspectUlog` does): every message, instance and
 * field a data entry names is logged (with "did you mean"), declared channel types fit the
 * field types, log-message channels have logged text, info keys and parameters exist, the
 * log can be placed in time (GPS or `relativeStartTime`), and damage the walk found fails
 * the import unless the parse-error policy ignores it. Then the values of what the config
 * names (check-values.ts): sampled, the head, three slices and the tail of the data section
 * and the head of each appended part; with `full`, every message.
 */

import { fitOf } from '../../check/shared.js';
import { type ByteSource, wholeFileOf } from '../../inspect/shared.js';
import type { UlogConfig, UlogDataEntry } from '../../model/index.js';
import { type Issue, issue, pointer } from '../../model/plain.js';
import { suggestClosest as closest, listSome, notFoundHint } from '../../validate/index.js';
import { jobsOf, shortName, throughTurns, withoutRestatedTypeIssues } from '../../values/index.js';
import { ulogChannelTypeOf } from './channel-types.js';
import { startUlogWorkers } from './check-jobs.js';
import { planValues, readUlogValues, ulogValueIssues } from './check-values.js';
import {
  inspectUlogSource,
  type UlogProfile,
  ulogChannelMessages,
  ulogFieldLeaf,
  ulogLayouts,
} from './inspect.js';

export interface UlogCheckOptions {
  /** Decode every data message of what the config names, not the sampled ranges. */
  full?: boolean;
  onProgress?: (done: number, total: number) => void;
  key?: string;
  /** `full`: threads reading the data (default 1: this thread). */
  jobs?: number | undefined;
  /** `full` with threads: the least bytes of a range of messages (default 4 MiB). */
  rangeBytes?: number | undefined;
}

/**
 * What a config's entries are checked against: the messages that make channels with their
 * instances, and each channel found by following its name through the format (never by
 * unrolling it: a config is checked the same way however many fields the log unrolls to).
 * `fieldsOf` lists a message instance's fields for "did you mean" (from the profile, which
 * holds at most 100,000 fields).
 */
interface Index {
  instances: Map<string, number[]>;
  leaf(messageName: string, fieldName: string): string | undefined;
  fieldsOf(messageName: string, instance: number): string[];
}

/** Checks a UlogConfig against a ULog file (its path) or source (issues name the source). */
export async function checkUlog(
  config: UlogConfig,
  data: string | ByteSource,
  options: UlogCheckOptions = {},
): Promise<Issue[]> {
  const key = options.key ?? 'ulogConfig';
  const { onProgress } = options;
  // Each walk holds one window at a time (reader.ts): a file on disk is read into two
  // buffers that take turns.
  return throughTurns(data, async (source) => {
    // Workers of a read on several cores load while the file is inspected.
    const jobs = jobsOf(options.jobs);
    const early = options.full === true && jobs > 1 && wholeFileOf(source) !== undefined;
    const pool = early ? startUlogWorkers(jobs) : undefined;
    try {
      // Two passes over the file in one bar of its size: the walk its first half, the
      // values (of at most its size) the second.
      const size = source.size;
      const half = (share: number) => onProgress?.(Math.round((share * size) / 2), size);
      const walked = onProgress ? { onProgress: (done: number) => half(done / size) } : {};
      const path = wholeFileOf(source);
      const shared =
        pool && path !== undefined ? { pool, path, jobs, least: options.rangeBytes } : undefined;
      const profile = await inspectUlogSource(source, { ...walked, shared });
      const issues = structureIssues(config, profile, key, source.name);
      const layouts = ulogLayouts(profile);
      const plan = planValues(config, profile, layouts, key, ulogChannelTypeOf);
      const read = onProgress
        ? (done: number, total: number) => half(1 + done / Math.max(1, total))
        : undefined;
      await readUlogValues(source, profile, layouts, plan, {
        full: options.full === true,
        onProgress: read,
        jobs,
        rangeBytes: options.rangeBytes,
        planned: { config, key },
        pool,
      });
      for (const f of damageIssues(config, ulogValueIssues(plan, source.name), key)) issues.push(f);
      return withoutRestatedTypeIssues(issues);
    } finally {
      await pool?.close();
    }
  });
}

/** What the definitions and subscriptions say: the entries, the time, the keys, the damage. */
function structureIssues(
  config: UlogConfig,
  profile: UlogProfile,
  key: string,
  dataPath: string,
): Issue[] {
  const issues: Issue[] = [];
  const index = indexOf(profile);
  const logChannels = logChannelsOf(profile);
  for (const [i, entry] of (config.data ?? []).entries()) {
    const at = (...t: Array<string | number>) => pointer(key, 'data', i, ...t);
    const found = entryIssues(entry, index, logChannels, profile, dataPath, at);
    for (const f of found) issues.push(f);
  }
  // Appended in loops, not spread into push: the lists grow with the config and the log.
  for (const f of timeIssues(config, profile, key, dataPath)) issues.push(f);
  for (const f of keyIssues(config, profile, key, dataPath)) issues.push(f);
  for (const f of damageIssues(config, profile.issues, key)) issues.push(f);
  return issues;
}

function indexOf(profile: UlogProfile): Index {
  let listed: Map<string, string[]> | undefined;
  return {
    instances: ulogChannelMessages(profile),
    leaf: (messageName, fieldName) => ulogFieldLeaf(profile, messageName, fieldName)?.type,
    fieldsOf(messageName, instance) {
      if (!listed) {
        listed = new Map();
        for (const f of profile.fields) {
          const id = `${f.messageName}\u0000${f.instance}`;
          const list = listed.get(id) ?? [];
          list.push(f.fieldName);
          listed.set(id, list);
        }
      }
      return listed.get(`${messageName}\u0000${instance}`) ?? [];
    },
  };
}

function logChannelsOf(profile: UlogProfile): string[] {
  return [
    ...(profile.logs.untagged > 0 ? ['log_messages'] : []),
    ...profile.logs.tagged.map((t) => `log_messages_${t.tag}`),
  ];
}

/** The issues of one data entry: what it names exists, and its type fits. */
function entryIssues(
  entry: UlogDataEntry,
  index: Index,
  logChannels: readonly string[],
  profile: UlogProfile,
  file: string,
  at: (...t: Array<string | number>) => string,
): Issue[] {
  const name = entry.messageName ?? '';
  const source = { file };
  if (/^log_messages(_\d+)?$/.test(name)) {
    if (logChannels.includes(name)) return typeIssues(entry, 'char', name, file, at);
    const has = logChannels.length > 0 ? `it has ${listSome(logChannels)}` : 'it has none';
    return [
      issue(
        'ulog_message_not_in_file',
        at('messageName'),
        `${name}: the log has no such logged text; ${has}`,
        {
          source,
        },
      ),
    ];
  }
  const instances = index.instances.get(name);
  if (!instances) return [missingMessage(name, index, profile, file, at)];
  const instance = Number(entry.instance ?? '0');
  if (!instances.includes(instance)) {
    const have = instances.map(String);
    return [
      issue(
        'ulog_instance_not_in_file',
        at('instance'),
        `${name} has no instance ${entry.instance ?? '0'}; the log has instance(s) ${listSome(have)}`,
        { hint: `Use one of ${listSome(have)}.`, source },
      ),
    ];
  }
  const field = entry.fieldName ?? '';
  const type = index.leaf(name, field);
  if (type === undefined) {
    const fields = index.fieldsOf(name, instance);
    const near = field ? closest(field, fields) : undefined;
    return [
      issue(
        'ulog_field_not_in_file',
        at('fieldName'),
        field
          ? `${name} has no field '${field}'`
          : `${name}: the entry names no field (only log-message channels go without one)`,
        {
          hint: notFoundHint(field, fields, 'Its fields', near),
          source,
        },
      ),
    ];
  }
  return typeIssues(entry, type, `${name}_${instance}.${field}`, file, at);
}

function missingMessage(
  name: string,
  index: Index,
  profile: UlogProfile,
  file: string,
  at: (...t: Array<string | number>) => string,
): Issue {
  const logged = [...index.instances.keys()];
  const defined = profile.formats.some((f) => f.name === name);
  const near = closest(name, logged);
  const message = !name
    ? 'the entry names no message'
    : defined
      ? `${name} is defined in the log but never logged (no subscription): it has no data`
      : `${name} is not a message of the log`;
  return issue('ulog_message_not_in_file', at('messageName'), message, {
    hint: notFoundHint(name, logged, "The log's messages", near),
    source: { file },
  });
}

function typeIssues(
  entry: UlogDataEntry,
  ulogType: string,
  label: string,
  file: string,
  at: (...t: Array<string | number>) => string,
): Issue[] {
  const declared = entry.channelConfig?.dataType;
  if (!declared || declared === 'CHANNEL_DATA_TYPE_UNSPECIFIED') return [];
  const stored = ulogChannelTypeOf(ulogType);
  const fit = fitOf(declared, stored);
  if (fit === 'ok') return [];
  const code =
    fit === 'mismatch'
      ? 'value_type_mismatch'
      : fit === 'narrow'
        ? 'type_too_narrow'
        : 'type_too_wide';
  const verdict =
    fit === 'mismatch'
      ? 'does not fit it'
      : fit === 'narrow'
        ? 'loses precision'
        : 'is wider than it needs';
  return [
    issue(
      code,
      at('channelConfig', 'dataType'),
      `${label} is ${ulogType === 'char' ? 'text' : ulogType} (${shortName(stored)}); declared ${shortName(declared)} ${verdict}`,
      { hint: `Use dataType: ${stored}.`, source: { file } },
    ),
  ];
}

function timeIssues(config: UlogConfig, profile: UlogProfile, key: string, file: string): Issue[] {
  if (config.relativeStartTime || profile.gps) return [];
  return [
    issue(
      'ulog_start_time_missing',
      pointer(key),
      'the log has no GPS message with a UTC time and the config gives no relativeStartTime: the import fails',
      {
        hint: 'Add relativeStartTime (RFC 3339, when the vehicle booted).',
        source: { file },
      },
    ),
  ];
}

function keyIssues(config: UlogConfig, profile: UlogProfile, key: string, file: string): Issue[] {
  const info = new Set([...profile.info, ...profile.multiInfo].map((i) => i.key));
  const params = new Set([...profile.parameters, ...profile.defaultParameters].map((p) => p.name));
  for (const p of profile.changedParameters) params.add(p);
  const out: Issue[] = [];
  const check = (
    list: readonly string[] | undefined,
    have: Set<string>,
    field: string,
    what: string,
  ) => {
    for (const [i, k] of (list ?? []).entries()) {
      if (have.has(k)) continue;
      out.push(
        issue('ulog_key_not_in_file', pointer(key, field, i), `the log has no ${what} '${k}'`, {
          hint: notFoundHint(k, [...have], `The log's ${what}s`),
          source: { file },
        }),
      );
    }
  };
  check(config.infoKeys, info, 'infoKeys', 'info key');
  check(config.paramKeys, params, 'paramKeys', 'parameter');
  return out;
}

/**
 * The log's own findings, placed on the config. Damage fails an import under FAIL_ON_ERROR
 * (also what unset means): then it is `ulog_damage_fails_import`, an error, on the policy.
 */
function damageIssues(config: UlogConfig, found: readonly Issue[], key: string): Issue[] {
  const ignore = config.parseErrorPolicy === 'ULOG_PARSE_ERROR_POLICY_IGNORE_ERROR';
  return found
    .filter((i) => i.severity !== 'info')
    .map((i) =>
      i.code === 'ulog_damaged' && !ignore
        ? issue('ulog_damage_fails_import', pointer(key, 'parseErrorPolicy'), i.message, {
            hint: 'The import fails here with FAIL_ON_ERROR (the default); set parseErrorPolicy: ULOG_PARSE_ERROR_POLICY_IGNORE_ERROR to skip damaged parts.',
            source: i.source,
          })
        : i.path === ''
          ? { ...i, path: pointer(key) }
          : i,
    );
}
