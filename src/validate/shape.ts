import type { ErrorObject, ValidateFunction } from 'ajv';
import {
  ENUMS,
  escapePointerToken,
  type Issue,
  issue,
  listSome,
  parsePointer,
  UINT32_MAX,
} from '../model/plain.js';
import { show, typeName } from './_issue.js';
import { type SchemaNode, schemaAt } from './_schema-walk.js';
import { DOCUMENT_SCHEMA } from './document-schema.js';
import { validateDocument } from './generated/document-validator.js';
import { camelCase, closest, notFoundHint } from './suggest.js';

/**
 * The ajv validator of the committed document JSON Schema, compiled when the schemas are
 * generated (`npm run schemas`), so that validating needs no schema compilation at start.
 */
export function shapeValidator(): ValidateFunction {
  return validateDocument as unknown as ValidateFunction;
}

/** Checks a normalised document against the JSON Schema; ajv's errors as issues (one per place). */
export function checkShape(value: unknown): Issue[] {
  const validate = shapeValidator();
  if (validate(value)) return [];
  const out: Issue[] = [];
  const seen = new Set<string>();
  for (const e of validate.errors ?? []) {
    const i = toIssue(e, value);
    if (seen.has(i.path)) continue;
    seen.add(i.path);
    out.push(i);
  }
  return out;
}

/** The value at a place of the document and the schema that applies there. */
function placeOf(value: unknown, path: string): { data: unknown; parent: SchemaNode } {
  const tokens = parsePointer(path);
  let data: unknown = value;
  for (const t of tokens) {
    const o = data as Record<string, unknown> | null;
    data = typeof o === 'object' && o !== null && Object.hasOwn(o, t) ? o[t] : undefined;
  }
  return { data, parent: schemaAt(DOCUMENT_SCHEMA, tokens) ?? {} };
}

/**
 * A CH10 config inside a BatchConfig (`ch10Config` in a file entry, `defaultCh10Config`):
 * the platform's BatchConfig has neither (a file entry holds at most one of csvConfig,
 * tdmsConfig, parquetConfig, hdf5Config, ulogConfig), so a batch reads a CH10 file with
 * Ch10Config's defaults. Said so, instead of the nearest key's name ("csvConfig").
 */
function ch10InBatch(path: string, key: string): Issue | undefined {
  if (!path.startsWith('/batchConfig') || !/^(default)?ch10config$/i.test(key)) return undefined;
  return issue('unknown_key', `${path}/${escapePointerToken(key)}`, `Unknown key ${show(key)}.`, {
    hint: 'A batch has no CH10 config: list a CH10 file with its type only ({type: DATA_TYPE_KEY_CH10}); the platform reads it with the defaults of Ch10Config, and the batch sets its asset and run.',
  });
}

function toIssue(e: ErrorObject, value: unknown): Issue {
  const path = e.instancePath;
  const { data, parent } = placeOf(value, path);
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = String((e.params as { additionalProperty: string }).additionalProperty);
      const ch10 = ch10InBatch(path, key);
      if (ch10) return ch10;
      const props = Object.keys((parent.properties ?? {}) as Record<string, unknown>);
      const near =
        closest(camelCase(key), props) ??
        closest(key, props) ??
        props.find((p) => p.toLowerCase() === `${camelCase(key)}config`.toLowerCase());
      return issue(
        'unknown_key',
        `${path}/${escapePointerToken(key)}`,
        `Unknown key ${show(key)}${path === '' ? ' at the top level' : ''}.`,
        notFoundHint(key, props, 'Known keys here', near, { quote: show }),
      );
    }
    case 'required': {
      const key = String((e.params as { missingProperty: string }).missingProperty);
      return issue(
        'missing_key',
        `${path}/${escapePointerToken(key)}`,
        `Missing required key ${show(key)}.`,
      );
    }
    case 'type': {
      const want = String((e.params as { type: string }).type);
      if (want === 'integer' && typeof data === 'number') {
        return issue('not_an_integer', path, `${data} is not a whole number.`);
      }
      return issue(
        'wrong_type',
        path,
        `Expected ${typeWord(want)}, got ${typeName(data)}${scalar(data)}.`,
      );
    }
    case 'enum':
      return enumIssue(path, data, (e.params as { allowedValues: unknown[] }).allowedValues);
    case 'minimum':
    case 'maximum':
      return rangeIssue(path, data, parent);
    case 'pattern':
    case 'format':
      return patternIssue(path, data, parent);
    default:
      return issue('wrong_type', path, `${show(data)}: ${e.message ?? 'not valid here'}.`);
  }
}

function typeWord(t: string): string {
  switch (t) {
    case 'object':
      return 'an object';
    case 'array':
      return 'a list';
    case 'string':
      return 'text';
    case 'integer':
      return 'a whole number';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true or false';
    default:
      return t;
  }
}

function scalar(v: unknown): string {
  return v === null || typeof v === 'object' ? '' : ` (${show(v)})`;
}

function enumIssue(path: string, data: unknown, allowed: unknown[]): Issue {
  const values = allowed.map(String);
  const info = Object.values(ENUMS).find((x) => x.values[0] === values[0]);
  const name = info?.name ?? 'this field';
  if (typeof data !== 'string') {
    return issue(
      'wrong_type',
      path,
      `Expected a ${name} name, got ${typeName(data)}${scalar(data)}.`,
      `Use one of: ${listSome(values, values.length)}.`,
    );
  }
  const prefix = info?.prefix ?? '';
  const upper = data.toUpperCase();
  const near =
    closest(upper, values) ??
    (prefix
      ? closest(
          upper.startsWith(prefix) ? upper.slice(prefix.length) : upper,
          values.map((v) => v.slice(prefix.length)),
        )
      : undefined);
  const full = near === undefined ? undefined : near.startsWith(prefix) ? near : `${prefix}${near}`;
  return issue(
    'invalid_enum_value',
    path,
    `${show(data)} is not a ${name}.`,
    notFoundHint(data, values, 'Use one of', full, { quote: String, max: values.length }),
  );
}

function rangeIssue(path: string, data: unknown, parent: Record<string, unknown>): Issue {
  const min = Number(parent.minimum);
  const max = Number(parent.maximum);
  const kind = min === 0 && max === UINT32_MAX ? 'uint32' : min === 0 ? 'unsigned' : 'int32';
  if (min === 0 && typeof data === 'number' && data < 0) {
    return issue(
      'negative_unsigned',
      path,
      `${data} is negative; this field is unsigned (${kind}).`,
      'Use zero or a positive number.',
    );
  }
  return issue(
    'value_out_of_range',
    path,
    `${show(data)} is out of range for ${kind} (${min} to ${max}).`,
  );
}

function patternIssue(path: string, data: unknown, parent: Record<string, unknown>): Issue {
  const s = String(data);
  if (parent.format === 'date-time') {
    return issue(
      'invalid_timestamp',
      path,
      `${show(data)} is not an RFC 3339 timestamp with a zone.`,
      'Write it like 2024-05-01T12:00:00Z or 2024-05-01T14:00:00+02:00 (seconds and a zone are required).',
    );
  }
  const unsigned = !String(parent.pattern ?? '').includes('-?');
  if (unsigned && /^-[0-9]+$/.test(s)) {
    return issue(
      'negative_unsigned',
      path,
      `${s} is negative; this field is unsigned (uint64).`,
      'Use zero or a positive number.',
    );
  }
  if (/^-?[0-9]*\.?[0-9]+(?:e[+-]?[0-9]+)?$/i.test(s) && /[.eE]/.test(s)) {
    return issue(
      'not_an_integer',
      path,
      `${show(data)} is not a whole number.`,
      'Write a whole number as a decimal string, for example "1024".',
    );
  }
  return issue(
    'wrong_type',
    path,
    `${show(data)} is not a ${unsigned ? 'uint64' : 'int64'} decimal string.`,
    'Write the digits only (no sign for unsigned, no leading zeros, no spaces), for example "1024".',
  );
}
