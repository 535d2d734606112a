import { resolve } from 'node:path';
import {
  type BaseProfile,
  formatById,
  type InspectOptions,
  inspectFile,
} from '../../inspect/index.js';
import { parseDelimiter } from '../../model/plain.js';
import { parseCommandArgs } from '../args.js';
import { EXIT_OK, UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { checkDataArgument } from '../mistakes.js';
import { withFlags } from '../option-flags.js';
import { escapedAfterC0, printable, printableJson } from '../printable.js';
import { createProgress } from '../progress.js';
import { displayWidth, padCells, wrapCells } from '../width.js';
import { refuseFlagsOfOtherFormats } from './_format-flags.js';

const HELP = `Usage: importkit inspect <file> [options]

Prints what a data file holds: its columns, datasets or channels, their types, empty counts
and sample values, and format details (CSV dialect and layout, Parquet footer, HDF5 tree,
TDMS groups and properties, CH10 recorder channels, ULog definitions and subscriptions).
Reads only the parts it needs (CSV: the head and a few slices).

Options:
      --format <text|json>   output format (default text; json is the whole profile)
      --full                 CSV: read every row instead of the head and slices
      --delimiter <d>        CSV delimiter: , ; tab |
      --header-row <n>       CSV 1-based header row (0: no header)
  -h, --help                 show this help

Exit status: 0 inspected, 1 the file cannot be read or is not a known format, 2 usage error.
`;

/** `importkit inspect <file>`: prints the inspection profile. */
export async function inspect(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    format: { type: 'string', default: 'text' },
    full: { type: 'boolean', default: false },
    delimiter: { type: 'string' },
    'header-row': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  const format = String(values.format);
  if (format !== 'text' && format !== 'json')
    throw new UsageError(`--format takes text or json, not '${format}'`);
  if (positionals.length !== 1)
    throw new UsageError(positionals.length === 0 ? 'no file given' : 'one file at a time');
  const options: InspectOptions = {};
  if (typeof values.delimiter === 'string') {
    const d = parseDelimiter(values.delimiter);
    if (d === undefined)
      throw new UsageError(`--delimiter '${values.delimiter}' is not one of , ; tab |`);
    options.delimiter = d;
  }
  if (typeof values['header-row'] === 'string') {
    if (!/^\d+$/.test(values['header-row']))
      throw new UsageError(`--header-row takes a row number (0 for none)`);
    options.headerRow = Number(values['header-row']);
  }
  const file = positionals[0] as string;
  checkDataArgument(file, 'inspect', 'importkit inspect <data-file> [options]');
  await refuseFlagsOfOtherFormats(resolve(io.cwd, file), file, {
    ...(options.delimiter !== undefined ? { delimiter: options.delimiter } : {}),
    ...(options.headerRow !== undefined ? { headerRow: options.headerRow } : {}),
  });
  const progress = values.full ? createProgress(io, 'reading', 0) : undefined;
  if (values.full) {
    options.full = true;
    if (progress?.active)
      options.onProgress = (done, total) => {
        progress.setTotal(total);
        progress.update(done);
      };
  }
  let profile: BaseProfile;
  try {
    profile = await inspectFile(resolve(io.cwd, file), options);
    const shown = formatById(profile.format)?.inspectWithSamples;
    if (shown) profile = await shown(resolve(io.cwd, file));
  } finally {
    progress?.done();
  }
  profile = { ...profile, file: { ...profile.file, path: file } };
  io.stdout.write(format === 'json' ? `${printableJson(profile)}\n` : profileText(profile));
  return EXIT_OK;
}

/**
 * A profile as text: a summary, format details, a table of fields, the issues. Every name
 * and value from the file is printed through `printable`.
 */
export function profileText(profile: BaseProfile): string {
  const lines: string[] = [];
  lines.push(
    `${printable(profile.file.path)}: ${profile.format.toUpperCase()}, ${profile.file.size} bytes`,
  );
  // Reads are counted as made: a reader that goes back to a part counts it again.
  const again = profile.bytesRead > profile.file.size ? ' (some parts more than once)' : '';
  lines.push(
    `read ${profile.bytesRead} bytes${again}${profile.rowCount !== undefined ? `; ${profile.rowCount} rows` : ''}`,
  );
  const extra = profile as unknown as Record<string, unknown>;
  for (const key of ['dialect', 'layout', 'sampling']) {
    const v = extra[key];
    if (v && typeof v === 'object') {
      const parts = Object.entries(v as Record<string, unknown>)
        .filter(([, x]) => x !== undefined && typeof x !== 'object')
        .map(([k, x]) => `${k}=${escapedAfterC0(JSON.stringify(x))}`);
      lines.push(`${key}: ${parts.join(' ')}`);
    }
  }
  const shaped = profile.fields.some((f) => f.shape !== undefined);
  const rows = profile.fields.map((f) =>
    [
      String(
        f.column ??
          ((f as { index?: unknown }).index === undefined
            ? ''
            : Number((f as { index?: unknown }).index) + 1),
      ),
      f.name ?? f.path ?? '',
      f.physicalType,
      ...(shaped ? [f.shape ? `[${f.shape.join(', ')}]` : ''] : []),
      f.logicalType ?? '',
      f.units ?? '',
      f.nullCount === undefined ? '' : String(f.nullCount),
      f.samples.slice(0, 3).join(' | '),
    ].map(printable),
  );
  const shape = shaped ? ['shape'] : [];
  const headers = ['#', 'name', 'type', ...shape, 'logical', 'units', 'empty', 'samples'];
  lines.push('');
  for (const line of table(headers, rows)) lines.push(line);
  if (profile.issues.length > 0) {
    lines.push('');
    for (const i of profile.issues) {
      lines.push(`${i.severity} ${i.code}: ${printable(withFlags(i.message, 'inspect'))}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Cells wider than this wrap onto the next lines of their row (nothing is cut). */
const MAX_CELLS = 40;

/**
 * The table's lines, lined up by the cells each character takes on a terminal (a CJK name
 * takes two a character). A cell wider than MAX_CELLS wraps within its column; the last
 * column (samples) is written whole. `#` is left out when no row has a number (HDF5).
 */
function table(headers: string[], rows: string[][]): string[] {
  const numbered = rows.some((r) => r[0] !== '');
  const last = headers.length - 1;
  // Folds, not Math.max(...rows): one row per field, and a data-sized spread overflows the stack.
  const widths = headers.map((h, i) =>
    Math.min(
      MAX_CELLS,
      rows.reduce((w, r) => Math.max(w, displayWidth(r[i] ?? '')), displayWidth(h)),
    ),
  );
  const lines = (r: string[]): string[] => {
    const cells = r.map((c, i) => (i === last ? [c] : wrapCells(c, widths[i] ?? 0)));
    const height = cells.reduce((h, c) => Math.max(h, c.length), 1);
    return Array.from({ length: height }, (_, k) =>
      cells
        .map((c, i) => (i === last ? (c[k] ?? '') : padCells(c[k] ?? '', widths[i] ?? 0)))
        .filter((_, i) => i > 0 || numbered)
        .join('  ')
        .trimEnd(),
    );
  };
  return [...lines(headers), ...rows.flatMap(lines)];
}
