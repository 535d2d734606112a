import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  body,
  expectedFields,
  expectedType,
  type FieldSpec,
  type FormatSpec,
  sizeOf,
  UlogWriter,
} from '../../scripts/fixtures/ulog-writer.js';
import { draftFromUlogProfile } from '../../src/formats/ulog/infer.js';
import { inspectUlogSource } from '../../src/formats/ulog/inspect.js';
import { memorySource } from '../../src/inspect/byte-source.js';

const PRIMITIVES = [
  'int8_t',
  'uint8_t',
  'int16_t',
  'uint16_t',
  'int32_t',
  'uint32_t',
  'int64_t',
  'uint64_t',
  'float',
  'double',
  'bool',
  'char',
];

const ident = fc.stringMatching(/^[a-z][a-z0-9_]{0,10}$/);

/** A field of a primitive type or of an earlier format, maybe an array, maybe padding. */
function fieldArb(earlier: readonly string[]): fc.Arbitrary<Omit<FieldSpec, 'name'>> {
  const types = [...PRIMITIVES, ...earlier];
  return fc.record(
    {
      type: fc.constantFrom(...types),
      array: fc.integer({ min: 1, max: 4 }),
    },
    { requiredKeys: ['type'] },
  );
}

/** Nested formats (each may use earlier ones: no cycles), then top-level formats with timestamp. */
const logArb = fc
  .record({
    nested: fc.integer({ min: 0, max: 3 }),
    top: fc.integer({ min: 1, max: 4 }),
  })
  .chain(({ nested, top }) => {
    const names = [
      ...Array.from({ length: nested }, (_, i) => `nested_${i}`),
      ...Array.from({ length: top }, (_, i) => `topic_${i}`),
    ];
    const formats = names.map((name, i) =>
      fc
        .uniqueArray(fc.tuple(ident, fieldArb(names.slice(0, Math.min(i, nested))), fc.boolean()), {
          minLength: 1,
          maxLength: 6,
          selector: ([n]) => n,
        })
        .map((fields): FormatSpec => {
          const list: FieldSpec[] = fields
            .filter(([n]) => n !== 'timestamp')
            .map(([n, f, pad]) => ({
              ...f,
              name: pad && f.type === 'uint8_t' ? `_padding${n}` : n,
            }));
          const isTop = name.startsWith('topic_');
          return {
            name,
            fields: isTop ? [{ type: 'uint64_t', name: 'timestamp' }, ...list] : list,
          };
        }),
    );
    return fc.record({
      formats: fc.tuple(...formats),
      instances: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: top, maxLength: top }),
    });
  });

describe('ULog format definitions written then inferred back', () => {
  test('every (message, instance, field) comes back with its platform name and type', async () => {
    await fc.assert(
      fc.asyncProperty(logArb, async ({ formats, instances }) => {
        const w = new UlogWriter();
        w.flagBits();
        for (const f of formats) w.format(f);
        const tops = formats.filter((f) => f.name.startsWith('topic_'));
        let msgId = 0;
        const subs: Array<{ f: FormatSpec; multi: number; id: number }> = [];
        for (const [i, f] of tops.entries()) {
          for (let m = 0; m < (instances[i] ?? 1); m++) subs.push({ f, multi: m, id: msgId++ });
        }
        for (const s of subs) w.subscribe(s.multi, s.id, s.f.name);
        for (const s of subs) w.data(s.id, body(sizeOf(s.f.name, formats), 5n));
        const profile = await inspectUlogSource(memorySource(w.bytes(), 'gen.ulg'));
        const draft = draftFromUlogProfile(profile, { relativeStartTime: '2024-01-01T00:00:00Z' });
        const expected = subs.flatMap((s) =>
          expectedFields(s.f, formats).map((leaf) => ({
            messageName: s.f.name,
            instance: String(s.multi),
            fieldName: leaf.field,
            channelConfig: {
              name: `${s.f.name}_${s.multi}.${leaf.field}`,
              dataType: expectedType(leaf.type),
            },
          })),
        );
        expect(draft.document.ulogConfig?.data).toEqual(expected);
        expect(profile.issues).toEqual([]);
        expect(profile.subscriptions.map((s) => s.messages)).toEqual(subs.map(() => 1));
      }),
      { numRuns: 60 },
    );
  });
});
