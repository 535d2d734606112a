/**
 * Reads the field metadata of an Arrow IPC schema message (the `ARROW:schema` entry of a
 * Parquet footer) without a full Arrow implementation. The message is a flatbuffer:
 * `Message { version, header_type, header: Schema, ... }`, `Schema { endianness,
 * fields: [Field], ... }`, `Field { name, nullable, type_type, type, dictionary, children,
 * custom_metadata: [KeyValue] }`, `KeyValue { key, value }` (Arrow's `Message.fbs` and
 * `Schema.fbs`). Only the top-level fields' names and metadata are read. Every offset is
 * bounds-checked: a damaged message throws `RangeError`, never reads outside the bytes.
 */

/** Arrow's `MessageHeader` union: 1 is `Schema`. */
const HEADER_SCHEMA = 1;
/** The continuation marker that prefixes IPC messages since Arrow 0.15. */
const CONTINUATION = 0xffffffff;

/** Positioned reads of a flatbuffer's tables, vectors and strings. */
class FlatBuffer {
  private readonly view: DataView;
  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private check(pos: number, size: number): number {
    if (!Number.isInteger(pos) || pos < 0 || pos + size > this.bytes.length)
      throw new RangeError(`flatbuffer read at ${pos} outside ${this.bytes.length} bytes`);
    return pos;
  }

  u8(pos: number): number {
    return this.view.getUint8(this.check(pos, 1));
  }
  u16(pos: number): number {
    return this.view.getUint16(this.check(pos, 2), true);
  }
  u32(pos: number): number {
    return this.view.getUint32(this.check(pos, 4), true);
  }
  i32(pos: number): number {
    return this.view.getInt32(this.check(pos, 4), true);
  }

  /** Where field `index` of the table at `table` is stored, or undefined when absent. */
  field(table: number, index: number): number | undefined {
    const vtable = table - this.i32(table);
    const vtableSize = this.u16(vtable);
    const slot = 4 + 2 * index;
    if (slot + 2 > vtableSize) return undefined;
    const offset = this.u16(vtable + slot);
    return offset === 0 ? undefined : table + offset;
  }

  /** The table, vector or string an offset field points at. */
  deref(pos: number): number {
    return pos + this.u32(pos);
  }

  /** Positions of the tables of a vector of tables. */
  tables(vector: number): number[] {
    const length = this.u32(vector);
    this.check(vector + 4, 4 * length);
    return Array.from({ length }, (_, i) => this.deref(vector + 4 + 4 * i));
  }

  string(pos: number): string {
    const length = this.u32(pos);
    const start = this.check(pos + 4, length);
    return new TextDecoder().decode(this.bytes.subarray(start, start + length));
  }

  /** A string field of a table ('' when absent). */
  stringField(table: number, index: number): string {
    const at = this.field(table, index);
    return at === undefined ? '' : this.string(this.deref(at));
  }
}

/** The flatbuffer of the first message: after the optional continuation marker and length. */
function messageBytes(bytes: Uint8Array): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 8) throw new RangeError('Arrow IPC message shorter than 8 bytes');
  const start = view.getUint32(0, true) === CONTINUATION ? 4 : 0;
  const length = view.getInt32(start, true);
  if (length <= 0 || start + 4 + length > bytes.length)
    throw new RangeError(`Arrow IPC message length ${length} outside ${bytes.length} bytes`);
  return bytes.subarray(start + 4, start + 4 + length);
}

/** A `[KeyValue]` vector as a record (later keys win, as Arrow's readers do). */
function keyValues(fb: FlatBuffer, table: number, index: number): Record<string, string> {
  const at = fb.field(table, index);
  const out: Record<string, string> = {};
  if (at === undefined) return out;
  // Defined, not assigned: a key named `__proto__` is a key like any other, not the prototype.
  for (const kv of fb.tables(fb.deref(at)))
    Object.defineProperty(out, fb.stringField(kv, 0), {
      value: fb.stringField(kv, 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}

/**
 * The custom metadata of each top-level field of a serialized Arrow schema, by field name
 * (fields without metadata are left out). Throws `RangeError` on a damaged message and
 * `TypeError` when the message is not a schema.
 */
export function arrowFieldMetadata(bytes: Uint8Array): Map<string, Record<string, string>> {
  const fb = new FlatBuffer(messageBytes(bytes));
  const message = fb.deref(0);
  const headerType = fb.field(message, 1);
  const header = fb.field(message, 2);
  if (headerType === undefined || fb.u8(headerType) !== HEADER_SCHEMA || header === undefined)
    throw new TypeError('the Arrow IPC message is not a schema');
  const schema = fb.deref(header);
  const fields = fb.field(schema, 1);
  const out = new Map<string, Record<string, string>>();
  if (fields === undefined) return out;
  for (const field of fb.tables(fb.deref(fields))) {
    const metadata = keyValues(fb, field, 6);
    if (Object.keys(metadata).length > 0) out.set(fb.stringField(field, 0), metadata);
  }
  return out;
}
