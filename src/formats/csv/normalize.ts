/**
 * `normalize`: writes a copy of a CSV file the platform reads. Decimal commas become dots,
 * thousands separators are dropped, a date and a time of day in two columns become one
 * RFC 3339 column, AM/PM times, times with zone names, day-first and month-first dates
 * (and, with a zone given, local times without an offset) become RFC 3339, the delimiter
 * becomes `,`, a BOM and trailing empty columns are dropped, and header lines repeated
 * inside the data are removed. Streams with bounded memory: when no cell needs rewriting
 * the bytes are copied (repeated header lines left out); otherwise record by record.
 */
import { open } from 'node:fs/promises';
import { openPendingFile } from '../../files/index.js';
import { type Issue, issue, listSome } from '../../model/plain.js';
import { inspectCsv } from './inspect.js';
import { normalizeThreads, rewriteRecordsShared } from './normalize-parallel.js';
import {
  type KeptColumn,
  type NormalizeCounts,
  type NormalizePlan,
  type OutColumn,
  planNormalize,
} from './normalize-plan.js';
import { noCounts, rewriteRecords, writeAll } from './normalize-records.js';
import { type DateOrder, dateOrderOf, TimeWriter } from './normalize-times.js';
import { type CsvRecord, fieldText, scanCsvFile } from './scan.js';

export type { NormalizeCounts } from './normalize-plan.js';

export interface NormalizeOptions {
  /**
   * IANA zone of local times (split date+time, AM/PM, day-first or month-first dates, and
   * times without an offset, which are rewritten only when it is given); default UTC.
   */
  timezone?: string;
  /** The order of day and month in dates whose values do not decide it (`03/04/2024`). */
  dateOrder?: DateOrder;
  /** The input's delimiter and header row, instead of detecting them. */
  delimiter?: string;
  headerRow?: number;
  /** The first data row, from a draft config (instead of detecting it). */
  firstDataRow?: number;
  /**
   * Threads that rewrite the rows (this one and workers), at most one a core; default the
   * cores. A file under 32 MiB, or one whose bytes are copied, is read by this thread.
   */
  jobs?: number;
  /** Bytes of the input done of total. */
  onProgress?: (done: number, total: number) => void;
}

export interface NormalizeReport {
  input: string;
  output: string;
  bytesIn: number;
  bytesOut: number;
  /** The input's delimiter (the output's is `,`). */
  delimiter: string;
  bomDropped: boolean;
  trailingColumnsDropped: number;
  /** Two columns joined into one time column: their 1-based numbers. */
  joined?: [number, number];
  /** The zone local times were read in. */
  timezone: string;
  counts: NormalizeCounts;
  /** What the copy still lacks or what was read with a doubt, with the rows concerned. */
  issues: Issue[];
}

const CHUNK = 4 * 1024 * 1024;

/**
 * How the rows are shared by threads, for tests: the bytes of a range (rewritten apart, and
 * joined as one pass writes them) and whether a small file is shared too. `jobs` 1 then
 * rewrites every range in this thread.
 */
export interface NormalizeTuning {
  rangeBytes?: number;
  shared?: boolean;
  /** The read size of a range (default 1 MiB). */
  chunkSize?: number;
}

/**
 * Normalizes `input` into `output` (written to a new file beside it, created exclusively
 * under a random name, then renamed over `output`: `openPendingFile`). The caller makes
 * sure `output` is not the input.
 */
export async function normalizeCsv(
  input: string,
  output: string,
  options: NormalizeOptions & NormalizeTuning = {},
): Promise<NormalizeReport> {
  const profile = await inspectCsv(input, {
    ...(options.delimiter !== undefined ? { delimiter: options.delimiter } : {}),
    ...(options.headerRow !== undefined ? { headerRow: options.headerRow } : {}),
  });
  const plan = planNormalize(profile, options);
  const issues = await settleDateOrders(input, plan, profile.file.path);
  const counts = noCounts();
  const pending = await openPendingFile(output);
  const fd = pending.handle.fd;
  let bytesOut: number;
  const times = plan.columns.map((c) =>
    c.kind === 'time' || c.kind === 'join'
      ? new TimeWriter({ zone: options.timezone, dateOrder: c.dateOrder })
      : undefined,
  );
  const jobs = normalizeThreads(profile.file.size, options.jobs, options.shared);
  const rewriting = { counts, times, onProgress: options.onProgress };
  try {
    bytesOut = plan.bytesOnly
      ? await copyBytes(input, fd, plan, counts, options.onProgress)
      : jobs > 1 || options.shared
        ? await rewriteRecordsShared(input, fd, plan, {
            ...rewriting,
            jobs,
            ...(options.rangeBytes ? { rangeBytes: options.rangeBytes } : {}),
            ...(options.chunkSize ? { chunkSize: options.chunkSize } : {}),
          })
        : await rewriteRecords(input, fd, plan, rewriting);
  } catch (err) {
    await pending.abort();
    throw err;
  }
  await pending.commit();
  const join = plan.columns.find((c) => c.kind === 'join');
  const report: NormalizeReport = {
    input,
    output,
    bytesIn: profile.file.size,
    bytesOut,
    delimiter: plan.delimiter,
    bomDropped: plan.bom,
    trailingColumnsDropped: profile.layout.columnCount - plan.inputWidth,
    timezone: options.timezone ?? 'UTC',
    counts,
    issues: [
      ...issues,
      ...plan.kept.map((k) => keptColumn(k, input)),
      ...contradictedOrders(plan, times, input),
      ...repeatedHours(plan, times, options.timezone ?? 'UTC', input),
    ],
  };
  if (join) report.joined = [(join.from[0] as number) + 1, (join.from[1] as number) + 1];
  return report;
}

/**
 * Decides the date order of each time column whose sampled dates did not: reads the
 * column's cells through the file until one decides (a number above 12, dots). A column
 * nothing decides is left as written (its cells copied), with an issue asking for the order.
 */
async function settleDateOrders(
  input: string,
  plan: NormalizePlan,
  file: string,
): Promise<Issue[]> {
  const open = plan.columns.filter((c) => c.undecided);
  if (open.length === 0) return [];
  await scanCsvFile(
    input,
    (rec) => {
      if (rec.row < plan.firstDataRow) return undefined;
      const cells = cellsOf(rec, plan.delimiter);
      for (const c of open) {
        if (c.dateOrder) continue;
        const found = dateOrderOf(cells[c.from[0] as number] ?? '');
        if (found) c.dateOrder = found;
      }
      return open.every((c) => c.dateOrder !== undefined) ? false : undefined;
    },
    { delimiter: plan.delimiter },
  );
  const issues: Issue[] = [];
  for (const c of open) {
    delete c.undecided;
    if (c.dateOrder) continue;
    issues.push(dateOrderUnknown(c, file));
    keepAsWritten(plan, c);
  }
  return issues;
}

function dateOrderUnknown(c: OutColumn, file: string): Issue {
  const column = (c.from[0] as number) + 1;
  return issue(
    'normalize_date_order_unknown',
    '',
    `${file}: the dates in column ${column} (${c.header}) read day-first or month-first, and no value decides which (no day above 12): the column was left as written`,
    {
      hint: 'Give the order with --date-order dmy (10/03/2024 is 10 March) or --date-order mdy (3 October).',
      source: { file, column },
    },
  );
}

/** A time column left as written: copied (a date and a time of day stay two columns). */
function keepAsWritten(plan: NormalizePlan, c: OutColumn): void {
  const at = plan.columns.indexOf(c);
  const copies: OutColumn[] = c.from.map((from, i) => ({
    from: [from],
    header: c.parts?.[i] ?? c.header,
    kind: 'copy',
  }));
  plan.columns = [...plan.columns.slice(0, at), ...copies, ...plan.columns.slice(at + 1)];
}

/** A warning per time column with local times the zone repeats, naming their rows. */
/** A column left as written although a good part of it is times normalize rewrites. */
function keptColumn(k: KeptColumn, file: string): Issue {
  const shapes = [
    k.ampm > 0 ? `${k.ampm} 12-hour with AM/PM` : '',
    k.zoneNamed > 0 ? `${k.zoneNamed} with a zone name` : '',
    k.ordered > 0 ? `${k.ordered} with day-first or month-first dates` : '',
  ].filter((x) => x !== '');
  return issue(
    'normalize_column_kept',
    '',
    `${file}: column ${k.column} (${k.header}) was left as written: ${k.all} of its ${k.values} values read ${k.all === 1 ? 'is a time' : 'are times'} the platform cannot read (${listSome(shapes, 3)}), and normalize rewrites a column when more than half are`,
    {
      hint: 'If it is a time column, fix its other rows (`importkit inspect` shows its shapes) and normalize again.',
      source: { file, column: k.column },
    },
  );
}

/**
 * Each time column whose dates read in the other order than the one given: those dates
 * were kept as written (`04/29/2024` under `--date-order dmy`), and the copy's time column
 * is not all times.
 */
function contradictedOrders(
  plan: NormalizePlan,
  times: ReadonlyArray<TimeWriter | undefined>,
  file: string,
): Issue[] {
  const issues: Issue[] = [];
  plan.columns.forEach((c, i) => {
    const t = times[i];
    const first = t?.contradicted.first;
    if (!t || !first || !t.dateOrder) return;
    const column = (c.from[0] as number) + 1;
    const other = t.dateOrder === 'dmy' ? 'mdy' : 'dmy';
    const n = t.contradicted.count;
    issues.push(
      issue(
        'normalize_date_order_contradicted',
        '',
        `${file}: ${n === 1 ? '1 date' : `${n} dates`} in column ${column} (${c.header}) read ${other === 'mdy' ? 'month-first' : 'day-first'}, not ${t.dateOrder} as given, and ${n === 1 ? 'was' : 'were'} kept as written; first at row ${first.row}: '${first.date}'`,
        {
          hint: `Give --date-order ${other}, or leave it out: a value with a number above 12 decides the order.`,
          source: { file, column, row: first.row },
        },
      ),
    );
  });
  return issues;
}

function repeatedHours(
  plan: NormalizePlan,
  times: ReadonlyArray<TimeWriter | undefined>,
  zone: string,
  file: string,
): Issue[] {
  const issues: Issue[] = [];
  plan.columns.forEach((c, i) => {
    const rows = times[i]?.repeated ?? [];
    if (rows.length === 0) return;
    const shown = rows.slice(0, 10).join(', ');
    const more = rows.length > 10 ? ` and ${rows.length - 10} more` : '';
    issues.push(
      issue(
        'normalize_time_repeated_hour',
        '',
        `${file}: rows ${shown}${more} (${c.header}) hold local times ${zone} repeats when summer time ends; read in row order, as summer time until the clock goes back, then as standard time`,
        { source: { file, row: rows[0] as number } },
      ),
    );
  });
  return issues;
}

const UTF8 = new TextDecoder('utf-8');

/** A record's cells: one decode of the whole line when no field is quoted, else field by field. */
function cellsOf(rec: CsvRecord, delimiter: string): string[] {
  if (!rec.anyQuoted) {
    const from = rec.starts[0] as number;
    const to = rec.ends[rec.count - 1] as number;
    return UTF8.decode(rec.bytes.subarray(from, to)).split(delimiter);
  }
  const cells: string[] = [];
  for (let i = 0; i < rec.count; i++) cells.push(fieldText(rec, i));
  return cells;
}

/**
 * The byte path (nothing to rewrite cell by cell): copies the file in 4 MiB pieces, leaving
 * out a BOM and every later line equal to the header line (found with a native search for
 * the line end followed by the header's bytes).
 */
async function copyBytes(
  input: string,
  fd: number,
  plan: NormalizePlan,
  counts: NormalizeCounts,
  onProgress?: (done: number, total: number) => void,
): Promise<number> {
  const h = await open(input, 'r');
  try {
    const size = (await h.stat()).size;
    const head = await headerLineOf(h, plan.headerRow);
    let buf: Buffer = Buffer.allocUnsafe(CHUNK);
    let carry = 0;
    let pos = plan.bom ? 3 : 0;
    let written = 0;
    while (pos < size) {
      if (carry + CHUNK > buf.byteLength) buf = grow(buf, carry + CHUNK);
      const { bytesRead } = await h.read(buf, carry, CHUNK, pos);
      if (bytesRead === 0) break;
      const start = pos - carry;
      pos += bytesRead;
      const filled = carry + bytesRead;
      const atEnd = pos >= size;
      // Whole lines only (the rest waits for the next piece), unless this is the end.
      const upto = atEnd ? filled : buf.lastIndexOf(10, filled - 1) + 1;
      written += writeWithout(fd, buf, upto, head?.line, start, head?.end ?? 0, atEnd, counts);
      buf.copyWithin(0, upto, filled);
      carry = filled - upto;
      onProgress?.(pos, size);
    }
    if (carry > 0) written += writeAll(fd, buf, 0, carry);
    return written;
  } finally {
    await h.close();
  }
}

function grow(buf: Buffer, need: number): Buffer {
  const bigger = Buffer.allocUnsafe(Math.max(need, buf.byteLength * 2));
  buf.copy(bigger);
  return bigger;
}

/**
 * Writes `buf[0, upto)` (whole lines), leaving out the lines equal to the header that start
 * at or after the file offset `keepBefore` (the header itself stays).
 */
function writeWithout(
  fd: number,
  buf: Buffer,
  upto: number,
  header: Buffer | undefined,
  fileOffset: number,
  keepBefore: number,
  atEnd: boolean,
  counts: NormalizeCounts,
): number {
  let written = 0;
  let from = 0;
  const drop = (lineStart: number): boolean => {
    if (!header || fileOffset + lineStart < keepBefore) return false;
    const end = lineEndAfter(buf, lineStart + header.byteLength, upto, atEnd);
    if (end < 0) return false;
    if (lineStart > from) written += writeAll(fd, buf, from, lineStart);
    from = end;
    counts.repeatedHeaders += 1;
    return true;
  };
  if (header && buf.compare(header, 0, header.byteLength, 0, header.byteLength) === 0) drop(0);
  if (header) {
    const needle = Buffer.concat([Buffer.from([10]), header]);
    let at = buf.indexOf(needle, Math.max(0, from - 1));
    while (at >= 0 && at + 1 < upto) {
      drop(at + 1);
      at = buf.indexOf(needle, Math.max(at + 1, from - 1));
    }
  }
  if (upto > from) written += writeAll(fd, buf, from, upto);
  return written;
}

/** The offset just past the line end at `at` (LF, CRLF, CR, or the file's end); -1 when none. */
function lineEndAfter(buf: Buffer, at: number, upto: number, atEnd: boolean): number {
  if (at === upto && atEnd) return upto;
  if (at >= upto) return -1;
  const c = buf[at];
  if (c === 10) return at + 1;
  if (c === 13) return buf[at + 1] === 10 && at + 1 < upto ? at + 2 : at + 1;
  return -1;
}

/** The header line's bytes (without its line end) and the offset just past it. */
async function headerLineOf(
  h: Awaited<ReturnType<typeof open>>,
  headerRow: number,
): Promise<{ line: Buffer; end: number } | undefined> {
  if (headerRow < 1) return undefined;
  const head = Buffer.alloc(256 * 1024);
  const { bytesRead } = await h.read(head, 0, head.byteLength, 0);
  let start = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  for (let row = 1; row < headerRow; row++) {
    const nl = head.indexOf(10, start);
    if (nl < 0 || nl >= bytesRead) return undefined;
    start = nl + 1;
  }
  const nl = head.indexOf(10, start);
  if (nl < 0 || nl >= bytesRead) return undefined;
  let end = nl;
  if (head[end - 1] === 13) end -= 1;
  const line = Buffer.from(head.subarray(start, end));
  // A header holding a quote may span lines: no byte search for it.
  return line.includes(34) || line.byteLength === 0 ? undefined : { line, end: nl + 1 };
}
