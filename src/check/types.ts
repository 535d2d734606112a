import type { ChannelDataType } from '../model/index.js';

/** How a declared channel type meets the type the file stores. */
export type TypeFit = 'ok' | 'mismatch' | 'narrow' | 'wide';

type Short =
  | 'BOOL'
  | 'INT_32'
  | 'UINT_32'
  | 'INT_64'
  | 'UINT_64'
  | 'FLOAT'
  | 'DOUBLE'
  | 'STRING'
  | 'BYTES'
  | 'ENUM'
  | 'BIT_FIELD';

/** For each declared type: file types it holds exactly, and those it holds with loss. */
const HOLDS: Record<Short, { exact: Short[]; lossy?: Short[]; wideFor?: Short[] }> = {
  BOOL: { exact: ['BOOL'] },
  INT_32: { exact: ['INT_32'], wideFor: [] },
  UINT_32: { exact: ['UINT_32'] },
  INT_64: { exact: ['INT_64'], wideFor: ['INT_32', 'UINT_32'] },
  UINT_64: { exact: ['UINT_64'], wideFor: ['UINT_32'] },
  FLOAT: { exact: ['FLOAT'], lossy: ['DOUBLE', 'INT_32', 'UINT_32', 'INT_64', 'UINT_64'] },
  DOUBLE: {
    exact: ['DOUBLE'],
    lossy: ['INT_64', 'UINT_64'],
    wideFor: ['FLOAT', 'INT_32', 'UINT_32'],
  },
  STRING: { exact: ['STRING'] },
  BYTES: { exact: ['BYTES'], wideFor: ['STRING'] },
  ENUM: { exact: ['ENUM', 'INT_32', 'UINT_32'] },
  BIT_FIELD: { exact: ['INT_32', 'UINT_32', 'INT_64', 'UINT_64'] },
};

/**
 * Whether a channel declared as `declared` fits a file column stored as `actual`: exactly,
 * needlessly wide (DOUBLE for integers, INT_64 for 32-bit integers), losing precision
 * (FLOAT for doubles, DOUBLE for 64-bit integers), or not at all (INT_32 for text).
 */
export function fitOf(declared: ChannelDataType, actual: ChannelDataType): TypeFit {
  const d = declared.replace(/^CHANNEL_DATA_TYPE_/, '') as Short;
  const a = actual.replace(/^CHANNEL_DATA_TYPE_/, '') as Short;
  const rule = HOLDS[d];
  if (!rule) return 'ok';
  if (rule.exact.includes(a)) return 'ok';
  if (rule.wideFor?.includes(a)) return 'wide';
  if (rule.lossy?.includes(a)) return 'narrow';
  return 'mismatch';
}
