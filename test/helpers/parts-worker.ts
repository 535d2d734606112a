/**
 * A worker for the ordered pool's tests: each part comes back named as read by a worker; at
 * its `input.dieAt`-th part (counted from 1) the worker ends, with parts still waiting in
 * its queue when it is given more than one at once. With `input.waitMs`, each part takes
 * that long (a worker slower than this thread).
 */
import { serveParts } from '../../src/values/index.js';

let parts = 0;
serveParts(async (part: number, input: { tag: string; dieAt?: number; waitMs?: number }) => {
  parts += 1;
  if (parts === input.dieAt) process.exit(1);
  if (input.waitMs) await new Promise((resolve) => setTimeout(resolve, input.waitMs));
  return { part, by: `worker ${input.tag}` };
});
