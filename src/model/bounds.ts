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

/**
 * A compressed upload (a gzip file, an archive's members) may unpack to at most this many
 * times its size, past INFLATION_SLACK: beyond it, it is treated as a decompression bomb.
 * The command line's archive walks and the emulator keep the same bound.
 */
export const MAX_INFLATION_RATIO = 100;
/** Room above the ratio, so that a small archive of small files is never refused. */
export const INFLATION_SLACK = 16 * 1024 * 1024;
