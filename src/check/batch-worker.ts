/**
 * A worker thread of a batch check on several cores (batch-threads.ts): it gets the batch
 * config, the folder and the member options once, then examines each run of members it is
 * sent and posts back what it saw of each.
 */
import { serveParts } from '../values/index.js';
import { type BatchThreadInput, examineRun } from './batch-threads.js';

serveParts((run: string[], input: BatchThreadInput) => examineRun(input, run));
