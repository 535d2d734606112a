import type { CodeDoc } from './_types.js';

/** Issue codes of client. */
export const clientCodes = {} as const satisfies Record<string, CodeDoc>;
