import type { CodeDoc } from './_types.js';

/** Issue codes of the infer stage. */
export const inferCodes = {} as const satisfies Record<string, CodeDoc>;
