/**
 * Reading a config as plain JSON, where it may not have passed validation (the emulator
 * answers for any body it is given): an object, a list of the objects in a value, a string
 * that is set, or nothing.
 */
export type JsonObject = Record<string, unknown>;

/** `v` when it is an object (not null, not a list), else undefined. */
export const jsonObject = (v: unknown): JsonObject | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as JsonObject) : undefined;

/** The objects of `v` when it is a list (other items left out), else []. */
export const jsonObjects = (v: unknown): JsonObject[] =>
  Array.isArray(v) ? v.map(jsonObject).filter((x): x is JsonObject => !!x) : [];

/** `v` when it is a string that is not empty, else undefined. */
export const jsonText = (v: unknown): string | undefined =>
  typeof v === 'string' && v !== '' ? v : undefined;
