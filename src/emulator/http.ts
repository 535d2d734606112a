/**
 * The emulator's HTTP vocabulary: failures as gRPC-coded statuses, JSON answers, and the
 * guarded reading of a request's JSON body and path. Every route speaks through these.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { MAX_NESTING_DEPTH } from '../model/index.js';

/** gRPC code → HTTP status, as gateways map them. */
const HTTP_OF_CODE: Record<number, number> = {
  3: 400,
  5: 404,
  6: 409,
  7: 403,
  8: 429,
  9: 400,
  12: 501,
  13: 500,
  14: 503,
  16: 401,
};

export class HttpFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly details: Array<Record<string, unknown>> = [],
    /** The HTTP status, when not the one of `code`. */
    readonly http?: number,
  ) {
    super(message);
  }
}

export const invalid = (message: string, field?: string) =>
  new HttpFailure(
    3,
    message,
    field
      ? [
          {
            '@type': 'type.googleapis.com/google.rpc.BadRequest',
            fieldViolations: [{ field, description: message }],
          },
        ]
      : [],
  );
export const notFound = (what: string, id: string) => new HttpFailure(5, `${what} ${id} not found`);

export function send(
  res: ServerResponse,
  http: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  res.writeHead(http, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendStatus(
  res: ServerResponse,
  code: number,
  message: string,
  details: unknown[] = [],
  headers = {},
  http = HTTP_OF_CODE[code] ?? 500,
) {
  send(res, http, { code, message, details }, headers);
}

/**
 * The answer to a request that threw: its own failure, a 400 for a malformed
 * percent-encoding, else a 500 that names no server path (only the error's code).
 */
export function sendFailure(req: IncomingMessage, res: ServerResponse, err: unknown) {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  req.resume();
  if (err instanceof HttpFailure) {
    return sendStatus(res, err.code, err.message, err.details, {}, err.http);
  }
  if (err instanceof URIError) {
    return sendStatus(res, 3, 'the request path holds a malformed percent-encoding (%XX)');
  }
  const errno = (err as NodeJS.ErrnoException | undefined)?.code;
  const what = typeof errno === 'string' && /^[A-Z_]+$/.test(errno) ? ` (${errno})` : '';
  return sendStatus(res, 13, `internal error${what}: the request was not carried out`);
}

export async function readJson(req: IncomingMessage, limit = 16 * 1024 * 1024): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw invalid(`the request body is larger than ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid('the request body is not JSON');
  }
  // Deeper values would overflow the stack when the state is written (JSON.stringify).
  if (nestsBeyond(value, MAX_NESTING_DEPTH)) {
    throw invalid(`the request body nests more than ${MAX_NESTING_DEPTH} levels deep`);
  }
  return value;
}

/** Whether a parsed JSON value has an object or array deeper than `limit` (no recursion). */
export function nestsBeyond(value: unknown, limit: number): boolean {
  const stack: Array<{ v: unknown; depth: number }> = [{ v: value, depth: 0 }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    if (typeof top.v !== 'object' || top.v === null) continue;
    if (top.depth > limit) return true;
    for (const child of Object.values(top.v)) stack.push({ v: child, depth: top.depth + 1 });
  }
  return false;
}

export function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalid('the request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

/** A request body read with `schema`; its first problem is a 400 naming the field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const r = schema.safeParse(body);
  if (!r.success) {
    const first = r.error.issues[0];
    const where = first?.path.join('.') ?? '';
    throw invalid(
      `invalid request${where ? ` at ${where}` : ''}: ${first?.message ?? 'bad shape'}`,
      where || undefined,
    );
  }
  return r.data;
}

/** `patch[key]`, a non-empty string, else a 400 naming `what.key`. */
export function requiredId(patch: Record<string, unknown>, key: string, what: string): string {
  const id = patch[key];
  if (typeof id !== 'string' || id === '')
    throw invalid(`${what}.${key} is required`, `${what}.${key}`);
  return id;
}

/** The request's path and query as a URL (`//x` is a path here, not a host). */
export function requestUrl(target: string): URL {
  try {
    return new URL(`http://emulator${target.startsWith('/') ? '' : '/'}${target}`);
  } catch {
    throw invalid('the request path cannot be read as a URL path');
  }
}
