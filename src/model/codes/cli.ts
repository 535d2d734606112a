import type { CodeDoc } from './_types.js';

/** Issue codes of the cli stage. */
export const cliCodes = {} as const satisfies Record<string, CodeDoc>;
