/**
 * CSV inference accuracy against DuckDB's `sniff_csv`, on a corpus of 320 CSV files
 * generated here with known truth: plain tables of every dialect and column type, and the
 * shapes loggers and spreadsheets write (commented headers, `#` headers, `;` inside cells,
 * decimal commas, thousands separators, split date+time, zone names, AM/PM, trailing empty
 * columns, repeated headers, stray cells, empty time cells, preambles). For each file and
 * each tool: delimiter, header, column count, every column's type, the time column and its
 * format, right or wrong; for the shapes the platform cannot read, whether ours names them
 * with the right code. Prints the table, our misses (goal: none) and DuckDB's by shape.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inferCsvFromProfile } from '../src/formats/csv/infer.js';
import { inspectCsv } from '../src/formats/csv/inspect.js';
import { dataDir, table } from './_measure.js';

type Kind = 'int' | 'double' | 'bool' | 'string' | 'time';
type TimeKind = 'rfc3339' | 'datetime' | 'unix_s' | 'unix_ms';
const FORMATS: Record<TimeKind, string> = {
  rfc3339: 'TIME_FORMAT_ABSOLUTE_RFC3339',
  datetime: 'TIME_FORMAT_ABSOLUTE_DATETIME',
  unix_s: 'TIME_FORMAT_ABSOLUTE_UNIX_SECONDS',
  unix_ms: 'TIME_FORMAT_ABSOLUTE_UNIX_MILLISECONDS',
};

interface Truth {
  file: string;
  shape: string;
  delimiter: string;
  header: boolean;
  columns: number;
  kinds: Kind[];
  /** 1-based time column and platform format; or the code ours must give instead. */
  time?: { column: number; format: string };
  code?: string;
}

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const SHAPES = [
  ['plain', 160],
  ['commented-header', 15],
  ['hash-header', 10],
  ['semicolons-in-cells', 10],
  ['decimal-comma', 15],
  ['thousands', 10],
  ['split-date-time', 15],
  ['zone-name', 10],
  ['ampm', 10],
  ['trailing-empty', 15],
  ['repeated-header', 15],
  ['stray-cell', 15],
  ['empty-time', 5],
  ['preamble', 5],
] as const;

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** One generated file: its text and its truth. */
function makeFile(shape: string, index: number): { text: string; truth: Omit<Truth, 'file'> } {
  const r = rng(index * 7919 + shape.length * 104729);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)] as T;
  const rows = 20 + Math.floor(r() * 180);
  let delimiter = shape === 'decimal-comma' ? ';' : pick([',', ',', ',', ';', '\t', '|']);
  if (shape === 'semicolons-in-cells' || shape === 'thousands') delimiter = ',';
  const timeKind: TimeKind = pick(['rfc3339', 'datetime', 'unix_s', 'unix_ms']);
  const n = 1 + Math.floor(r() * 6);
  const kinds: Kind[] = Array.from({ length: n }, () =>
    pick(['int', 'double', 'bool', 'string'] as const),
  );
  if (shape === 'decimal-comma' || shape === 'thousands') kinds[0] = 'double';
  if (shape === 'semicolons-in-cells') kinds[0] = 'string';
  const timeAt = shape === 'plain' ? Math.floor(r() * (n + 1)) : 0;
  const t0 = Date.UTC(2024, 2, 1, 8) + Math.floor(r() * 1e9);
  const step = 1 + Math.floor(r() * 1000);
  const timeCell = (i: number): string => {
    const ms = t0 + i * step;
    if (timeKind === 'unix_s') return String(Math.floor(ms / 1000) + i);
    if (timeKind === 'unix_ms') return String(ms);
    const iso = new Date(ms).toISOString();
    return timeKind === 'rfc3339' ? iso : iso.slice(0, 23).replace('T', ' ');
  };
  const value = (k: Kind, i: number, c: number): string => {
    const v = Math.floor(r() * 20000) - 10000;
    if (k === 'int') return String(v);
    if (k === 'double') {
      const d = (v / 16).toFixed(3);
      if (shape === 'decimal-comma' && c === 0) return d.replace('.', ',');
      if (shape === 'thousands' && c === 0)
        return `"${(v * 997).toLocaleString('en-US', { minimumFractionDigits: 2 })}"`;
      return d;
    }
    if (k === 'bool') return v % 2 === 0 ? 'true' : 'false';
    if (shape === 'semicolons-in-cells' && c === 0) return `${i};${i + 1};${i + 2}`;
    return pick(['idle', 'run', 'stop', 'fault', 'warm', 'cool']) + (i % 3 === 0 ? ` ${c}` : '');
  };
  const names = kinds.map(
    (_, c) => pick(['speed', 'volts', 'temp', 'mode', 'load', 'flow', 'rpm']) + (c + 1),
  );
  let header = [...names];
  const timeName = pick(['time', 'timestamp', 'Time', 't']);
  const lines: string[][] = [];
  for (let i = 0; i < rows; i++) {
    const cells = kinds.map((k, c) => value(k, i, c));
    cells.splice(timeAt, 0, timeCell(i));
    lines.push(cells);
  }
  let allKinds: Kind[] = [...kinds];
  allKinds.splice(timeAt, 0, 'time');
  header.splice(timeAt, 0, timeName);
  let truth: Omit<Truth, 'file'> = {
    shape,
    delimiter,
    header: true,
    columns: allKinds.length,
    kinds: allKinds,
    time: { column: timeAt + 1, format: FORMATS[timeKind] },
  };
  let headerLine = header.join(delimiter);
  const pre: string[] = [];
  switch (shape) {
    case 'commented-header':
      headerLine = `#${r() < 0.5 ? ' ' : ''}${headerLine}`;
      break;
    case 'hash-header':
      header = header.map((_, c) => pick(['##0', '#,#00', '#0.0', '#name']) + c);
      headerLine = header.map((h) => (h.includes(delimiter) ? `"${h}"` : h)).join(delimiter);
      break;
    case 'split-date-time': {
      for (const [i, l] of lines.entries()) {
        const d = new Date(t0 + i * 1000).toISOString();
        l.splice(0, 1, d.slice(0, 10), d.slice(11, 23));
      }
      header.splice(0, 1, 'date', 'time');
      headerLine = header.join(delimiter);
      allKinds = ['time', ...allKinds];
      truth = {
        ...truth,
        columns: allKinds.length,
        kinds: allKinds,
        code: 'csv_time_split_columns',
      };
      delete truth.time;
      break;
    }
    case 'zone-name':
    case 'ampm':
      for (const [i, l] of lines.entries()) {
        const d = new Date(t0 + i * 60_000);
        l[0] =
          shape === 'zone-name'
            ? `${d.toISOString().slice(0, 19).replace('T', ' ')} ${pick(['CET', 'CEST', 'EST', 'UTC'])}`
            : `${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${d.getUTCFullYear()} ${((d.getUTCHours() + 11) % 12) + 1}:${pad(d.getUTCMinutes())}:00 ${d.getUTCHours() < 12 ? 'AM' : 'PM'}`;
      }
      truth = { ...truth, code: shape === 'zone-name' ? 'csv_time_zone_name' : 'csv_time_ampm' };
      delete truth.time;
      break;
    case 'decimal-comma':
      truth = { ...truth, code: 'csv_decimal_comma' };
      break;
    case 'thousands':
      truth = { ...truth, code: 'csv_thousands_separator' };
      break;
    case 'trailing-empty':
      headerLine += delimiter.repeat(2);
      for (const l of lines) l.push('', '');
      truth = { ...truth, columns: truth.columns + 2, kinds: [...allKinds, 'string', 'string'] };
      break;
    case 'repeated-header':
      lines.splice(Math.floor(rows / 2), 0, [headerLine]);
      truth = { ...truth, code: 'csv_header_repeated' };
      break;
    case 'stray-cell': {
      const c = allKinds.findIndex((k) => k !== 'string' && k !== 'time');
      if (c >= 0) (lines[Math.floor(r() * rows)] as string[])[c] = pick(['n/a', 'ERR', '--']);
      truth = { ...truth, code: c >= 0 ? 'csv_value_stray' : undefined } as Omit<Truth, 'file'>;
      break;
    }
    case 'empty-time':
      (lines[1 + Math.floor(r() * (rows - 2))] as string[])[timeAt] = '';
      truth = { ...truth, code: 'csv_time_empty' };
      break;
    case 'preamble':
      pre.push(`Logger export ${index}`, `Serial: A${index}7`, '');
      break;
  }
  const crlf = r() < 0.2 ? '\r\n' : '\n';
  const bom = r() < 0.1 ? '\ufeff' : '';
  const body = lines.map((l) => l.join(delimiter));
  return { text: `${bom}${[...pre, headerLine, ...body].join(crlf)}${crlf}`, truth };
}

/** Ours: inspection and the draft, reduced to what the truth states. */
async function ours(t: Truth, path: string) {
  const profile = await inspectCsv(path);
  const draft = inferCsvFromProfile(profile);
  const cfg = draft.document.csvConfig ?? {};
  const codes = new Set(draft.issues.map((i) => i.code));
  const kinds: Kind[] = [];
  for (let c = 1; c <= profile.layout.columnCount; c++) {
    const dt = cfg.dataColumns?.[String(c)]?.dataType ?? '';
    kinds.push(
      cfg.timeColumn?.columnNumber === c
        ? 'time'
        : /INT/.test(dt)
          ? 'int'
          : dt.endsWith('DOUBLE')
            ? 'double'
            : dt.endsWith('BOOL')
              ? 'bool'
              : 'string',
    );
  }
  // The shapes the platform cannot read: right when named by their code.
  const named = t.code !== undefined && codes.has(t.code as never);
  const timeShape =
    t.code === 'csv_time_split_columns' ||
    t.code === 'csv_time_zone_name' ||
    t.code === 'csv_time_ampm';
  return {
    delimiter: profile.dialect.delimiter === t.delimiter,
    header: profile.layout.headerRow > 0 === t.header,
    columns: profile.layout.columnCount === t.columns,
    types: t.kinds.every((k, c) => kinds[c] === k || (timeShape && named && k === 'time')),
    timeColumn: timeShape
      ? named && !cfg.timeColumn
      : cfg.timeColumn?.columnNumber === t.time?.column,
    timeFormat: timeShape ? named : cfg.timeColumn?.format === t.time?.format,
    code: t.code === undefined ? undefined : named,
  };
}

function duckKind(type: string): Kind {
  if (/INT/.test(type)) return 'int';
  if (/DOUBLE|FLOAT|DECIMAL/.test(type)) return 'double';
  if (type === 'BOOLEAN') return 'bool';
  if (/TIMESTAMP|DATE|TIME/.test(type)) return 'time';
  return 'string';
}

async function duck(
  conn: {
    runAndReadAll: (
      sql: string,
    ) => Promise<{ getRowObjectsJson(): Array<Record<string, unknown>> }>;
  },
  t: Truth,
  path: string,
) {
  try {
    const reader = await conn.runAndReadAll(
      `SELECT Delimiter, HasHeader, Columns FROM sniff_csv('${path.replace(/'/g, "''")}')`,
    );
    const row = reader.getRowObjectsJson()[0] as {
      Delimiter: string;
      HasHeader: boolean;
      Columns: Array<{ type: string }>;
    };
    const kinds = row.Columns.map((c) => duckKind(c.type));
    const timeType = (c: number | undefined) =>
      c === undefined ? undefined : row.Columns[c - 1]?.type;
    const splitCols = t.code === 'csv_time_split_columns' ? [1, 2] : undefined;
    const timeAt = t.time?.column ?? 1;
    const format = timeType(timeAt);
    return {
      delimiter: row.Delimiter === t.delimiter,
      header: row.HasHeader === t.header,
      columns: row.Columns.length === t.columns,
      types: t.kinds.every((k, c) => kinds[c] === k),
      timeColumn: splitCols
        ? splitCols.every((c) => kinds[c - 1] === 'time')
        : kinds[timeAt - 1] === 'time',
      timeFormat:
        t.time === undefined
          ? kinds[timeAt - 1] === 'time'
          : (t.time.format.endsWith('RFC3339') && format === 'TIMESTAMP WITH TIME ZONE') ||
            (t.time.format.endsWith('DATETIME') && format === 'TIMESTAMP'),
      code: undefined,
    };
  } catch {
    return {
      delimiter: false,
      header: false,
      columns: false,
      types: false,
      timeColumn: false,
      timeFormat: false,
      code: undefined,
    };
  }
}

const dir = join(dataDir(), 'csv-accuracy');
mkdirSync(dir, { recursive: true });
const truths: Truth[] = [];
for (const [shape, count] of SHAPES)
  for (let i = 0; i < count; i++) {
    const { text, truth } = makeFile(shape, i);
    const file = `${shape}-${pad(i, 3)}.csv`;
    writeFileSync(join(dir, file), text);
    truths.push({ ...truth, file });
  }

const { DuckDBInstance } = await import('@duckdb/node-api');
const db = await DuckDBInstance.create(':memory:', { threads: '2' });
const conn = await db.connect();
const METRICS = [
  'delimiter',
  'header',
  'columns',
  'types',
  'timeColumn',
  'timeFormat',
  'code',
] as const;
const tally = Object.fromEntries(METRICS.map((m) => [m, { ours: 0, duck: 0, of: 0 }]));
const ourMisses: string[] = [];
const duckMisses = new Map<string, Map<string, number>>();
for (const t of truths) {
  const path = join(dir, t.file);
  const a = await ours(t, path);
  const b = await duck(conn, t, path);
  for (const m of METRICS) {
    if (a[m] === undefined) continue;
    const x = tally[m] as { ours: number; duck: number; of: number };
    x.of += 1;
    if (a[m]) x.ours += 1;
    else ourMisses.push(`${t.file}: ${m}`);
    if (m !== 'code' && b[m]) x.duck += 1;
    else if (m !== 'code') {
      const by = duckMisses.get(t.shape) ?? new Map<string, number>();
      by.set(m, (by.get(m) ?? 0) + 1);
      duckMisses.set(t.shape, by);
    }
  }
}
conn.closeSync();

console.log(`${truths.length} generated files in ${dir}\n`);
table(
  ['what', 'files', 'ours right', 'ours wrong', 'sniff_csv right', 'sniff_csv wrong'],
  METRICS.map((m) => {
    const x = tally[m] as { ours: number; duck: number; of: number };
    const duckCell = m === 'code' ? ['-', '-'] : [x.duck, x.of - x.duck];
    return [
      m === 'code' ? 'unreadable shape named (code)' : m,
      x.of,
      x.ours,
      x.of - x.ours,
      ...duckCell,
    ];
  }),
);
console.log(`\nours wrong on ${ourMisses.length}: ${ourMisses.slice(0, 20).join('; ') || 'none'}`);
console.log('\nsniff_csv misses by shape:');
for (const [shape, by] of duckMisses)
  console.log(`  ${shape}: ${[...by].map(([m, n]) => `${m} ${n}`).join(', ')}`);
