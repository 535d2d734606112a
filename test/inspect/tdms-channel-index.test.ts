/**
 * The TDMS channel index (src/formats/tdms/channel-index.ts) answers what a search of the
 * profile's channels in order answers: the first channel of a group and name, the first
 * timestamp channel of a group.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { channelIndex } from '../../src/formats/tdms/channel-index.js';
import type { TdmsProfile } from '../../src/formats/tdms/inspect.js';

const channelArb = fc.record({
  group: fc.constantFrom('', 'G', 'H'),
  name: fc.constantFrom('a', 'b', 'Time', ''),
  dataType: fc.constantFrom('timestamp', 'f64', 'none'),
});

test('property: lookups equal a search of the channels in order', () => {
  fc.assert(
    fc.property(fc.array(channelArb, { maxLength: 12 }), (list) => {
      const channels = list.map((c, i) => ({ ...c, path: `#${i}` }));
      const index = channelIndex({ channels } as unknown as TdmsProfile);
      for (const group of ['', 'G', 'H', 'X', undefined]) {
        for (const name of ['a', 'b', 'Time', '', undefined]) {
          const first = channels.find((c) => c.group === (group ?? '') && c.name === (name ?? ''));
          expect(index.find(group, name)).toBe(first);
        }
        const stamp = channels.find((c) => c.group === group && c.dataType === 'timestamp');
        if (group !== undefined) expect(index.stampOf(group)).toBe(stamp?.name);
      }
    }),
  );
});
