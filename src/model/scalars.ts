import { z } from 'zod';

/**
 * Scalar shapes shared by every config. 64-bit integers are decimal strings (the proto3
 * JSON mapping; JSON numbers lose precision past 2^53). Range checks beyond what a JSON
 * Schema pattern can say (int64 bounds) run as semantic rules in validate/.
 */
export const UINT32_MAX = 4_294_967_295;
export const INT32_MIN = -2_147_483_648;
export const INT32_MAX = 2_147_483_647;
export const UINT64_MAX = 18_446_744_073_709_551_615n;
export const INT64_MIN = -9_223_372_036_854_775_808n;
export const INT64_MAX = 9_223_372_036_854_775_807n;

export const Uint32 = z.int().min(0).max(UINT32_MAX);
export const Int32 = z.int().min(INT32_MIN).max(INT32_MAX);
/** An unsigned 64-bit integer written as a decimal string. */
export const Uint64String = z.string().regex(/^(0|[1-9][0-9]*)$/, 'a decimal string of digits');
/** A signed 64-bit integer written as a decimal string. */
export const Int64String = z.string().regex(/^-?(0|[1-9][0-9]*)$/, 'a decimal integer string');
/** An RFC 3339 timestamp with a zone (`Z` or an offset). */
export const Timestamp = z.iso.datetime({ offset: true });
