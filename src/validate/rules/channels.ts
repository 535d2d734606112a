import { type Issue, issue } from '../../model/plain.js';
import { type ChannelAt, channelsOf, configsOf, join, list, obj, type Rule } from './_walk.js';

const ENUM = 'CHANNEL_DATA_TYPE_ENUM';
const BIT_FIELD = 'CHANNEL_DATA_TYPE_BIT_FIELD';

/**
 * Channel types and their extras: ENUM needs enumTypes (unique keys and names), BIT_FIELD
 * needs bitFieldElements (each 1 bit or more, within 64 bits, not overlapping), neither
 * list belongs on other types, and UNSPECIFIED is not a data type.
 */
export const channelTypeRule: Rule = (doc) => {
  const out: Issue[] = [];
  for (const c of configsOf(doc)) for (const ch of channelsOf(c)) checkChannel(ch, out);
  return out;
};

function checkChannel({ channel, path }: ChannelAt, out: Issue[]): void {
  const type = channel.dataType;
  const enumTypes = list(channel.enumTypes);
  const elements = list(channel.bitFieldElements);
  if (type === 'CHANNEL_DATA_TYPE_UNSPECIFIED') {
    out.push(
      issue(
        'unspecified_value',
        join(path, 'dataType'),
        'CHANNEL_DATA_TYPE_UNSPECIFIED is deprecated and does not say what the channel holds.',
        'Choose the data type, for example CHANNEL_DATA_TYPE_DOUBLE.',
      ),
    );
  }
  if (type === ENUM) {
    if (enumTypes.length === 0) {
      out.push(
        issue(
          'enum_types_missing',
          join(path, 'dataType'),
          'An ENUM channel needs enumTypes to name its values.',
          'Add enumTypes: [{ name, key }, ...] for every value the channel takes.',
        ),
      );
    }
    checkEnumTypes(enumTypes, path, out);
  } else if (enumTypes.length > 0) {
    out.push(
      issue(
        'enum_types_unexpected',
        join(path, 'enumTypes'),
        `enumTypes on a channel of type ${typeof type === 'string' ? type : '(not set)'}; only ENUM channels use them.`,
        'Set dataType: CHANNEL_DATA_TYPE_ENUM, or remove enumTypes.',
      ),
    );
  }
  if (type === BIT_FIELD) {
    if (elements.length === 0) {
      out.push(
        issue(
          'bit_field_elements_missing',
          join(path, 'dataType'),
          'A BIT_FIELD channel needs bitFieldElements.',
          'Add bitFieldElements: [{ name, index, bitCount }, ...].',
        ),
      );
    }
    checkBits(elements, path, out);
  } else if (elements.length > 0) {
    out.push(
      issue(
        'bit_field_elements_unexpected',
        join(path, 'bitFieldElements'),
        `bitFieldElements on a channel of type ${typeof type === 'string' ? type : '(not set)'}; only BIT_FIELD channels use them.`,
        'Set dataType: CHANNEL_DATA_TYPE_BIT_FIELD, or remove bitFieldElements.',
      ),
    );
  }
}

/** Every enum type has its own key and its own name. */
function checkEnumTypes(enumTypes: unknown[], path: string, out: Issue[]): void {
  const keys = new Map<unknown, number>();
  const names = new Map<unknown, number>();
  enumTypes.forEach((e, i) => {
    const t = obj(e);
    if (!t) return;
    if (t.key !== undefined) {
      const first = keys.get(t.key);
      if (first !== undefined) {
        out.push(
          issue(
            'enum_types_duplicate_key',
            join(path, 'enumTypes', i, 'key'),
            `Enum key ${String(t.key)} is used twice (also by enumTypes/${first}).`,
            'Give every enum type its own key.',
          ),
        );
      } else keys.set(t.key, i);
    }
    if (t.name !== undefined) {
      const first = names.get(t.name);
      if (first !== undefined) {
        out.push(
          issue(
            'enum_types_duplicate_name',
            join(path, 'enumTypes', i, 'name'),
            `Enum name ${JSON.stringify(t.name)} is used twice (also by enumTypes/${first}).`,
            'Give every enum type its own name.',
          ),
        );
      } else names.set(t.name, i);
    }
  });
}

function checkBits(elements: unknown[], path: string, out: Issue[]): void {
  const spans: Array<{ i: number; from: number; to: number }> = [];
  elements.forEach((e, i) => {
    const el = obj(e);
    if (!el) return;
    const index = typeof el.index === 'number' ? el.index : 0;
    const count = el.bitCount;
    if (typeof count !== 'number') return;
    const at = join(path, 'bitFieldElements', i);
    if (count === 0) {
      out.push(
        issue(
          'bit_field_count_zero',
          join(at, 'bitCount'),
          `Bit-field element ${JSON.stringify(el.name ?? i)} has bitCount 0 and covers no bits.`,
          'Give the number of bits the element spans (1 or more).',
        ),
      );
      return;
    }
    if (index < 0 || index + count > 64) {
      out.push(
        issue(
          'bit_field_element_past_64_bits',
          at,
          `Bit-field element ${JSON.stringify(el.name ?? i)} covers bits ${index} to ${index + count - 1}, outside 0 to 63.`,
          'Keep every element within bits 0 to 63 (index + bitCount ≤ 64).',
        ),
      );
      return;
    }
    const clash = spans.find((s) => index < s.to && s.from < index + count);
    if (clash) {
      out.push(
        issue(
          'bit_field_elements_overlap',
          at,
          `Bit-field element ${JSON.stringify(el.name ?? i)} (bits ${index} to ${index + count - 1}) overlaps bitFieldElements/${clash.i} (bits ${clash.from} to ${clash.to - 1}).`,
          'Fix index and bitCount so that the elements do not overlap (a missing index is 0).',
        ),
      );
    }
    spans.push({ i, from: index, to: index + count });
  });
}
