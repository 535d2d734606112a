/**
 * The small Arrow schema reader against apache-arrow (a dev dependency, the reference
 * implementation): for any fields with any metadata, both read the same metadata; damaged
 * messages throw instead of reading outside the bytes.
 */
import { Field, Float64, Int32, Schema, Table, tableToIPC, Utf8 } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { arrowFieldMetadata } from '../../src/formats/parquet/arrow-schema.js';

const TYPES = [new Float64(), new Int32(), new Utf8()];

/** A serialized schema message, as Arrow writers store it in a Parquet footer. */
function schemaMessage(schema: Schema): Uint8Array {
  return tableToIPC(new Table(schema), 'stream');
}

const arbText = fc.string({ unit: 'grapheme', maxLength: 12 });
const arbFields = fc.uniqueArray(
  fc.record({
    name: arbText,
    type: fc.integer({ min: 0, max: TYPES.length - 1 }),
    metadata: fc.dictionary(arbText, arbText, { maxKeys: 4 }),
  }),
  { selector: (f) => f.name, maxLength: 6 },
);

describe('arrowFieldMetadata', () => {
  test('reads what apache-arrow reads, for any fields and metadata', () => {
    fc.assert(
      fc.property(arbFields, (specs) => {
        const fields = specs.map(
          (s) =>
            new Field(
              s.name,
              TYPES[s.type] ?? new Float64(),
              true,
              new Map(Object.entries(s.metadata)),
            ),
        );
        const bytes = schemaMessage(new Schema(fields));
        const expected = new Map(
          fields
            .filter((f) => f.metadata.size > 0)
            .map((f) => [f.name, Object.fromEntries(f.metadata)] as const),
        );
        expect(arrowFieldMetadata(bytes)).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });

  test('a metadata key named __proto__ is kept as a key', () => {
    const field = new Field('v', new Float64(), true, new Map([['__proto__', 'x']]));
    const got = arrowFieldMetadata(schemaMessage(new Schema([field]))).get('v');
    expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
    expect(Object.entries(got ?? {})).toEqual([['__proto__', 'x']]);
  });

  test('a message without the continuation marker (Arrow before 0.15) reads the same', () => {
    const field = new Field('v', new Float64(), true, new Map([['units', 'V']]));
    const bytes = schemaMessage(new Schema([field]));
    const legacy = bytes.subarray(4);
    expect(arrowFieldMetadata(legacy)).toEqual(new Map([['v', { units: 'V' }]]));
  });

  test('any truncation or damaged byte throws or answers, never reads outside the bytes', () => {
    const field = new Field('voltage', new Float64(), true, new Map([['units', 'V']]));
    const bytes = schemaMessage(new Schema([field]));
    fc.assert(
      fc.property(
        fc.nat({ max: bytes.length }),
        fc.nat({ max: bytes.length - 1 }),
        fc.integer({ min: 0, max: 255 }),
        (cut, at, value) => {
          const damaged = bytes.slice(0, cut);
          if (at < damaged.length) damaged[at] = value;
          try {
            expect(arrowFieldMetadata(damaged)).toBeInstanceOf(Map);
          } catch (err) {
            expect(err).toBeInstanceOf(Error);
            expect(['RangeError', 'TypeError']).toContain((err as Error).name);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  test('a message that is not a schema is refused', () => {
    const bytes = schemaMessage(new Schema([new Field('v', new Float64())]));
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    // Find the header_type byte (1 = Schema) through apache-arrow's own layout: flip it
    // in a copy and expect a TypeError or RangeError, never a wrong answer.
    const copy = bytes.slice();
    const message = 8 + view.getUint32(8, true);
    const vtable = message - new DataView(copy.buffer).getInt32(message, true);
    const headerTypeAt = message + new DataView(copy.buffer).getUint16(vtable + 6, true);
    expect(copy[headerTypeAt]).toBe(1);
    copy[headerTypeAt] = 2;
    expect(() => arrowFieldMetadata(copy)).toThrow(TypeError);
  });
});
