import { applyDecorators, type CanActivate, createParamDecorator, type ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { IDEMPOTENT_EXTENSION } from '../../../shared/http/openapi/partner-operation';
import type { Request } from 'express';
import { parseIdempotencyKey } from '../domain/idempotency-key';

interface RequestWithKey extends Request {
  idempotencyKey?: string;
}

/**
 * CONTRACT §3 step 4: the Idempotency-Key is checked after the token and grant (the global guard runs
 * first) and before the input (pipes run after guards).
 */
@Injectable()
export class IdempotencyKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<RequestWithKey>();
    req.idempotencyKey = parseIdempotencyKey(req.headers['idempotency-key']);
    return true;
  }
}

/**
 * An exactly-once write (CONTRACT §6): the route takes an Idempotency-Key, checked by IdempotencyKeyGuard,
 * and its OpenAPI operation says so (the document adds the header and its words).
 */
export const Idempotent = (): MethodDecorator => applyDecorators(UseGuards(IdempotencyKeyGuard), ApiExtension(IDEMPOTENT_EXTENSION, true));

/** The validated Idempotency-Key of a route guarded by IdempotencyKeyGuard. */
export const IdempotencyKey = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const key = ctx.switchToHttp().getRequest<RequestWithKey>().idempotencyKey;
  if (key === undefined) throw new Error('route lacks IdempotencyKeyGuard');
  return key;
});
