import type { CodeDoc } from './_types.js';

/** Issue codes of csv. */
export const csvCodes = {} as const satisfies Record<string, CodeDoc>;
