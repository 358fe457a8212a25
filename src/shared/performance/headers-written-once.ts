// Performance trick 8 of docs/adr/0013 (gain, removal): a response's headers kept in a flat list and written by one writeHead.
// Held equal to Node's own header store by headers-written-once.spec.ts; on the wire by test/e2e/security-headers and the rest.
import { validateHeaderName, validateHeaderValue, ServerResponse } from 'node:http';
import type { Express } from 'express';

/**
 * Why: Node's `setHeader` keeps each header under its lower-cased name in a dictionary object, and a
 * fresh lower-cased string as a property key must be interned first; with the twelve security headers,
 * the request id, the no-store, the rate limit and Express's content type and length, that was some
 * 4,000 instructions per call, and a 2-line prepare made 19 calls (bench/RESULTS.md, "Issue 47, 2026-11-29 (sixth session)").
 * The yardstick's baseline, like any hand-written server, hands one literal to `writeHead` instead,
 * which Node writes without that store.
 *
 * How: from `beginHeaders` on (the first middleware, security-headers.ts), a response of a listener
 * that `writeHeadersOnce` prepared keeps its headers in a flat list: a fixed part shared by every
 * response (the security headers, built and checked once) and the response's own. `setHeader` with a
 * string value checks the name and value as Node does (its public validators) and records them;
 * `getHeader` and `hasHeader` read the list. `writeHead` (called by Node itself for `end` and `write`)
 * hands the list to Node's `writeHead` as one array. Every other header call — `removeHeader`,
 * `appendHeader`, `getHeaders`, `getHeaderNames`, `getRawHeaderNames`, a `setHeader` with an array or a
 * number, a `writeHead` with headers of its own — first sets the recorded headers in Node's store, in
 * the order they came, and leaves the list: from then on the response is Node's as before, so pages,
 * files and errors behave exactly as without this file, only at the old cost.
 */
const HEADERS = Symbol('headers written once');
const PREPARED = Symbol('headers written once: prepared');

/** Headers shared by many responses, checked once: names, their lower-case forms and values. */
export interface FixedHeaders {
  readonly names: readonly string[];
  readonly lower: readonly string[];
  readonly values: readonly string[];
}

interface Recorded {
  fixed: FixedHeaders;
  /** the response's own: [name, lower-case name, value] in turn */
  own: string[];
  written: boolean;
}

type Held = ServerResponse & { [HEADERS]?: Recorded; [PREPARED]?: true };
type NodeMethod =
  'setHeader' | 'getHeader' | 'hasHeader' | 'removeHeader' | 'appendHeader' | 'getHeaders' | 'getHeaderNames' | 'getRawHeaderNames' | 'writeHead';

export function fixedHeaders(pairs: ReadonlyArray<readonly [string, string]>): FixedHeaders {
  const lower = pairs.map(([name]) => name.toLowerCase());
  if (new Set(lower).size !== lower.length) throw new Error('fixed headers: a name twice');
  for (const [name, value] of pairs) {
    validateHeaderName(name);
    validateHeaderValue(name, value);
  }
  return { names: pairs.map(([name]) => name), lower, values: pairs.map(([, value]) => value) };
}

/**
 * Starts recording `res`'s headers with `fixed` as their first part, when its listener was prepared
 * (`writeHeadersOnce`); otherwise sets them with `setHeader`, as any response.
 */
export function beginHeaders(res: ServerResponse, fixed: FixedHeaders): void {
  const held = res as Held;
  // a header already in Node's store (set before the first middleware) keeps the response in it: order and all as before
  if (held[PREPARED] === true && held[HEADERS] === undefined && !res.headersSent && res.getHeaderNames().length === 0) {
    held[HEADERS] = { fixed, own: [], written: false };
    return;
  }
  for (let i = 0; i < fixed.names.length; i++) res.setHeader(fixed.names[i], fixed.values[i]);
}

/** Prepares one Express application's responses (its `app.response`, Express's extension point). */
export function writeHeadersOnce(app: Express): void {
  const response = app.response as unknown as Record<PropertyKey, unknown>;
  const node = ServerResponse.prototype as unknown as Record<NodeMethod, (this: ServerResponse, ...args: unknown[]) => unknown>;
  response[PREPARED] = true;

  /** Leaves the list: the recorded headers go into Node's store, fixed part first, then in order. */
  const release = (res: Held, recorded: Recorded): void => {
    res[HEADERS] = undefined;
    const { fixed, own } = recorded;
    for (let i = 0; i < fixed.names.length; i++) node.setHeader.call(res, fixed.names[i], fixed.values[i]);
    for (let i = 0; i < own.length; i += 3) node.setHeader.call(res, own[i], own[i + 2]);
  };
  /** The recorded value of a header, or undefined. */
  const find = (recorded: Recorded, name: string): string | undefined => {
    const key = name.toLowerCase();
    const { own } = recorded;
    for (let i = own.length - 3; i >= 0; i -= 3) if (own[i + 1] === key) return own[i + 2];
    const { lower, values } = recorded.fixed;
    for (let i = 0; i < lower.length; i++) if (lower[i] === key) return values[i];
    return undefined;
  };

  response.setHeader = function setHeader(this: Held, name: string, value: number | string | readonly string[]) {
    const recorded = this[HEADERS];
    if (recorded === undefined || recorded.written || typeof value !== 'string') {
      if (recorded !== undefined && !recorded.written) release(this, recorded);
      return node.setHeader.call(this, name, value);
    }
    validateHeaderName(name);
    validateHeaderValue(name, value);
    const key = name.toLowerCase();
    if (recorded.fixed.lower.includes(key)) {
      // a fixed header overridden (a page's own CSP): Node's store from here on
      release(this, recorded);
      return node.setHeader.call(this, name, value);
    }
    const { own } = recorded;
    for (let i = 0; i < own.length; i += 3) {
      if (own[i + 1] === key) {
        // in its first place, as Node's store keeps a replaced header
        own[i] = name;
        own[i + 2] = value;
        return this;
      }
    }
    own.push(name, key, value);
    return this;
  };
  response.getHeader = function getHeader(this: Held, name: string) {
    const recorded = this[HEADERS];
    if (recorded !== undefined) {
      const value = find(recorded, name);
      if (value !== undefined) return value;
    }
    return node.getHeader.call(this, name);
  };
  response.hasHeader = function hasHeader(this: Held, name: string) {
    const recorded = this[HEADERS];
    return (recorded !== undefined && find(recorded, name) !== undefined) || node.hasHeader.call(this, name);
  };
  /** A call that needs Node's store: the list goes into it first. */
  const releasing = (res: Held, original: (this: ServerResponse, ...args: unknown[]) => unknown, ...args: unknown[]): unknown => {
    const recorded = res[HEADERS];
    if (recorded !== undefined && !recorded.written) release(res, recorded);
    return original.apply(res, args);
  };
  response.removeHeader = function removeHeader(this: Held, name: string) {
    return releasing(this, node.removeHeader, name);
  };
  response.appendHeader = function appendHeader(this: Held, name: string, value: string | readonly string[]) {
    return releasing(this, node.appendHeader, name, value);
  };
  // after a write from the list, Node's store holds none of them: the lists are answered from it
  const entries = (recorded: Recorded): string[][] => {
    const { fixed, own } = recorded;
    const all = fixed.names.map((name, i) => [name, fixed.lower[i], fixed.values[i]]);
    for (let i = 0; i < own.length; i += 3) all.push([own[i], own[i + 1], own[i + 2]]);
    return all;
  };
  response.getHeaders = function getHeaders(this: Held) {
    const recorded = this[HEADERS];
    if (recorded === undefined || !recorded.written) return releasing(this, node.getHeaders);
    const out = node.getHeaders.call(this) as Record<string, unknown>;
    for (const [, key, value] of entries(recorded)) out[key] ??= value;
    return out;
  };
  response.getHeaderNames = function getHeaderNames(this: Held) {
    const recorded = this[HEADERS];
    if (recorded === undefined || !recorded.written) return releasing(this, node.getHeaderNames);
    return [...new Set([...entries(recorded).map(([, key]) => key), ...(node.getHeaderNames.call(this) as string[])])];
  };
  response.getRawHeaderNames = function getRawHeaderNames(this: Held) {
    const recorded = this[HEADERS];
    if (recorded === undefined || !recorded.written) return releasing(this, node.getRawHeaderNames);
    return [...entries(recorded).map(([name]) => name), ...(node.getRawHeaderNames.call(this) as string[])];
  };
  response.writeHead = function writeHead(this: Held, statusCode: number, ...rest: unknown[]) {
    const recorded = this[HEADERS];
    if (recorded === undefined || recorded.written) return node.writeHead.call(this, statusCode, ...rest);
    const reason = typeof rest[0] === 'string' ? rest[0] : undefined;
    const headers = typeof rest[0] === 'string' ? rest[1] : rest[0];
    if (headers !== undefined && headers !== null) {
      // headers of the call's own: Node merges them into its store
      release(this, recorded);
      return node.writeHead.call(this, statusCode, ...rest);
    }
    const { fixed, own } = recorded;
    const flat: string[] = new Array<string>(2 * fixed.names.length + (2 * own.length) / 3);
    let n = 0;
    for (let i = 0; i < fixed.names.length; i++) {
      flat[n++] = fixed.names[i];
      flat[n++] = fixed.values[i];
    }
    for (let i = 0; i < own.length; i += 3) {
      flat[n++] = own[i];
      flat[n++] = own[i + 2];
    }
    const out = reason === undefined ? node.writeHead.call(this, statusCode, flat) : node.writeHead.call(this, statusCode, reason, flat);
    // only once written (a bad status code throws before, and the list stays the response's); kept for getHeader,
    // hasHeader and the lists after the write, as Node's store answers them
    recorded.written = true;
    return out;
  };
}
