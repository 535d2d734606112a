import { type CellKind, classifyCell, isTimeKind, strayLimit } from './cells.js';

/** Where the table starts in a CSV file: preamble, embedded config, header, units. 0-based rows. */
export interface CsvLayout {
  /** Number of fields of the table's rows. */
  columnCount: number;
  /** Rows before the table (notes, comments, blank lines). */
  preambleRows: number;
  /** 0-based rows holding the platform's embedded config (JSON objects in the cells). */
  embeddedRows: number[];
  /** 0-based header row, or -1 for none. */
  header: number;
  /** True when the header row is written as a comment (`#time,temp`). */
  commentedHeader?: boolean;
  headerConfidence: 'high' | 'medium' | 'low';
  headerReason: string;
  /** 0-based units row, or -1 for none. */
  units: number;
  /** 0-based first data row. */
  firstData: number;
}

type ColumnClass = 'number' | 'bool' | 'time';

function cellClass(kind: CellKind): ColumnClass | 'string' | 'empty' {
  if (kind === 'int' || kind === 'double') return 'number';
  if (kind === 'bool') return 'bool';
  if (isTimeKind(kind)) return 'time';
  return kind === 'empty' ? 'empty' : 'string';
}

export function isBlank(row: readonly string[]): boolean {
  return row.every((c) => c.trim() === '');
}

/** True when most non-empty cells of the row are JSON objects (the platform's embedded config). */
export function isEmbeddedConfigRow(row: readonly string[]): boolean {
  const cells = row.map((c) => c.trim()).filter((c) => c !== '');
  if (cells.length === 0) return false;
  const objects = cells.filter((c) => parseJsonObject(c) !== undefined).length;
  return objects > 0 && objects >= cells.length / 2;
}

export function parseJsonObject(cell: string): Record<string, unknown> | undefined {
  const c = cell.trim();
  if (!c.startsWith('{') || !c.endsWith('}')) return undefined;
  try {
    const v: unknown = JSON.parse(c);
    return v !== null && typeof v === 'object' && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

const KNOWN_UNITS = new Set(
  [
    's',
    'ms',
    'us',
    'µs',
    'ns',
    'min',
    'h',
    'hr',
    'sec',
    'hz',
    'khz',
    'mhz',
    'v',
    'mv',
    'kv',
    'a',
    'ma',
    'w',
    'kw',
    'mw',
    'wh',
    'kwh',
    'j',
    'kj',
    'ohm',
    'Ω',
    'm',
    'mm',
    'cm',
    'km',
    'ft',
    'in',
    'mi',
    'm/s',
    'm/s^2',
    'm/s2',
    'm/s²',
    'km/h',
    'kph',
    'mph',
    'kn',
    'knots',
    'g',
    'kg',
    'lb',
    'n',
    'nm',
    'n·m',
    'n*m',
    'kn',
    'pa',
    'kpa',
    'mpa',
    'hpa',
    'bar',
    'mbar',
    'psi',
    'atm',
    'degc',
    'degf',
    'degk',
    '°c',
    '°f',
    'k',
    'c',
    'f',
    '%',
    'rpm',
    'deg',
    'rad',
    'rad/s',
    'deg/s',
    '°',
    '°/s',
    'db',
    'dbm',
    'lux',
    'l',
    'l/min',
    'l/s',
    'ppm',
    'bool',
    'count',
    'counts',
    'g/s',
    'kg/s',
    'nm/s',
    'v/v',
    'bit',
    'bits',
    'byte',
    'bytes',
    'b',
    'kb',
    'mb',
    'gb',
    'mah',
    'ah',
    'pct',
    'percent',
    'celsius',
    'volts',
    'amps',
    'amperes',
    'meters',
    'seconds',
    'milliseconds',
  ].map((u) => u.toLowerCase()),
);

/** True when a cell looks like a unit of measure (`m/s`, `V`, `degC`, `%`). */
export function isUnitLike(cell: string): boolean {
  const c = cell.trim();
  if (c === '' || c.length > 16) return false;
  if (KNOWN_UNITS.has(c.toLowerCase())) return true;
  return (
    /^[A-Za-zµμΩ°%][A-Za-z0-9µμΩ°%]*(?:[/^*·.-][A-Za-z0-9µμΩ°%²³]+)+$/.test(c) && /[/^]/.test(c)
  );
}

/**
 * A header cell with its units written in: `speed (m/s)` and `speed [m/s]` → name `speed`,
 * units `m/s`. `speed_mps` is left alone. Brackets that hold no unit stay in the name.
 */
export function splitHeaderUnits(cell: string): { name: string; units?: string } {
  const c = cell.trim();
  const m = /^(.*?)\s*[[(]\s*([^\])]+?)\s*[\])]$/.exec(c);
  if (m?.[1] && m[2] && isUnitLike(m[2])) return { name: m[1], units: m[2] };
  return { name: c };
}

/**
 * The class of each column's values (number, bool, time) by weight of evidence: a few odd
 * cells (a stray text, a repeated header line) do not take a column's class away.
 */
function columnClasses(
  rows: readonly (readonly string[])[],
  columns: number,
): Array<ColumnClass | undefined> {
  const out: Array<ColumnClass | undefined> = [];
  for (let c = 0; c < columns; c++) {
    const counts = { number: 0, bool: 0, time: 0, string: 0 };
    let values = 0;
    for (const row of rows) {
      const k = cellClass(classifyCell(row[c] ?? ''));
      if (k === 'empty') continue;
      counts[k] += 1;
      values += 1;
    }
    const top = (['number', 'bool', 'time'] as const).reduce((a, b) =>
      counts[b] > counts[a] ? b : a,
    );
    const odd = values - counts[top];
    out.push(counts[top] > 0 && odd <= strayLimit(values) ? top : undefined);
  }
  return out;
}

function fits(cell: string, cls: ColumnClass): boolean {
  const k = cellClass(classifyCell(cell));
  return k === 'empty' || k === cls;
}

export interface LayoutOptions {
  /** 1-based header row; 0 = no header. */
  headerRow?: number;
}

/** Finds the preamble, embedded config rows, header and units rows of the head's rows. */
export function detectLayout(
  rows: readonly (readonly string[])[],
  options: LayoutOptions = {},
): CsvLayout {
  const columnCount = tableWidth(rows);
  const start = tableStart(rows, columnCount);
  const layout: CsvLayout = {
    columnCount,
    preambleRows: start,
    embeddedRows: [],
    header: -1,
    headerConfidence: 'high',
    headerReason: '',
    units: -1,
    firstData: start,
  };
  if (options.headerRow !== undefined) return withGivenHeader(rows, layout, options.headerRow);

  layout.embeddedRows = embeddedConfigRows(rows, start);
  const h = start + layout.embeddedRows.length;
  if (h >= rows.length) {
    layout.firstData = h;
    return layout;
  }
  const first = rows[h] as readonly string[];
  const body = bodySample(rows, h);
  const classes = columnClasses(body, columnCount);
  const commented = commentedHeader(rows, h, layout, classes);
  if (commented) return commented;
  const choice = chooseHeader(first, body, classes, h);
  layout.header = choice.header;
  layout.headerConfidence = choice.confidence;
  layout.headerReason = choice.reason;
  layout.firstData = layout.header >= 0 ? layout.header + 1 : h;
  if (layout.header >= 0) detectUnitsRow(rows, layout, classes);
  return layout;
}

/** The table's width: the most common row length of the head (the longer on a tie). */
function tableWidth(rows: readonly (readonly string[])[]): number {
  const probe = rows.slice(0, 1000).filter((r) => !isBlank(r) && !(r[0] ?? '').startsWith('#'));
  const counts = new Map<number, number>();
  for (const r of probe) counts.set(r.length, (counts.get(r.length) ?? 0) + 1);
  let columnCount = 1;
  let best = 0;
  for (const [len, c] of counts) {
    if (c > best || (c === best && len > columnCount)) {
      columnCount = len;
      best = c;
    }
  }
  return columnCount;
}

/** The table starts at the first row of the table's width followed by rows of that width. */
function tableStart(rows: readonly (readonly string[])[], columnCount: number): number {
  let start = 0;
  while (start < rows.length) {
    const r = rows[start] as readonly string[];
    const comment = (r[0] ?? '').trimStart().startsWith('#');
    if (!isBlank(r) && !comment && r.length === columnCount) {
      const next = rows.slice(start + 1, start + 4).filter((x) => !isBlank(x));
      if (next.length === 0 || next.some((x) => x.length === columnCount)) break;
    }
    start += 1;
  }
  if (start >= rows.length) start = rows.findIndex((r) => !isBlank(r));
  return start < 0 ? 0 : start;
}

/** The layout when the header row is given (1-based; 0 = no header): only units are found. */
function withGivenHeader(
  rows: readonly (readonly string[])[],
  layout: CsvLayout,
  headerRow: number,
): CsvLayout {
  const start = layout.preambleRows;
  if (headerRow === 0) {
    layout.headerReason = 'no header row (as given)';
    layout.firstData = start;
    return layout;
  }
  layout.header = headerRow - 1;
  layout.preambleRows = Math.min(start, layout.header);
  layout.headerReason = `row ${headerRow} (as given)`;
  layout.firstData = layout.header + 1;
  detectUnitsRow(rows, layout);
  return layout;
}

/** The platform's embedded config rows at the table's start (at most two). */
function embeddedConfigRows(rows: readonly (readonly string[])[], start: number): number[] {
  const out: number[] = [];
  let h = start;
  while (h < Math.min(start + 2, rows.length) && isEmbeddedConfigRow(rows[h] as string[])) {
    out.push(h);
    h += 1;
  }
  return out;
}

/**
 * The rows below the candidate header row `h` that tell the columns' classes: blank rows and
 * repeats of row `h` left out, the first skipped when there are enough (it may be units).
 */
function bodySample(rows: readonly (readonly string[])[], h: number): (readonly string[])[] {
  const first = rows[h] as readonly string[];
  const after = rows.slice(h + 1).filter((r) => !isBlank(r) && !sameRow(r, first));
  return (after.length >= 3 ? after.slice(1) : after).slice(0, 500);
}

interface HeaderChoice {
  /** 0-based header row, or -1 for none. */
  header: number;
  confidence: CsvLayout['headerConfidence'];
  reason: string;
}

/** Whether row `h` is the header, told by the column classes of the rows below it. */
function chooseHeader(
  first: readonly string[],
  body: readonly (readonly string[])[],
  classes: Array<ColumnClass | undefined>,
  h: number,
): HeaderChoice {
  const typed = classes.flatMap((cls, c) => (cls ? [{ cls, c }] : []));
  if (typed.length > 0 && body.length > 0) return headerByTypes(first, typed, h);
  if (body.length === 0) return headerOfOnlyRow(first, h);
  return headerOfTextColumns(first, body, h);
}

/** Typed columns tell: a header when one of its cells is not of its column's class. */
function headerByTypes(
  first: readonly string[],
  typed: ReadonlyArray<{ cls: ColumnClass; c: number }>,
  h: number,
): HeaderChoice {
  const misfit = typed.find(
    ({ cls, c }) => (first[c] ?? '').trim() !== '' && !fits(first[c] ?? '', cls),
  );
  if (misfit) {
    return {
      header: h,
      confidence: 'high',
      reason: `row ${h + 1}: '${first[misfit.c]}' in column ${misfit.c + 1} is not a ${misfit.cls} like the values below it`,
    };
  }
  return {
    header: -1,
    confidence: 'high',
    reason: `row ${h + 1} holds values of the same types as the rows below: no header`,
  };
}

/** One row only: a header when every cell is text. */
function headerOfOnlyRow(first: readonly string[], h: number): HeaderChoice {
  const allText = first.every((cell) => cellClass(classifyCell(cell)) === 'string');
  if (allText) {
    return {
      header: h,
      confidence: 'medium',
      reason: `row ${h + 1} is the only row and holds only text: a header without data`,
    };
  }
  return {
    header: -1,
    confidence: 'medium',
    reason: `row ${h + 1} is the only row and holds values: no header`,
  };
}

/** Every column is text: a header when its cells are distinct and none recurs below. */
function headerOfTextColumns(
  first: readonly string[],
  body: readonly (readonly string[])[],
  h: number,
): HeaderChoice {
  const cells = first.map((x) => x.trim());
  const distinct = new Set(cells).size === cells.length && cells.every((x) => x !== '');
  const recurs = cells.some((x, c) => body.some((r) => (r[c] ?? '').trim() === x));
  if (distinct && !recurs) {
    return {
      header: h,
      confidence: 'low',
      reason: `every column is text; row ${h + 1} has distinct names that do not recur below: taken as the header`,
    };
  }
  return {
    header: -1,
    confidence: 'low',
    reason: `every column is text and row ${h + 1} looks like data: no header`,
  };
}

function detectUnitsRow(
  rows: readonly (readonly string[])[],
  layout: CsvLayout,
  known?: Array<ColumnClass | undefined>,
): void {
  const u = layout.header + 1;
  const row = rows[u];
  if (!row || isBlank(row)) return;
  const classes = known ?? columnClasses(rows.slice(u + 1, u + 501), layout.columnCount);
  const cells = row.map((c) => c.trim());
  const nonEmpty = cells.filter((c) => c !== '');
  const unitLike = nonEmpty.filter(isUnitLike);
  if (unitLike.length === 0 || unitLike.length < nonEmpty.length / 2) return;
  if (nonEmpty.some((c) => c.length > 20)) return;
  // Cells in typed columns must not be values of that type.
  const typedMisfit = classes.some(
    (cls, c) => cls !== undefined && (cells[c] ?? '') !== '' && !fits(cells[c] ?? '', cls),
  );
  const typedFit = classes.some(
    (cls, c) => cls !== undefined && (cells[c] ?? '') !== '' && fits(cells[c] ?? '', cls),
  );
  if (typedFit) return;
  if (!typedMisfit) {
    // No typed column tells: every cell must be a unit, unlike the values below it.
    if (unitLike.length !== nonEmpty.length) return;
    const below = rows.slice(u + 1, u + 201);
    const unitColumn = cells.some((cell, c) => {
      if (cell === '') return false;
      const values = below.map((r) => (r[c] ?? '').trim()).filter((v) => v !== '');
      return values.filter(isUnitLike).length >= values.length / 2;
    });
    if (unitColumn) return;
  }
  layout.units = u;
  layout.firstData = u + 1;
}

/** The same cells, up to spaces around them. */
export function sameRow(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x.trim() === (b[i] ?? '').trim());
}

/**
 * A header written as a comment (`#time,temp`, `# time,temp`) or whose first cell starts
 * with `#` (`"##0","#,#00"`): the row just above the table, of the table's width, whose cells
 * do not fit the values below it while the table's first row does.
 */
function commentedHeader(
  rows: readonly (readonly string[])[],
  h: number,
  layout: CsvLayout,
  classes: Array<ColumnClass | undefined>,
): CsvLayout | undefined {
  const above = rows[h - 1];
  if (h < 1 || layout.embeddedRows.length > 0 || !above) return undefined;
  if (!(above[0] ?? '').trimStart().startsWith('#') || above.length !== layout.columnCount)
    return undefined;
  const first = rows[h] as readonly string[];
  const typed = classes.flatMap((cls, c) => (cls ? [{ cls, c }] : []));
  if (typed.length === 0) return undefined;
  if (typed.some(({ cls, c }) => !fits(first[c] ?? '', cls))) return undefined;
  const misfit = typed.find(
    ({ cls, c }) =>
      (above[c] ?? '').trim() !== '' && !fits((above[c] ?? '').replace(/^#+\s*/, ''), cls),
  );
  if (!misfit && typed.some(({ c }) => (above[c] ?? '').replace(/^#+\s*/, '').trim() !== ''))
    return undefined;
  layout.header = h - 1;
  layout.preambleRows = h - 1;
  layout.commentedHeader = true;
  layout.headerReason = `row ${h} starts with '#' but has the table's ${layout.columnCount} fields and names its columns: taken as the header`;
  layout.firstData = h;
  detectUnitsRow(rows, layout, classes);
  return layout;
}
