import type { CodeDoc } from './_types.js';

/** Issue codes of parquet. */
export const parquetCodes = {} as const satisfies Record<string, CodeDoc>;
