import type { CodeDoc } from './_types.js';

/** Issue codes of hdf5. */
export const hdf5Codes = {} as const satisfies Record<string, CodeDoc>;
