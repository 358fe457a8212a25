import 'reflect-metadata';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DECORATORS } from '@nestjs/swagger';
import { PRODUCTION_BASE } from '../../src/shared/http/partner-paths';
import { IDEMPOTENT_EXTENSION, PARTNER_OPERATION_EXTENSION, type PartnerOperationFacts } from '../../src/shared/http/openapi/partner-operation';

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
}

function controllerFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return controllerFiles(path);
    // loading every controller is slow: only those that name a partner base are partner controllers
    return entry.name.endsWith('.controller.ts') && /PARTNER_BASES|PRODUCTION_BASE|api\/partner\//.test(readFileSync(path, 'utf8')) ? [path] : [];
  });
}

const joinPath = (...parts: string[]) => `/${parts.map((p) => p.replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/')}`;

/** Every route of src/modules/**\/*.controller.ts under the production partner base (each serves both bases). */
export function partnerRouteDeclarations(): PartnerRouteDeclaration[] {
  return controllerFiles(join(ROOT, 'src', 'modules')).flatMap((file) =>
    Object.values(require(file) as Record<string, unknown>)
      .filter((value): value is Function => typeof value === 'function' && Reflect.hasMetadata(PATH_METADATA, value))
      .flatMap((controller) => {
        const bases = [Reflect.getMetadata(PATH_METADATA, controller) as string | string[]].flat();
        return bases
          .filter((base) => base === PRODUCTION_BASE || base.startsWith(`${PRODUCTION_BASE}/`))
          .flatMap((base) =>
            Object.getOwnPropertyNames(controller.prototype)
              .map((name) => ({ name, handler: controller.prototype[name] }))
              .filter(({ handler }) => typeof handler === 'function' && Reflect.hasMetadata(METHOD_METADATA, handler))
              .flatMap(({ name, handler }) =>
                [Reflect.getMetadata(PATH_METADATA, handler) as string | string[]].flat().map((routePath) => {
                  const extensions = (Reflect.getMetadata(DECORATORS.API_EXTENSION, handler) ?? {}) as Record<string, unknown>;
                  return {
                    file: relative(ROOT, file),
                    handler: `${controller.name}.${name}`,
                    method: RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod].toLowerCase(),
                    path: joinPath(base, routePath)
                      .slice(PRODUCTION_BASE.length + 1)
                      .replace(/:(\w+)/g, (_, p: string) => `{${p.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}}`),
                    facts: extensions[PARTNER_OPERATION_EXTENSION] as PartnerOperationFacts | undefined,
                    idempotent: extensions[IDEMPOTENT_EXTENSION] === true,
                  };
                }),
              ),
          );
      }),
  );
}
