/**
 * The integer ranges of the platform's channel types. Plain constants with no import, so
 * code that only compares numbers (a CSV scan in a worker thread) loads nothing else.
 */
export const UINT32_MAX = 4_294_967_295;
export const INT32_MIN = -2_147_483_648;
export const INT32_MAX = 2_147_483_647;
export const UINT64_MAX = 18_446_744_073_709_551_615n;
export const INT64_MIN = -9_223_372_036_854_775_808n;
export const INT64_MAX = 9_223_372_036_854_775_807n;
