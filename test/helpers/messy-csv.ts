/**
 * Messy CSV files as local loggers write them, for the property tests of normalize: day-first
 * (or month-first) dates with AM/PM, times with zone names and abbreviations (some unknown),
 * numbers with decimal commas, odd cells, repeated header lines, short and long rows, `;`,
 * tab or `|` as delimiter, CRLF, a BOM, trailing delimiters; and normalize's options.
 */
import fc from 'fast-check';

const two = (x: number) => String(x).padStart(2, '0');

/** A day-first (or month-first, or ambiguous) date and time, as a local logger writes it. */
const dayFirstArb = fc
  .record({
    d: fc.integer({ min: 1, max: 31 }),
    mo: fc.integer({ min: 1, max: 12 }),
    h: fc.integer({ min: 0, max: 23 }),
    mi: fc.integer({ min: 0, max: 59 }),
    s: fc.integer({ min: 0, max: 60 }),
    sep: fc.constantFrom('.', '/', '-'),
    frac: fc.constantFrom('', '.5', '.123', ',25', '.000001'),
    ampm: fc.constantFrom('', '', '', ' PM', ' am', 'p.m.'),
    pad: fc.boolean(),
  })
  .map(({ d, mo, h, mi, s, sep, frac, ampm, pad }) => {
    const hour = ampm ? (h % 12) + 1 : h;
    const day = pad ? two(d) : String(d);
    return `${day}${sep}${two(mo)}${sep}2024 ${two(hour)}:${two(mi)}:${two(s)}${ampm ? '' : frac}${ampm}`;
  });

/** An ISO local time with a zone name or abbreviation (some unknown), or a date alone. */
const zonedArb = fc
  .record({
    day: fc.integer({ min: 0, max: 400 }),
    minute: fc.integer({ min: 0, max: 1439 }),
    sep: fc.constantFrom(' ', 'T'),
    zone: fc.constantFrom(
      'CET',
      'CEST',
      'Europe/Berlin',
      'UTC',
      'America/New_York',
      'XYZ',
      'Mars/Base',
    ),
    seconds: fc.constantFrom('', ':07', ':59.25'),
  })
  .map(({ day, minute, sep, zone, seconds }) => {
    const t = new Date(Date.UTC(2024, 0, 1) + day * 86400_000 + minute * 60_000);
    const date = t.toISOString().slice(0, 10);
    return `${date}${sep}${two(t.getUTCHours())}:${two(t.getUTCMinutes())}${seconds} ${zone}`;
  });

/** A number with a decimal comma (some with dot groups, signs, spaces), or an odd cell. */
const commaArb = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .tuple(fc.integer({ min: -99999, max: 99999 }), fc.integer({ min: 0, max: 999 }))
      .map(([a, b]) => `${a},${b}`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '1.234,5',
      ' 2,5 ',
      '-0,125',
      '12',
      '',
      ' ',
      '3,',
      '1,2,3',
      '0.125,5',
    ),
  },
);

const oddArb = fc.oneof(
  fc.constantFrom('', ' ', 'n/a', 'a;b', 'x,y', 'say "hi"', 'two\nlines', 'cr\r\nlf', 'é,ü', '1;2'),
  fc.string({ maxLength: 5 }),
);

/** Mostly values of the column's kind, sometimes an odd one (quoted when it must be). */
const cellOf = (arb: fc.Arbitrary<string>) =>
  fc.oneof({ weight: 12, arbitrary: arb }, { weight: 1, arbitrary: oddArb });

function write(cell: string, delimiter: string): string {
  return cell.includes(delimiter) || /["\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

const HEADER = ['time', 'zoned', 'a', 'b'];

export const csvArb = fc
  .record({
    rows: fc.array(
      fc.oneof(
        {
          weight: 20,
          arbitrary: fc.tuple(
            cellOf(dayFirstArb),
            cellOf(zonedArb),
            cellOf(commaArb),
            cellOf(commaArb),
          ),
        },
        { weight: 1, arbitrary: fc.constant(HEADER) },
        { weight: 1, arbitrary: fc.constant(['']) },
        { weight: 1, arbitrary: fc.tuple(cellOf(dayFirstArb), cellOf(commaArb)) },
        {
          weight: 1,
          arbitrary: fc.tuple(dayFirstArb, zonedArb, commaArb, commaArb, fc.constant('extra')),
        },
      ),
      { minLength: 4, maxLength: 30 },
    ),
    delimiter: fc.constantFrom(';', '\t', '|'),
    eol: fc.constantFrom('\n', '\r\n'),
    bom: fc.boolean(),
    lastEnd: fc.boolean(),
    trailing: fc.boolean(),
  })
  .map(({ rows, delimiter, eol, bom, lastEnd, trailing }) => {
    const lines = [HEADER, ...rows].map(
      (r) => r.map((c) => write(c, delimiter)).join(delimiter) + (trailing ? delimiter : ''),
    );
    return `${bom ? '\uFEFF' : ''}${lines.join(eol)}${lastEnd ? eol : ''}`;
  });

export const optionsArb = fc.record(
  {
    timezone: fc.constantFrom('Europe/Berlin', 'America/New_York', 'UTC'),
    dateOrder: fc.constantFrom('dmy' as const, 'mdy' as const),
  },
  { requiredKeys: [] },
);

/**
 * A file as one logger writes it, every row in the same style: day-first (or month-first)
 * dates with one separator, one clock (24-hour, or 12-hour with one way of writing AM/PM),
 * one zone name or none, numbers with decimal commas (some with dot groups), `;` or tab as
 * delimiter; times a second apart, so that infer finds a time column to read.
 */
export const tidyCsvArb = fc
  .record({
    rows: fc.array(
      fc.tuple(
        fc.integer({ min: -99999, max: 99999 }),
        fc.integer({ min: 0, max: 999 }),
        fc.boolean(),
      ),
      { minLength: 2, maxLength: 30 },
    ),
    start: fc.integer({ min: 0, max: 360 * 86_400 }),
    sep: fc.constantFrom('.', '/', '-'),
    clock: fc.constantFrom('24', ' AM', ' am', 'a.m.'),
    order: fc.constantFrom('dmy' as const, 'mdy' as const),
    zone: fc.constantFrom('', ' CET', ' Europe/Berlin', ' UTC'),
    delimiter: fc.constantFrom(';', '\t'),
    eol: fc.constantFrom('\n', '\r\n'),
  })
  .map(({ rows, start, sep, clock, order, zone, delimiter, eol }) => {
    const lines = [['time', 'a', 'b'].join(delimiter)];
    rows.forEach(([whole, frac, grouped], r) => {
      const t = new Date(Date.UTC(2024, 0, 1) + (start + r) * 1000);
      const [d, mo] = [two(t.getUTCDate()), two(t.getUTCMonth() + 1)];
      const date = order === 'dmy' ? `${d}${sep}${mo}${sep}2024` : `${mo}${sep}${d}${sep}2024`;
      const h = t.getUTCHours();
      const hour = clock === '24' ? h : ((h + 11) % 12) + 1;
      const pm = h >= 12;
      const mark =
        clock === '24'
          ? ''
          : clock === 'a.m.'
            ? pm
              ? 'p.m.'
              : 'a.m.'
            : clock === ' AM'
              ? pm
                ? ' PM'
                : ' AM'
              : pm
                ? ' pm'
                : ' am';
      const time = `${date} ${two(hour)}:${two(t.getUTCMinutes())}:${two(t.getUTCSeconds())}${mark}${zone}`;
      const a = grouped && Math.abs(whole) >= 1000 ? whole.toLocaleString('de-DE') : String(whole);
      lines.push([time, `${a},${frac}`, `${frac},5`].join(delimiter));
    });
    return `${lines.join(eol)}${eol}`;
  });
