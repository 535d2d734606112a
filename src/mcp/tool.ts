/**
 * One tool: its name, what it is for, its input and output as zod schemas (listed as JSON
 * Schemas), and `run`, which answers the structured value and a short text summary.
 * Tools are rows of one table (`tools/index.ts`); the server knows nothing of any of them.
 */
import type { z } from 'zod';
import type { Client } from '../client/index.js';
import type { JobInput, JobName, JobOutput } from './jobs.js';
import type { Sandbox } from './sandbox.js';

/** What a tool call gets besides its arguments. */
export interface ToolContext {
  sandbox: Sandbox;
  /** Runs a job in a thread of its own (bounded time and memory, ended on cancellation). */
  apart<J extends JobName>(job: J, input: JobInput<J>): Promise<JobOutput<J>>;
  /** Reports progress; sent to the client when it asked for progress. */
  progress(done: number, total?: number, message?: string): void;
  /** Aborted when the client cancels the call. */
  signal: AbortSignal;
  /** The platform's client (submit, status): from the environment, as the CLI makes it. */
  client(): Client;
}

export interface ToolAnswer<O> {
  value: O;
  /** A line or a few for people (and agents that read text only). */
  text: string;
}

export interface ToolDef<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  /** Writes nothing but into the output folder, and sends nothing. */
  readOnly: boolean;
  run(args: z.infer<I>, context: ToolContext): Promise<ToolAnswer<z.infer<O>>>;
}

/** A tool definition, typed from its schemas. */
export function tool<I extends z.ZodObject, O extends z.ZodObject>(def: ToolDef<I, O>): ToolDef {
  return def as unknown as ToolDef;
}
