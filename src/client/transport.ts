/**
 * The transport: one function that sends a request with the bearer key, a per-attempt
 * timeout, an overall deadline, the caller's signal, and retries where they are safe.
 * Every operation goes through it; nothing else in the client touches `fetch`.
 */
import { Status } from '../model/index.js';
import { anySignal, deadlineSignal, delay } from './delay.js';
import {
  ApiError,
  ClientError,
  NetworkError,
  type RequestPlace,
  ResponseError,
  redact,
  TimeoutError,
} from './errors.js';
import { IdleTimeout, nodeSend, type SendInit } from './node-send.js';
import { backoffDelay, parseRetryAfter, type RetryOptions, retryPolicy } from './retry.js';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface TransportOptions {
  /** The service's base address, e.g. `https://api.example.com` (a path prefix is kept). */
  baseUrl: string;
  /**
   * The API key, sent as `Authorization: Bearer <key>` to the origin of `baseUrl` only
   * (an upload URL on another origin gets no key), and never over plain http to another
   * machine: an `http://` baseUrl must be 127.0.0.1, localhost or [::1], or a host named in
   * `allowHttpHosts`.
   */
  apiKey: string;
  /**
   * Hosts (as `baseUrl` names them: `emulator`, `10.0.0.5`) the key may be sent to over plain
   * http, on a network you trust: a CI service container, a docker compose service. The key
   * crosses that network in clear text; say so to whoever runs it. Default: none.
   */
  allowHttpHosts?: readonly string[];
  /** A fetch to use instead of the global one (tests, proxies, instrumentation). */
  fetch?: FetchLike;
  /** One attempt's time limit in ms (default 30 s; 0: none). */
  timeoutMs?: number;
  /** One call's overall time limit across its retries in ms (default 120 s; 0: none). */
  deadlineMs?: number;
  /**
   * A streamed upload whose connection sends and receives nothing this long fails with a
   * TimeoutError, in ms (default 60 s; 0: none).
   */
  idleTimeoutMs?: number;
  /** Retry policy, or the number of retries. */
  retry?: RetryOptions | number;
  /** The User-Agent header. */
  userAgent?: string;
  /** Receives one line per attempt and per retry (never the key). */
  log?: (line: string) => void;
  /** Random source for jitter (tests make it fixed). */
  random?: () => number;
}

export type QueryValue =
  | string
  | number
  | boolean
  | undefined
  | readonly (string | number | boolean)[];

/**
 * `safe`: retried on network errors, attempt timeouts and retryable statuses (GETs,
 * polling, requests that cannot create anything twice). `unsent`: retried only when the
 * request provably never reached the server (connection refused, name not resolved).
 */
export type RetryMode = 'safe' | 'unsent';

export interface PreparedBody {
  body: NonNullable<RequestInit['body']>;
  headers?: Record<string, string>;
  /** Called after the attempt, whatever its outcome (closes a file). */
  close?: () => Promise<void>;
}

export interface RequestSpec<T> {
  method: 'GET' | 'POST' | 'PATCH';
  /** A path under the base URL (`/api/v2/runs`) or an absolute URL the server handed out. */
  path: string;
  query?: Record<string, QueryValue>;
  /** A JSON body. */
  json?: unknown;
  /** A body made fresh for each attempt (streams cannot be sent twice). */
  body?: () => Promise<PreparedBody>;
  retry: RetryMode;
  signal?: AbortSignal | undefined;
  /** Overrides the client's per-attempt timeout (0: none). */
  timeoutMs?: number | undefined;
  /** Overrides the client's deadline (0: none). */
  deadlineMs?: number | undefined;
  /** Turns the parsed JSON body into the result; throws ResponseError when it does not fit. */
  parse: (body: unknown, place: RequestPlace) => T;
}

/** Errno codes that mean the connection was never made, so the request never left. */
const UNSENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

export interface Transport {
  request<T>(spec: RequestSpec<T>): Promise<T>;
  /** The absolute URL of a path (query included). */
  url(path: string, query?: Record<string, QueryValue>): string;
  readonly log: (line: string) => void;
  /** Redacts the API key from a text. */
  redact(text: string): string;
}

/** The transport's settings, resolved once from its options. */
interface TransportConfig {
  apiKey: string;
  base: string;
  baseOrigin: string;
  idleTimeoutMs: number;
  doFetch: FetchLike;
  streamFetch: FetchLike;
  policy: ReturnType<typeof retryPolicy>;
  attemptTimeout: number;
  defaultDeadline: number;
  random: () => number;
  userAgent: string;
  log: (line: string) => void;
  hide: (text: string) => string;
}

/** Checks the options and fills in the defaults. */
function resolveOptions(options: TransportOptions): TransportConfig {
  if (typeof options.baseUrl !== 'string' || !/^https?:\/\//i.test(options.baseUrl)) {
    throw new ClientError('baseUrl must be an http or https address', 'client_options_invalid');
  }
  if (typeof options.apiKey !== 'string' || options.apiKey.length === 0) {
    throw new ClientError('apiKey must be a non-empty string', 'client_options_invalid');
  }
  const apiKey = options.apiKey;
  const base = options.baseUrl.replace(/\/+$/, '');
  return {
    apiKey,
    base,
    baseOrigin: keyedOrigin(base, options.allowHttpHosts ?? []),
    idleTimeoutMs: options.idleTimeoutMs ?? 60_000,
    doFetch: options.fetch ?? ((input, init) => fetch(input, init)),
    // Streamed bodies go through node:http unless the caller brought their own fetch.
    streamFetch: options.fetch ?? nodeSend,
    policy: retryPolicy(options.retry),
    attemptTimeout: options.timeoutMs ?? 30_000,
    defaultDeadline: options.deadlineMs ?? 120_000,
    random: options.random ?? Math.random,
    userAgent: options.userAgent ?? 'importkit',
    log: (line: string) => options.log?.(redact(line, apiKey)),
    hide: (text: string) => redact(text, apiKey),
  };
}

export function createTransport(options: TransportOptions): Transport {
  const cfg = resolveOptions(options);
  return {
    request: <T>(spec: RequestSpec<T>) => request(cfg, spec),
    url: (path, query) => buildUrl(cfg.base, path, query),
    log: cfg.log,
    redact: cfg.hide,
  };
}

/** The absolute URL of a path under `base` (or of an absolute URL), query appended. */
function buildUrl(base: string, path: string, query?: Record<string, QueryValue>): string {
  const u = /^https?:\/\//i.test(path) ? new URL(path) : new URL(base + path);
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined) continue;
    const values = Array.isArray(v) ? v : [v];
    for (const one of values) u.searchParams.append(k, String(one));
  }
  return u.toString();
}

/** One call: attempts under the overall deadline, retried as the spec's mode and the policy allow. */
async function request<T>(cfg: TransportConfig, spec: RequestSpec<T>): Promise<T> {
  const target = buildUrl(cfg.base, spec.path, spec.query);
  const place: RequestPlace = { method: spec.method, url: cfg.hide(target) };
  const caller = spec.signal;
  caller?.throwIfAborted();
  const deadlineMs = spec.deadlineMs ?? cfg.defaultDeadline;
  const deadline = deadlineSignal(
    deadlineMs,
    () =>
      new TimeoutError(
        `${place.method} ${place.url}: no answer within the deadline of ${fmtMs(deadlineMs)}`,
        { timeoutMs: deadlineMs, place },
      ),
  );
  const outer = anySignal(caller, deadline.signal);
  try {
    for (let attempt = 0; ; attempt++) {
      let failure: ClientError;
      let retryAfterMs: number | undefined;
      try {
        return await attemptOnce(cfg, spec, target, place, outer, attempt);
      } catch (err) {
        if (outer?.aborted) throw outer.reason;
        if (!(err instanceof ClientError)) throw err;
        failure = err;
        retryAfterMs = err instanceof ApiError ? err.retryAfterMs : undefined;
      }
      const wait = retryWait(cfg, spec.retry, failure, attempt, retryAfterMs);
      if (wait === undefined) throw failure;
      cfg.log(
        `retry ${attempt + 1}/${cfg.policy.limit} of ${place.method} ${place.url} in ${Math.round(wait)} ms (${failure.message})`,
      );
      await delay(wait, outer);
    }
  } finally {
    deadline.clear();
  }
}

/** How long to wait before retrying a failed attempt, or undefined when it is not retried. */
function retryWait(
  cfg: TransportConfig,
  mode: RetryMode,
  failure: ClientError,
  attempt: number,
  retryAfterMs: number | undefined,
): number | undefined {
  const { policy } = cfg;
  if (!retryable(policy, mode, failure) || attempt >= policy.limit) return undefined;
  if (retryAfterMs !== undefined && retryAfterMs > policy.maxRetryAfterMs) return undefined;
  return retryAfterMs ?? backoffDelay(policy, attempt, cfg.random);
}

function retryable(policy: TransportConfig['policy'], mode: RetryMode, err: ClientError): boolean {
  if (err instanceof NetworkError) return mode === 'safe' || err.unsent;
  if (mode !== 'safe') return false;
  if (err instanceof TimeoutError) return err.attempt;
  if (err instanceof ApiError) return policy.statusCodes.has(err.status);
  return false;
}

/** The headers of an attempt; the key only for the service's own origin. */
function requestHeaders(cfg: TransportConfig, target: string): Record<string, string> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'user-agent': cfg.userAgent,
  };
  // The key goes to the service's own origin only: an upload URL elsewhere (object
  // storage, a signed address) carries its own authorisation in the URL.
  if (new URL(target).origin === cfg.baseOrigin) headers.authorization = `Bearer ${cfg.apiKey}`;
  return headers;
}

/** The body of an attempt (made fresh, or the JSON), adding its headers. */
async function attemptBody(
  spec: RequestSpec<unknown>,
  headers: Record<string, string>,
): Promise<{ body: RequestInit['body'] | undefined; prepared: PreparedBody | undefined }> {
  if (spec.body) {
    const prepared = await spec.body();
    Object.assign(headers, prepared.headers);
    return { body: prepared.body, prepared };
  }
  if (spec.json !== undefined) {
    headers['content-type'] = 'application/json';
    return { body: JSON.stringify(spec.json), prepared: undefined };
  }
  return { body: undefined, prepared: undefined };
}

/** One attempt under its own timeout: send, read the answer, parse it. */
async function attemptOnce<T>(
  cfg: TransportConfig,
  spec: RequestSpec<T>,
  target: string,
  place: RequestPlace,
  outer: AbortSignal | undefined,
  attempt: number,
): Promise<T> {
  const perAttempt = spec.timeoutMs ?? cfg.attemptTimeout;
  const timer = deadlineSignal(
    perAttempt,
    () =>
      new TimeoutError(`${place.method} ${place.url}: no answer within ${fmtMs(perAttempt)}`, {
        timeoutMs: perAttempt,
        place,
        attempt: true,
      }),
  );
  const signal = anySignal(outer, timer.signal);
  const headers = requestHeaders(cfg, target);
  const made = await attemptBody(spec, headers);
  const prepared = made.prepared;
  const started = performance.now();
  try {
    const { response, text } = await send(cfg, spec.method, target, headers, made.body, {
      place,
      signal,
      attemptSignal: timer.signal,
    });
    const ms = Math.round(performance.now() - started);
    cfg.log(`${place.method} ${place.url} → ${response.status} (${ms} ms, attempt ${attempt + 1})`);
    return spec.parse(answerJson(cfg, response, text, place), place);
  } finally {
    timer.clear();
    await prepared?.close?.();
  }
}

/** Sends and reads the answer's text; a failure on the way becomes a NetworkError or a timeout. */
async function send(
  cfg: TransportConfig,
  method: RequestSpec<unknown>['method'],
  target: string,
  headers: Record<string, string>,
  body: RequestInit['body'] | undefined,
  at: {
    place: RequestPlace;
    signal: AbortSignal | undefined;
    attemptSignal: AbortSignal | undefined;
  },
): Promise<{ response: Response; text: string }> {
  let response: Response;
  try {
    const init: SendInit & { duplex?: 'half' } = { method, headers };
    if (body !== undefined) init.body = body;
    if (at.signal) init.signal = at.signal;
    // A streamed body needs half duplex on Node's fetch.
    if (body instanceof ReadableStream) init.duplex = 'half';
    if (body instanceof ReadableStream) init.idleTimeoutMs = cfg.idleTimeoutMs;
    response = await (body instanceof ReadableStream ? cfg.streamFetch : cfg.doFetch)(target, init);
  } catch (err) {
    throw toNetworkError(err, at.place, at.signal, at.attemptSignal, cfg.hide);
  }
  try {
    return { response, text: await response.text() };
  } catch (err) {
    throw toNetworkError(err, at.place, at.signal, at.attemptSignal, cfg.hide);
  }
}

/** The answer's JSON (`{}` when empty); an error status becomes an ApiError. */
function answerJson(
  cfg: TransportConfig,
  response: Response,
  text: string,
  place: RequestPlace,
): unknown {
  if (!response.ok) {
    throw new ApiError(place, response.status, statusObject(text, cfg.hide), {
      retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
      statusText: response.statusText,
    });
  }
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ResponseError(place, response.status, 'the body is not JSON', { cause: err });
  }
}

function statusObject(text: string, hide: (text: string) => string): Status | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(hide(text));
  } catch {
    return undefined;
  }
  const parsed = Status.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

function toNetworkError(
  err: unknown,
  place: RequestPlace,
  signal: AbortSignal | undefined,
  attemptSignal: AbortSignal | undefined,
  hide: (text: string) => string,
): unknown {
  // An abort: the caller's or the deadline's reason is rethrown by the loop; ours is a timeout.
  if (signal?.aborted) {
    if (attemptSignal?.aborted) return attemptSignal.reason;
    return signal.reason;
  }
  if (err instanceof ClientError) return err;
  if (err instanceof IdleTimeout) {
    return new TimeoutError(
      `${place.method} ${place.url}: nothing sent or received for ${fmtMs(err.idleTimeoutMs)}`,
      { timeoutMs: err.idleTimeoutMs, place, attempt: true },
    );
  }
  const errno = errnoOf(err);
  const detail = hide(describe(err));
  return new NetworkError(place, detail, {
    cause: err,
    errno,
    unsent: errno !== undefined && UNSENT_CODES.has(errno),
  });
}

/** Hosts a plain-http baseUrl may name: the key then never leaves this machine. */
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * The host of a plain-http address on another machine, lower-case and without IPv6
 * brackets (`10.0.0.5`, `emulator`, `fd00::2`); undefined for https and for this machine.
 */
export function plainHttpHost(address: string): string | undefined {
  const u = new URL(address);
  if (u.protocol !== 'http:' || LOOPBACK.test(u.hostname)) return undefined;
  return bare(u.hostname);
}

const bare = (host: string) => host.toLowerCase().replace(/^\[(.*)\]$/, '$1');

/** The origin the key is sent to; refuses plain http to another machine not allowed by name. */
function keyedOrigin(base: string, allowed: readonly string[]): string {
  const u = new URL(base);
  const host = plainHttpHost(base);
  if (host !== undefined && !allowed.some((h) => bare(h.trim()) === host)) {
    throw new ClientError(
      `baseUrl ${u.origin}: the API key is never sent over plain http to another machine; use https (http is for 127.0.0.1, localhost and [::1], and for hosts named in allowHttpHosts)`,
      'client_options_invalid',
    );
  }
  return u.origin;
}

/** The first errno-like code in an error's cause chain (AggregateError included). */
function errnoOf(err: unknown, depth = 0): string | undefined {
  if (depth > 5 || typeof err !== 'object' || err === null) return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return code;
  const errors = (err as { errors?: unknown }).errors;
  if (Array.isArray(errors)) {
    for (const e of errors) {
      const c = errnoOf(e, depth + 1);
      if (c) return c;
    }
  }
  return errnoOf((err as { cause?: unknown }).cause, depth + 1);
}

function describe(err: unknown): string {
  const parts: string[] = [];
  let e: unknown = err;
  for (let i = 0; i < 4 && e instanceof Error; i++) {
    if (e.message && !parts.includes(e.message)) parts.push(e.message);
    e = e.cause;
  }
  return parts.join(': ') || String(err);
}

export function fmtMs(ms: number): string {
  return ms >= 1000 ? `${+(ms / 1000).toFixed(1)} s` : `${ms} ms`;
}
