/**
 * The emulator's routes as a table: method + path pattern → handler. A handler gets the
 * request (with the pattern's captures, percent-decoded) and the emulator's context, and
 * returns the JSON body of its 200 answer; a failure is thrown as an HttpFailure.
 *
 * A table of our own rather than a router package (Hono and its Node adapter): uploads
 * stream from the raw `IncomingMessage` to disk and the fault injector acts before any
 * route, both plain with `node:http`; a dozen routes need no matching engine, and the
 * emulator adds no dependency.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EmulatorContext, KeyOrganization } from '../context.js';

export interface RouteCall {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** The pattern's captures, percent-decoded. */
  params: string[];
  org: KeyOrganization;
  orgId: string;
  userId: string;
}

export type Handler = (call: RouteCall, ctx: EmulatorContext) => unknown;

export interface Route {
  method: 'GET' | 'POST' | 'PATCH';
  /** A path (exact) or a pattern whose captures become `params`. */
  path: string | RegExp;
  handler: Handler;
}

/** The route for `method` and `path`, with its captures (still percent-encoded). */
export function findRoute(
  routes: readonly Route[],
  method: string,
  path: string,
): { route: Route; captures: string[] } | undefined {
  for (const route of routes) {
    if (route.method !== method) continue;
    if (typeof route.path === 'string') {
      if (route.path === path) return { route, captures: [] };
      continue;
    }
    const m = route.path.exec(path);
    if (m) return { route, captures: m.slice(1).map((c) => c ?? '') };
  }
  return undefined;
}
