import type { CodeDoc } from './_types.js';

/** Issue codes of the validate stage. */
export const validateCodes = {} as const satisfies Record<string, CodeDoc>;
