/**
 * A ULog profile → a draft UlogConfig: one data entry per (message, instance, field) of
 * each subscribed message, named as the platform names them (`<message>_<multi_id>.<field>`,
 * arrays `field[i]`, nested types `esc[0].rpm`, text as one field), typed by the platform's
 * table; `log_messages` and `log_messages_<tag>` when the log has logged text; info keys
 * and parameters offered in the evidence; the start time from the GPS, else an error
 * asking for `relativeStartTime`; the parse-error policy's default explained.
 */
import { basename, extname } from 'node:path';
import type { Draft, Evidence, InferOptions } from '../../infer/shared.js';
import { Timestamp, type UlogConfig, type UlogDataEntry } from '../../model/index.js';
import { type Issue, issue } from '../../model/plain.js';
import { listSome } from '../../validate/index.js';
import { ulogChannelTypeOf } from './channel-types.js';
import {
  inspectUlog,
  type UlogFieldProfile,
  type UlogProfile,
  type UlogSubscription,
} from './inspect.js';

const P = '/ulogConfig';

/** Inspects a ULog file and infers its draft (not yet validated: `inferConfig` does that). */
export async function inferUlog(path: string, options: InferOptions = {}): Promise<Draft> {
  const profile = await inspectUlog(
    path,
    options.onProgress ? { onProgress: options.onProgress } : {},
  );
  return draftFromUlogProfile(profile, options);
}

/** The draft for a ULog profile: pure, for tests and for callers that inspected already. */
export function draftFromUlogProfile(profile: UlogProfile, options: InferOptions = {}): Draft {
  const file = profile.file.path;
  const issues: Issue[] = [...profile.issues];
  const evidence: Evidence[] = [];
  const base = basename(file, extname(file));
  const config: UlogConfig = {
    assetName: options.assetName ?? base,
    ...(options.runName ? { runName: options.runName } : {}),
  };
  evidence.push({
    path: `${P}/assetName`,
    choice: config.assetName ?? '',
    reason: options.assetName ? 'given as an option' : "default: the file's base name",
    confidence: options.assetName ? 'high' : 'low',
  });
  const entries = messageEntries(profile, evidence);
  const data = [...entries, ...logEntries(profile, evidence, entries.length)];
  config.data = data;
  if (data.length === 0) {
    issues.push(
      inferIssue(
        'ulog_no_channels',
        `${P}/data`,
        `${file}: no subscribed message with fields and no logged text: nothing to import`,
        file,
        'Check that this is the log you meant.',
      ),
    );
  }
  const start = startTime(profile, options, evidence, issues);
  if (start) config.relativeStartTime = start;
  metadataEvidence(profile, evidence);
  policyEvidence(profile, evidence, issues);
  unusedFormats(profile, evidence);
  return { document: { ulogConfig: config }, kind: 'ulog', evidence, issues };
}

function inferIssue(
  code: Issue['code'],
  path: string,
  message: string,
  file: string,
  hint?: string,
): Issue {
  return issue(code, path, message, { hint: hint || undefined, source: { file } });
}

/**
 * One entry per field of each message instance that logged data, in the order the
 * platform's client drafts them (pyulog's data sets: by message name, then instance), one
 * evidence line per instance. A subscription without a single data message makes no
 * channel: pyulog keeps no data set for it, so the client drafts none; one evidence line
 * names them.
 */
function messageEntries(profile: UlogProfile, evidence: Evidence[]): UlogDataEntry[] {
  const entries: UlogDataEntry[] = [];
  const groups = new Map<string, UlogFieldProfile[]>();
  for (const f of profile.fields) {
    const key = `${f.messageName}_${f.instance}`;
    const group = groups.get(key);
    if (group) group.push(f);
    else groups.set(key, [f]);
  }
  // A message instance subscribed again under another msg_id: its data messages add up.
  const subs = new Map<string, { sub: UlogSubscription; messages: number }>();
  for (const s of profile.subscriptions) {
    const key = `${s.messageName}_${s.multiId}`;
    const seen = subs.get(key) ?? { sub: s, messages: 0 };
    seen.messages += s.messages;
    subs.set(key, seen);
  }
  const silent: string[] = [];
  for (const [channelPrefix, fields] of [...groups].sort(byMessageThenInstance)) {
    const first = fields[0] as UlogFieldProfile;
    const found = subs.get(channelPrefix);
    if (!found || found.messages === 0) {
      silent.push(channelPrefix);
      continue;
    }
    const { sub, messages } = found;
    evidence.push({
      path: `${P}/data/${entries.length}`,
      choice: `${channelPrefix}: ${plural(fields.length, 'field')}`,
      reason: `${first.messageName} instance ${first.instance}, subscribed at offset ${sub.offset} with ${plural(messages, 'data message')}; channels ${channelPrefix}.<field> (arrays field[i], nested types dotted, text as one field: as the platform's command line and client name them); types by the platform's table (${typeSummary(fields)}); timestamp and padding left out`,
      confidence: 'high',
    });
    for (const f of fields) {
      entries.push({
        messageName: f.messageName,
        instance: String(f.instance),
        fieldName: f.fieldName,
        channelConfig: { name: f.name, dataType: ulogChannelTypeOf(f.physicalType) },
      });
    }
  }
  if (silent.length > 0) {
    evidence.push({
      path: `${P}/data`,
      choice: `${plural(silent.length, 'message instance')} left out`,
      reason: `subscribed but no data message logged, so no channel (the platform's client drafts none): ${listSome(silent, 10)}`,
      confidence: 'high',
    });
  }
  return entries;
}

/** By message name, then instance, as pyulog orders its data sets. */
function byMessageThenInstance(
  a: [string, UlogFieldProfile[]],
  b: [string, UlogFieldProfile[]],
): number {
  const x = a[1][0] as UlogFieldProfile;
  const y = b[1][0] as UlogFieldProfile;
  if (x.messageName !== y.messageName) return x.messageName < y.messageName ? -1 : 1;
  return x.instance - y.instance;
}

function typeSummary(fields: readonly UlogFieldProfile[]): string {
  const seen = new Map<string, string>();
  for (const f of fields) {
    const t = f.physicalType.startsWith('char') ? 'char[N]' : f.physicalType;
    seen.set(t, ulogChannelTypeOf(f.physicalType).replace(/^CHANNEL_DATA_TYPE_/, ''));
  }
  return [...seen].map(([u, c]) => `${u} → ${c}`).join(', ');
}

/** `log_messages` (untagged) and `log_messages_<tag>` channels, as STRING. */
function logEntries(profile: UlogProfile, evidence: Evidence[], at: number): UlogDataEntry[] {
  const names: Array<[string, number]> = [];
  if (profile.logs.untagged > 0) names.push(['log_messages', profile.logs.untagged]);
  // Tags in order, as the platform's client lists them.
  const tagged = [...profile.logs.tagged].sort((a, b) => a.tag - b.tag);
  for (const t of tagged) names.push([`log_messages_${t.tag}`, t.count]);
  return names.map(([name, count], i) => {
    evidence.push({
      path: `${P}/data/${at + i}`,
      choice: name,
      reason: `${plural(count, 'logged text message')}${name === 'log_messages' ? '' : ` with tag ${name.slice(13)}`}: one STRING channel`,
      confidence: 'high',
    });
    return { messageName: name, channelConfig: { name, dataType: 'CHANNEL_DATA_TYPE_STRING' } };
  });
}

/** The start time: the option, else the GPS (stated), else an error asking for it. */
function startTime(
  profile: UlogProfile,
  options: InferOptions,
  evidence: Evidence[],
  issues: Issue[],
): string | undefined {
  const file = profile.file.path;
  const path = `${P}/relativeStartTime`;
  const gps = profile.gps;
  const gpsText = gps
    ? `${gps.messageName} instance ${gps.multiId} has time_utc_usec ${gps.timeUtcUsec} (${usecText(gps.timeUtcUsec)}) at offset ${gps.offset}`
    : undefined;
  if (options.relativeStartTime !== undefined) {
    if (Timestamp.safeParse(options.relativeStartTime).success) {
      evidence.push({
        path,
        choice: options.relativeStartTime,
        reason: `given as an option${gpsText ? `; it replaces the log's GPS time (${gpsText})` : ''}`,
        confidence: 'high',
      });
      return options.relativeStartTime;
    }
    issues.push(
      inferIssue(
        'infer_option_invalid',
        path,
        `\`relativeStartTime\` ${options.relativeStartTime}: not an RFC 3339 timestamp with a zone`,
        file,
        'Write it like 2024-05-01T12:00:00Z.',
      ),
    );
    return undefined;
  }
  if (gpsText) {
    evidence.push({
      path,
      choice: '(left out: the GPS time anchors the log)',
      reason: `${gpsText}; the platform places the log in time from it`,
      confidence: 'high',
      alternatives: ['the `relativeStartTime` option, to anchor the log yourself'],
    });
    return undefined;
  }
  issues.push(
    inferIssue(
      'ulog_start_time_missing',
      path,
      `${file}: no GPS message (vehicle_gps_position, sensor_gps) with a UTC time: the platform needs relativeStartTime to place the log in time`,
      file,
      'Set the `relativeStartTime` option (when the vehicle booted, e.g. 2024-05-01T12:00:00Z).',
    ),
  );
  return undefined;
}

/** Microseconds since 1970 as RFC 3339 text. */
function usecText(usec: string): string {
  const ms = Number(BigInt(usec) / 1000n);
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? 'not a date' : d.toISOString();
}

/** Info keys and parameters are offered, not chosen: a real log has hundreds of parameters. */
function metadataEvidence(profile: UlogProfile, evidence: Evidence[]): void {
  const infoKeys = [...profile.info, ...profile.multiInfo].map((i) => i.key);
  const params = [
    ...new Set([...profile.parameters, ...profile.defaultParameters].map((p) => p.name)),
  ];
  const offer = (path: string, what: string, prefix: string, keys: string[]) =>
    evidence.push({
      path,
      choice: '(left out)',
      reason:
        keys.length === 0
          ? `the log has no ${what}s`
          : `the log has ${plural(keys.length, what)}: ${listSome(keys, 10)}; list the ones to import as run metadata ${prefix}.<key>`,
      confidence: 'medium',
      ...(keys.length > 0 ? { alternatives: keys.slice(0, 50) } : {}),
    });
  offer(`${P}/infoKeys`, 'info key', 'info', infoKeys);
  offer(`${P}/paramKeys`, 'parameter', 'param', params);
}

/**
 * The parse-error policy is left out (FAIL_ON_ERROR). On a damaged log that fails the
 * import, as `check` says of the draft: the draft says it too (an error on the policy).
 */
function policyEvidence(profile: UlogProfile, evidence: Evidence[], issues: Issue[]): void {
  const damaged = profile.issues.filter((i) => i.code === 'ulog_damaged').length;
  if (damaged > 0) {
    issues.push(
      inferIssue(
        'ulog_damage_fails_import',
        `${P}/parseErrorPolicy`,
        `${profile.file.path}: the log is damaged (${plural(damaged, 'warning')} above) and parseErrorPolicy is left out, which means FAIL_ON_ERROR: the import fails at the first damaged place`,
        profile.file.path,
        'Set parseErrorPolicy: ULOG_PARSE_ERROR_POLICY_IGNORE_ERROR to skip damaged parts, or copy the log again from the vehicle.',
      ),
    );
  }
  evidence.push({
    path: `${P}/parseErrorPolicy`,
    choice: '(left out: FAIL_ON_ERROR)',
    reason:
      damaged === 0
        ? 'unset means ULOG_PARSE_ERROR_POLICY_FAIL_ON_ERROR: an import stops at a damaged message; the walk found none'
        : `unset means ULOG_PARSE_ERROR_POLICY_FAIL_ON_ERROR, and the walk found damage (${plural(damaged, 'warning')}): the import would fail there`,
    confidence: damaged === 0 ? 'high' : 'low',
    alternatives: ['ULOG_PARSE_ERROR_POLICY_IGNORE_ERROR: skip damaged parts and import the rest'],
  });
}

function unusedFormats(profile: UlogProfile, evidence: Evidence[]): void {
  const logged = new Set(profile.subscriptions.map((s) => s.messageName));
  const nested = new Set(profile.formats.flatMap((f) => f.fields.map((x) => x.type)));
  const unused = profile.formats.map((f) => f.name).filter((n) => !logged.has(n) && !nested.has(n));
  if (unused.length === 0) return;
  evidence.push({
    path: `${P}/data`,
    choice: `${plural(unused.length, 'format')} not logged`,
    reason: `defined but never subscribed, so no data: ${listSome(unused, 10)}`,
    confidence: 'high',
  });
}

/** `1 field`, `3 fields`. */
function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
