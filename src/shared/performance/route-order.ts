// Performance trick 1 of docs/adr/0013 (gain, removal): rewrites Express's PRIVATE router stack at start.
// Held equal to Express's own order by route-order.spec.ts.
import type express from 'express';

/** What this module reads of the `router` package's Layer: the path it was registered with, and its matcher. */
interface RouterLayer {
  rawPath?: unknown;
  match(path: string): boolean;
}

/** A concrete path of each registered pattern: parameters and wildcards filled in with one segment. */
const samplePath = (pattern: string): string => pattern.replace(/[:*]\w+/g, 'x').replace(/[{}]/g, '');

/**
 * Express walks its router's layers in registration order and tries each one's path on every
 * request. Nest registers all middleware before all routes, and module by module, so a partner call walked
 * past the documentation, every owner and developer page's middleware and route, and health (some 60 layers)
 * before it reached its own route (its cost: ADR 0013).
 *
 * This moves the layers registered under `prefix` (their middleware and routes, in their own order) to
 * where the first of them stands, ahead of the other layers between them. Only layers that can never see
 * such a request are passed: each passed layer is tried on every moved layer's path, and if one matches
 * (a catch-all, a pattern that reaches under the prefix) nothing is moved and this throws, at start-up.
 * So every request meets the layers that match it in the same order as before; a partner call meets
 * fewer others on its way. Returns how many layers the moved ones now stand ahead of.
 */
export function prefixedLayersFirst(app: express.Express, prefix: string): number {
  const stack = (app as unknown as { router: { stack: RouterLayer[] } }).router.stack;
  const under = (l: RouterLayer) => typeof l.rawPath === 'string' && l.rawPath.startsWith(prefix);
  const first = stack.findIndex(under);
  if (first < 0) return 0;
  const span = stack.slice(first, stack.findLastIndex(under) + 1);
  const moved = span.filter(under);
  const passed = span.filter((l) => !under(l));
  const samples = [...new Set(moved.map((l) => samplePath(l.rawPath as string)))];
  for (const l of passed) {
    const hit = samples.find((p) => l.match(p));
    if (hit !== undefined) throw new Error(`the layer of ${String(l.rawPath)} matches ${hit}: the layers under ${prefix} cannot be moved ahead of it`);
  }
  stack.splice(first, span.length, ...moved, ...passed);
  return passed.length;
}
