import { RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import type { RouteInfo } from '@nestjs/common/interfaces/index.js';

const asList = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : v === undefined ? [''] : [String(v)]);
const join = (a: string, b: string) =>
  [a, b]
    .map((p) => p.replace(/^\/+|\/+$/g, ''))
    .filter((p) => p !== '')
    .join('/');

/** The methods of a controller's prototype and of the classes it extends (as Nest's scanner finds handlers), each once. */
function handlerNames(proto: Record<string, unknown>): string[] {
  const names = new Set<string>();
  for (let p: object | null = proto; p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) {
    for (const name of Object.getOwnPropertyNames(p)) if (name !== 'constructor' && typeof proto[name] === 'function') names.add(name);
  }
  return [...names];
}

/**
 * The routes whose handler takes a JSON body, read off the controllers' own metadata: every handler with a
 * `@Body()` parameter, at each of its controller's and its own paths. The JSON body middleware is bound to
 * exactly these (CONTRACT §3: routing first, then media type, size and syntax), so a new operation needs
 * no list kept in step by hand, and a route that reads its body itself (an upload) gets none.
 */
export function routesTakingBody(controllers: Iterable<Type>): RouteInfo[] {
  const routes: RouteInfo[] = [];
  for (const controller of controllers) {
    const bases = asList(Reflect.getMetadata(PATH_METADATA, controller));
    const proto = controller.prototype as Record<string, unknown>;
    for (const name of handlerNames(proto)) {
      const handler = proto[name] as object;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (method === undefined) continue;
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<string, unknown>;
      if (!Object.keys(args).some((key) => Number(key.split(':')[0]) === RouteParamtypes.BODY)) continue;
      for (const base of bases) for (const path of asList(Reflect.getMetadata(PATH_METADATA, handler))) routes.push({ path: join(base, path), method });
    }
  }
  return routes;
}
