/** A worker for the ordered pool's tests: each part comes back named as read by a worker. */
import { serveParts } from '../../src/values/index.js';

serveParts(async (part: number, input: { tag: string }) => ({ part, by: `worker ${input.tag}` }));
