/**
 * Scalar shapes shared by every config. 64-bit integers are decimal strings (the proto3
 * JSON mapping; JSON numbers lose precision past 2^53). Range checks beyond what a JSON
 * Schema pattern can say (int64 bounds) run as semantic rules in validate/.
 */
import { z } from 'zod';
import { INT32_MAX, INT32_MIN, UINT32_MAX } from './bounds.js';

export { INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN, UINT32_MAX, UINT64_MAX } from './bounds.js';

export const Uint32 = z.int().min(0).max(UINT32_MAX);
export const Int32 = z.int().min(INT32_MIN).max(INT32_MAX);
/** An unsigned 64-bit integer written as a decimal string. */
export const Uint64String = z.string().regex(/^(0|[1-9][0-9]*)$/, 'a decimal string of digits');
/** A signed 64-bit integer written as a decimal string. */
export const Int64String = z.string().regex(/^-?(0|[1-9][0-9]*)$/, 'a decimal integer string');
/** An RFC 3339 timestamp with a zone (`Z` or an offset). */
export const Timestamp = z.iso.datetime({ offset: true });
