/**
 * TDMS data types (NI's "TDMS File Format Internal Structure"): the code written in a raw
 * data index or a property, its short name and its size in bytes (undefined: variable or
 * unknown).
 */
export interface TdmsTypeInfo {
  name: string;
  size?: number;
}

export const TDMS_TYPES: ReadonlyMap<number, TdmsTypeInfo> = new Map<number, TdmsTypeInfo>([
  [0x00, { name: 'void', size: 0 }],
  [0x01, { name: 'i8', size: 1 }],
  [0x02, { name: 'i16', size: 2 }],
  [0x03, { name: 'i32', size: 4 }],
  [0x04, { name: 'i64', size: 8 }],
  [0x05, { name: 'u8', size: 1 }],
  [0x06, { name: 'u16', size: 2 }],
  [0x07, { name: 'u32', size: 4 }],
  [0x08, { name: 'u64', size: 8 }],
  [0x09, { name: 'f32', size: 4 }],
  [0x0a, { name: 'f64', size: 8 }],
  [0x0b, { name: 'extended', size: 16 }],
  [0x19, { name: 'f32-unit', size: 4 }],
  [0x1a, { name: 'f64-unit', size: 8 }],
  [0x1b, { name: 'extended-unit', size: 16 }],
  [0x20, { name: 'string' }],
  [0x21, { name: 'bool', size: 1 }],
  [0x44, { name: 'timestamp', size: 16 }],
  [0x4f, { name: 'fixed-point' }],
  [0x08000c, { name: 'complex-f32', size: 8 }],
  [0x10000d, { name: 'complex-f64', size: 16 }],
  [0xffffffff, { name: 'daqmx' }],
]);

/** Type codes by short name (the writer of the test tooling uses these). */
export const TDMS_TYPE_CODES: Readonly<Record<string, number>> = Object.fromEntries(
  [...TDMS_TYPES].map(([code, info]) => [info.name, code]),
);

/** DAQmx scaler data types: their codes differ from the TDMS ones. */
export const DAQMX_SCALER_TYPES: ReadonlyMap<number, TdmsTypeInfo> = new Map([
  [0, { name: 'u8', size: 1 }],
  [1, { name: 'i8', size: 1 }],
  [2, { name: 'u16', size: 2 }],
  [3, { name: 'i16', size: 2 }],
  [4, { name: 'u32', size: 4 }],
  [5, { name: 'i32', size: 4 }],
  [6, { name: 'u64', size: 8 }],
  [7, { name: 'i64', size: 8 }],
  [8, { name: 'f32', size: 4 }],
  [9, { name: 'f64', size: 8 }],
]);

/** The name of a type code, `type 0x…` for codes no TDMS writer uses. */
export function tdmsTypeName(code: number): string {
  return TDMS_TYPES.get(code)?.name ?? `type 0x${code.toString(16)}`;
}

/** Seconds from the TDMS epoch (1904-01-01 00:00 UTC) to the unix epoch. */
export const TDMS_EPOCH_OFFSET = 2_082_844_800n;

/**
 * A TDMS timestamp (i64 seconds since 1904 + u64 fractions of 2^-64 s) as RFC 3339 UTC
 * with as many fractional digits as needed (up to nanoseconds).
 */
export function tdmsTimestampText(seconds: bigint, fraction: bigint): string {
  const unix = seconds - TDMS_EPOCH_OFFSET;
  const nanos = (fraction * 1_000_000_000n) >> 64n;
  const ms = Number(unix) * 1000;
  const base = new Date(ms);
  if (Number.isNaN(base.getTime())) return `${seconds}s+${fraction}/2^64 since 1904`;
  const iso = base.toISOString().replace(/\.\d{3}Z$/, '');
  const frac = nanos === 0n ? '' : `.${nanos.toString().padStart(9, '0').replace(/0+$/, '')}`;
  return `${iso}${frac}Z`;
}

/** RFC 3339 → TDMS seconds and fraction (the writer of the test tooling). */
export function tdmsTimestampOf(rfc3339: string): { seconds: bigint; fraction: bigint } {
  const m = /^(.*?)(?:\.(\d{1,9}))?Z$/.exec(rfc3339);
  const whole = Date.parse(`${m?.[1] ?? rfc3339}Z`);
  const nanos = BigInt((m?.[2] ?? '').padEnd(9, '0') || '0');
  const seconds = BigInt(Math.floor(whole / 1000)) + TDMS_EPOCH_OFFSET;
  const fraction = nanos === 0n ? 0n : ((nanos << 64n) + 999_999_999n) / 1_000_000_000n;
  return { seconds, fraction };
}
