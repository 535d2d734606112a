/**
 * Reading a config as plain JSON (it may not have passed validation: the emulator answers
 * for any body it is given): an object, a list of objects, a non-empty string, or nothing.
 */
export type Obj = Record<string, unknown>;

export const obj = (v: unknown): Obj | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;

export const arr = (v: unknown): Obj[] =>
  Array.isArray(v) ? v.map(obj).filter((x): x is Obj => !!x) : [];

export const str = (v: unknown): string | undefined =>
  typeof v === 'string' && v !== '' ? v : undefined;
