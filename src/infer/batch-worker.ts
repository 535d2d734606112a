/**
 * A worker thread of `infer` of a folder on several cores (batch-threads.ts): it gets the
 * folder and the options once, then infers each run of members it is sent and posts back
 * what it found of each.
 */
import { serveParts } from '../values/index.js';
import { type InferThreadInput, inferRun } from './batch-threads.js';

serveParts((run: string[], input: InferThreadInput) => inferRun(input, run));
