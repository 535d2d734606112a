import type { CodeDoc } from './_types.js';

/** Issue codes of the check stage. */
export const checkCodes = {} as const satisfies Record<string, CodeDoc>;
