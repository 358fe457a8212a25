import 'reflect-metadata';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DECORATORS } from '@nestjs/swagger';
import { PRODUCTION_BASE } from '../../src/shared/http/partner-paths';
import { CONSOLE_OPERATION_EXTENSION, type ConsoleOperationFacts } from '../../src/shared/http/openapi/console-operation';
import {
  EVERY_SCOPE_EXTENSION,
  IDEMPOTENT_EXTENSION,
  PARTNER_OPERATION_EXTENSION,
  type PartnerOperationFacts,
} from '../../src/shared/http/openapi/partner-operation';

const ROOT = join(__dirname, '..', '..');

/** A partner route as its controller declares it (read from the decorators, not from any document). */
export interface PartnerRouteDeclaration {
  /** the controller's file, relative to the repository */
  file: string;
  /** Controller.method */
  handler: string;
  /** get, post, … */
  method: string;
  /** relative to the base, path parameters as the document spells them: /journal/entries/{entry_id} */
  path: string;
  /** its @PartnerOperation, if any */
  facts: PartnerOperationFacts | undefined;
  idempotent: boolean;
  /** the scopes its @PartnerRoute names (any one suffices); empty for `@PartnerRoute(SCOPES)` */
  scopes: string[];
  /** `@PartnerRoute(SCOPES)`: any scope may call it */
  everyScope: boolean;
}

/** Controller files whose text matches (loading every controller is slow). */
function controllerFiles(dir: string, mentions: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return controllerFiles(path, mentions);
    return entry.name.endsWith('.controller.ts') && mentions.test(readFileSync(path, 'utf8')) ? [path] : [];
  });
}

const joinPath = (...parts: string[]) =>
  `/${parts
    .map((p) => p.replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/')}`;

interface RouteDeclaration {
  file: string;
  handler: string;
  method: string;
  /** relative to the base, `:name` as `{name}` */
  path: string;
  extensions: Record<string, unknown>;
  security: Array<Record<string, string[]>>;
}

/** Every route of src/modules/**\/*.controller.ts (those whose text matches) under a base path. */
function routeDeclarations(base: string, mentions: RegExp): RouteDeclaration[] {
  return controllerFiles(join(ROOT, 'src', 'modules'), mentions).flatMap((file) =>
    Object.values(require(file) as Record<string, unknown>)
      .filter((value): value is Function => typeof value === 'function' && Reflect.hasMetadata(PATH_METADATA, value))
      .flatMap((controller) =>
        [Reflect.getMetadata(PATH_METADATA, controller) as string | string[]]
          .flat()
          .filter((path) => path === base || path.startsWith(`${base}/`))
          .flatMap((path) =>
            Object.getOwnPropertyNames(controller.prototype)
              .map((name) => ({ name, handler: controller.prototype[name] }))
              .filter(({ handler }) => typeof handler === 'function' && Reflect.hasMetadata(METHOD_METADATA, handler))
              .flatMap(({ name, handler }) =>
                [Reflect.getMetadata(PATH_METADATA, handler) as string | string[]].flat().map((routePath) => ({
                  file: relative(ROOT, file),
                  handler: `${controller.name}.${name}`,
                  method: RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod].toLowerCase(),
                  path: joinPath(path, routePath)
                    .slice(base.length + 1)
                    .replace(/:(\w+)/g, '{$1}'),
                  extensions: (Reflect.getMetadata(DECORATORS.API_EXTENSION, handler) ?? {}) as Record<string, unknown>,
                  security: (Reflect.getMetadata(DECORATORS.API_SECURITY, handler) ?? []) as Array<Record<string, string[]>>,
                })),
              ),
          ),
      ),
  );
}

/** Every partner route (under the production base; each serves both bases), path parameters in snake_case as the document spells them. */
export function partnerRouteDeclarations(): PartnerRouteDeclaration[] {
  return routeDeclarations(PRODUCTION_BASE, /PARTNER_BASES|PRODUCTION_BASE|api\/partner\//).map(({ extensions, security, ...route }) => ({
    ...route,
    path: route.path.replace(/\{(\w+)\}/g, (_, p: string) => `{${p.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}}`),
    facts: extensions[PARTNER_OPERATION_EXTENSION] as PartnerOperationFacts | undefined,
    idempotent: extensions[IDEMPOTENT_EXTENSION] === true,
    scopes: security.flatMap((entry) => entry.oauth2 ?? []),
    everyScope: extensions[EVERY_SCOPE_EXTENSION] === true,
  }));
}

/** Every console route, path parameters as the controllers name them. */
export function consoleRouteDeclarations(): Array<Omit<RouteDeclaration, 'extensions' | 'security'> & { facts: ConsoleOperationFacts | undefined }> {
  return routeDeclarations('console/v1', /console\/v1/).map(({ extensions, security: _security, ...route }) => ({
    ...route,
    facts: extensions[CONSOLE_OPERATION_EXTENSION] as ConsoleOperationFacts | undefined,
  }));
}
