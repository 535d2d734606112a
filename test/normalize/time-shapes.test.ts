import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  type ByteOut,
  rewriteTimeBytes,
  WRITTEN,
} from '../../src/formats/csv/normalize-time-bytes.js';
import { TimeShapes } from '../../src/formats/csv/normalize-time-shapes.js';
import { type DateOrder, TimeWriter } from '../../src/formats/csv/normalize-times.js';

const two = (n: number) => String(n).padStart(2, '0');

/** A way of writing a time: a date, a time of day and a zone's name (or none). */
const shapeArb = fc.record({
  date: fc.constantFrom('dd.mm.yyyy', 'd.m.yyyy', 'yyyy-mm-dd', 'mm/dd/yyyy', 'dd-mm-yyyy'),
  clock: fc.constantFrom(
    'hh:mm',
    'hh:mm:ss',
    'hh:mm:ss.f',
    'hh:mm:ss.fff',
    'hh:mm:ss,ff',
    'h:mm:ss',
  ),
  zone: fc.constantFrom('', '', ' CET', ' Europe/Berlin', '  UTC', ' XYZ', ' PM'),
});

/** A number from `min` to `max`, now and then up to `beyond` (or 0). */
const mostly = (min: number, max: number, beyond: number) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min, max }) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: beyond }) },
  );

/** A time cell written `shape`'s way, its numbers sometimes out of range. */
const cellIn = (shape: { date: string; clock: string; zone: string }) =>
  fc
    .record({
      d: mostly(1, 28, 35),
      mo: mostly(1, 12, 14),
      h: mostly(0, 23, 25),
      mi: mostly(0, 59, 61),
      s: mostly(0, 59, 61),
      f: fc.integer({ min: 0, max: 999 }),
    })
    .map(({ d, mo, h, mi, s, f }) => {
      const day = shape.date
        .replace('yyyy', '2024')
        .replace('dd', two(d))
        .replace('mm', two(mo))
        .replace(/^d\./, `${d}.`)
        .replace(/\.m\./, `.${mo}.`);
      const time = shape.clock
        .replace('hh', two(h))
        .replace(/^h:/, `${h}:`)
        .replace('mm', two(mi))
        .replace('ss', two(s))
        .replace(/f+/, (w) => String(f).padStart(3, '0').slice(0, w.length));
      return `${day} ${time}${shape.zone}`;
    });

/** A cell with one byte changed (a letter, a space, a quote, another digit, a separator). */
const malformed = (cell: fc.Arbitrary<string>) =>
  fc
    .tuple(cell, fc.nat(), fc.constantFrom('x', ' ', '"', '7', ':', '.', '/'))
    .map(([text, at, c]) => {
      const i = at % text.length;
      return text.slice(0, i) + c + text.slice(i + 1);
    });

/** A column's cells: mostly one shape, some of another, some malformed. */
const cellsArb = shapeArb.chain((shape) =>
  fc.array(
    fc.oneof(
      { weight: 8, arbitrary: cellIn(shape) },
      { weight: 1, arbitrary: shapeArb.chain(cellIn) },
      { weight: 2, arbitrary: malformed(cellIn(shape)) },
    ),
    { minLength: 1, maxLength: 60, size: 'max' },
  ),
);

/** An output buffer as the record path keeps one. */
function output(): ByteOut & { text(): string } {
  let buf = Buffer.alloc(64);
  const out = {
    pos: 0,
    room(n: number) {
      if (out.pos + n > buf.byteLength) {
        const bigger = Buffer.alloc(out.pos + n + 64);
        buf.copy(bigger);
        buf = bigger;
      }
      return buf;
    },
    text: () => buf.toString('latin1', 0, out.pos),
  };
  return out;
}

/**
 * The cells rewritten one after another by `rewriteTimeBytes` alone, or by a column's
 * `TimeShapes` first: what each gave and the bytes written. The cells sit between other
 * bytes (digits, separators), which neither may read.
 */
function rewriteAll(
  cells: string[],
  order: DateOrder | undefined,
  zone: string | undefined,
  shaped: boolean,
) {
  const writer = new TimeWriter({ zone, dateOrder: order });
  const shapes = new TimeShapes();
  const out = output();
  const done: number[] = [];
  let fast = 0;
  cells.forEach((cell, row) => {
    const b = Buffer.from(`7${cell}-9:`, 'latin1');
    const e = 1 + cell.length;
    if (shaped && shapes.write(b, 1, e, writer, row, out)) {
      fast += 1;
      done.push(WRITTEN);
      return;
    }
    const r = rewriteTimeBytes(b, 1, e, writer, row, out);
    if (shaped && r === WRITTEN) shapes.learn(b, 1, e, order);
    done.push(r);
    out.room(1)[out.pos++] = 10;
  });
  return { done, text: out.text().replace(/\n/g, ''), repeated: writer.repeated, fast };
}

describe('the fixed-width shapes of a time column', () => {
  test('write the bytes rewriteTimeBytes writes, and leave it every other cell (malformed, out of range)', () => {
    let fast = 0;
    fc.assert(
      fc.property(
        cellsArb,
        fc.constantFrom<DateOrder | undefined>('dmy', 'mdy', undefined),
        fc.constantFrom(undefined, 'Europe/Berlin'),
        (cells, order, zone) => {
          const general = rewriteAll(cells, order, zone, false);
          const shaped = rewriteAll(cells, order, zone, true);
          expect(shaped.done).toEqual(general.done);
          expect(shaped.text).toBe(general.text);
          expect(shaped.repeated).toEqual(general.repeated);
          fast += shaped.fast;
        },
      ),
      { numRuns: 300 },
    );
    expect(fast).toBeGreaterThan(1000);
  });

  test('a cell of a kept shape is written from it; one out of range is left to the general path', () => {
    const cells = [
      '30.03.2024 23:58:00.125',
      '31.03.2024 02:30:00.500',
      '32.03.2024 01:00:00.000',
      '30.03.2024 23:5x:00.125',
    ];
    const shaped = rewriteAll(cells, 'dmy', 'Europe/Berlin', true);
    expect(shaped.fast).toBe(1);
    expect(shaped.text).toBe('2024-03-30T23:58:00.125+01:00' + '2024-03-31T02:30:00.500+01:00');
    expect(shaped.done).toEqual([WRITTEN, WRITTEN, 0, -1]);
  });
});
