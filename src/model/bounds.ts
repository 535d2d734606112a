/** Integer bounds of the platform's scalar types (plain values: validation reads them without zod). */
export const UINT32_MAX = 4_294_967_295;
export const INT32_MIN = -2_147_483_648;
export const INT32_MAX = 2_147_483_647;
export const UINT64_MAX = 18_446_744_073_709_551_615n;
export const INT64_MIN = -9_223_372_036_854_775_808n;
export const INT64_MAX = 9_223_372_036_854_775_807n;

/**
 * How deep a config document (or a request body carrying one) may nest: deeper than any
 * config does (the deepest real path is about 12 levels). The validator reports deeper
 * documents; the emulator refuses deeper request bodies.
 */
export const MAX_NESTING_DEPTH = 64;
