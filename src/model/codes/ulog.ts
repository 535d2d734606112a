import type { CodeDoc } from './_types.js';

/** Issue codes of ULog inspection, inference and checks. */
export const ulogCodes = {
  ulog_bad_magic: {
    severity: 'error',
    summary:
      'The file does not start with the ULog magic bytes (`55 4c 6f 67 01 12 35`): it is not a ULog file.',
    fix: 'Check that this is the log you meant.',
  },
  ulog_too_short: {
    severity: 'error',
    summary: 'The file is shorter than the 16-byte ULog header.',
    fix: 'The file was cut short: copy it from the vehicle again.',
  },
  ulog_incompatible: {
    severity: 'error',
    summary:
      'The log sets incompatible flag bits other than "data appended": the format says a reader that does not know them must not read the log.',
    fix: 'The log was written by a newer logger; convert it with that version of PX4 tools first.',
  },
  ulog_appended_offset_invalid: {
    severity: 'warning',
    summary:
      'An appended-data offset in the flag bits points before the data section, past the end of the file, or backwards.',
    fix: 'That appended part is not read; the rest of the log is. The log is probably damaged.',
  },
  ulog_damaged: {
    severity: 'warning',
    summary:
      'A message of an unknown type, a malformed definition, or data messages of a msg_id no subscription announced: the reader resynchronises at the next sync message, as the platform does.',
    fix: 'With `parseErrorPolicy: ULOG_PARSE_ERROR_POLICY_FAIL_ON_ERROR` (the default) the import fails there, and `check` reports `ulog_damage_fails_import`; `ULOG_PARSE_ERROR_POLICY_IGNORE_ERROR` skips the damaged part.',
  },
  ulog_damage_fails_import: {
    severity: 'error',
    summary:
      'Damage in the log (see `ulog_damaged`) under `parseErrorPolicy: ULOG_PARSE_ERROR_POLICY_FAIL_ON_ERROR`, which is also what an unset policy means: the import fails at the damaged place.',
    fix: 'Set `parseErrorPolicy: ULOG_PARSE_ERROR_POLICY_IGNORE_ERROR` to skip the damaged parts, or copy the log again from the vehicle.',
  },
  ulog_truncated: {
    severity: 'warning',
    summary: 'The file ends inside a message: the log was cut short.',
    fix: 'The data up to the last whole message is imported; copy the log again if more was expected.',
  },
  ulog_format_missing: {
    severity: 'warning',
    summary: 'A message is subscribed in the data section but no format definition describes it.',
    fix: 'Its data cannot be read; the log is damaged or was written by a broken logger.',
  },
  ulog_format_without_timestamp: {
    severity: 'info',
    summary:
      'A subscribed message has no top-level field named `timestamp`: the platform leaves such messages out.',
    fix: 'Nothing to do; its fields do not become channels.',
  },
  ulog_field_unreadable: {
    severity: 'warning',
    summary:
      'A field has a type no format defines, or nests formats deeper than 32 levels (cyclic). The first five are shown, the rest counted.',
    fix: 'Those fields are left out; the log is probably damaged.',
  },
  ulog_fields_over_limit: {
    severity: 'warning',
    summary:
      "The log's subscribed messages unroll to more than 100,000 fields, every message and instance together (nested arrays multiply: 32 levels of `[200]` are 200^32 fields in a few hundred bytes): the rest is left out of the profile and the draft.",
    fix: 'A real log has a few thousand fields: the log is damaged or hostile. `check` still finds a field a config names by following its name through the format.',
  },
  ulog_no_channels: {
    severity: 'warning',
    summary: 'The log has no subscribed message with fields and no logged text: nothing to import.',
    fix: 'Check that this is the log you meant; a log stopped right after it started holds only definitions.',
  },
  ulog_start_time_missing: {
    severity: 'error',
    summary:
      'The log has no GPS message with a UTC time and the config gives no `relativeStartTime`: the platform cannot place the log in time and the import fails.',
    fix: 'Give `relativeStartTime` (RFC 3339, when the vehicle booted), e.g. `importkit infer log.ulg --relative-start 2024-05-01T12:00:00Z`.',
  },
  ulog_message_not_in_file: {
    severity: 'error',
    summary:
      'A data entry names a message the log does not log (no subscription of that name), or log messages the log does not have.',
    fix: 'Use a message the log subscribes (`importkit inspect log.ulg` lists them; the message suggests a near name).',
  },
  ulog_instance_not_in_file: {
    severity: 'error',
    summary: 'A data entry names an instance (multi_id) of a message that the log does not have.',
    fix: 'Use one of the instances the message names.',
  },
  ulog_field_not_in_file: {
    severity: 'error',
    summary:
      'A data entry names a field the message does not have (arrays are `field[i]`, nested types `esc[0].rpm`).',
    fix: 'Use a field of the message (the message suggests a near name).',
  },
  ulog_key_not_in_file: {
    severity: 'warning',
    summary: 'An `infoKeys` or `paramKeys` entry names a key the log does not have.',
    fix: 'Use a key the log has (`importkit inspect log.ulg --format json` lists them); a missing key adds no metadata.',
  },
} as const satisfies Record<string, CodeDoc>;
