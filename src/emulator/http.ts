/**
 * The emulator's HTTP vocabulary: failures as gRPC-coded statuses, JSON answers, and the
 * guarded reading of a request's JSON body and path. Every route speaks through these.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
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

/**
 * The largest JSON request body: 4 MiB, gRPC's default largest message, which a gRPC
 * service behind an HTTP gateway keeps unless it is raised (see docs/client.md).
 */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** The longest string (or object key) a stored body may hold, in UTF-8 bytes: 64 KiB. */
export const MAX_STRING_BYTES = 64 * 1024;

const tooLarge = (limit: number) =>
  new HttpFailure(
    3,
    `the request body is larger than ${limit} bytes (${limit / 1024 / 1024} MiB), the most this service accepts`,
    [],
    413,
  );

/**
 * A request's JSON body: at most MAX_BODY_BYTES (else 413), nested at most
 * MAX_NESTING_DEPTH deep, and, unless `longStrings` (a body that is not stored), no string
 * or key longer than MAX_STRING_BYTES (else a 400 naming the field).
 */
export async function readJson(
  req: IncomingMessage,
  options: { longStrings?: boolean } = {},
): Promise<unknown> {
  const limit = MAX_BODY_BYTES;
  if (Number(req.headers['content-length'] ?? 0) > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge(limit);
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
  if (!options.longStrings) boundStrings(value);
  return value;
}

/** A 400 naming the first string or key of `value` longer than MAX_STRING_BYTES. */
function boundStrings(value: unknown): void {
  const stack: Array<{ v: unknown; path: string }> = [{ v: value, path: '' }];
  const over = (s: string) =>
    s.length > MAX_STRING_BYTES / 3 && Buffer.byteLength(s) > MAX_STRING_BYTES;
  const fail = (what: string, field: string, s: string) =>
    invalid(
      `${what} is ${Buffer.byteLength(s)} bytes long: a string may be at most ${MAX_STRING_BYTES} bytes (64 KiB)`,
      field,
    );
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { v, path } = top;
    if (typeof v === 'string' && over(v)) throw fail(path || 'the body', path, v);
    if (typeof v !== 'object' || v === null) continue;
    for (const [k, child] of Object.entries(v)) {
      const at = path ? `${path}.${k}` : k;
      if (over(k)) throw fail(`a key in ${path || 'the body'}`, path, k);
      stack.push({ v: child, path: at });
    }
  }
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
