/**
 * A fetch-shaped sender over node:http / node:https, used for streamed uploads.
 *
 * Why not `fetch`: Node's fetch (undici 6, Node 20) keeps every chunk of a streamed
 * request body in memory until the request ends (nodejs/undici#4058), so a 200 MB upload
 * costs 200 MB of RSS. node:http pipes the same stream with backpressure and flat memory.
 * A `fetch` injected by the caller is still used for everything, uploads included.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';

const NULL_BODY = new Set([101, 204, 205, 304]);

/** What nodeSend takes beyond fetch's options. */
export interface SendInit extends RequestInit {
  /** Ends the request when its connection sends and receives nothing for this long (ms). */
  idleTimeoutMs?: number;
}

/** The connection of a request sent nothing and received nothing for `idleTimeoutMs`. */
export class IdleTimeout extends Error {
  constructor(readonly idleTimeoutMs: number) {
    super(`the connection was idle for ${idleTimeoutMs} ms`);
    this.name = 'IdleTimeout';
  }
}

function toResponse(res: IncomingMessage): Response {
  const headers = new Headers();
  for (const [k, v] of Object.entries(res.headers)) {
    if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
  }
  const status = res.statusCode ?? 500;
  const init = { status, statusText: res.statusMessage ?? '', headers };
  if (NULL_BODY.has(status)) {
    res.resume();
    return new Response(null, init);
  }
  return new Response(Readable.toWeb(res) as ReadableStream<Uint8Array>, init);
}

export function nodeSend(url: string, init: SendInit): Promise<Response> {
  const u = new URL(url);
  const request = u.protocol === 'https:' ? httpsRequest : httpRequest;
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((v, k) => {
    headers[k] = v;
  });
  return new Promise<Response>((resolve, reject) => {
    const options: Parameters<typeof httpRequest>[1] = { method: init.method ?? 'GET', headers };
    if (init.signal) options.signal = init.signal;
    const req = request(u, options, (res) => resolve(toResponse(res)));
    req.on('error', reject);
    const idle = init.idleTimeoutMs;
    if (idle !== undefined && idle > 0) {
      req.setTimeout(idle, () => req.destroy(new IdleTimeout(idle)));
    }
    const body = init.body;
    if (body instanceof ReadableStream) {
      pipeline(Readable.fromWeb(body as NodeReadableStream<Uint8Array>), req).catch(
        (err: unknown) => {
          req.destroy(err as Error);
          reject(err);
        },
      );
    } else if (body === undefined || body === null) {
      req.end();
    } else if (typeof body === 'string' || body instanceof Uint8Array) {
      req.end(body);
    } else {
      req.destroy();
      reject(new TypeError('nodeSend sends strings, bytes and streams only'));
    }
  });
}
