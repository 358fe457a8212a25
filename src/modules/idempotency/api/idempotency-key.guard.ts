import { type CanActivate, createParamDecorator, type ExecutionContext, Injectable } from '@nestjs/common';
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

/** The validated Idempotency-Key of a route guarded by IdempotencyKeyGuard. */
export const IdempotencyKey = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const key = ctx.switchToHttp().getRequest<RequestWithKey>().idempotencyKey;
  if (key === undefined) throw new Error('route lacks IdempotencyKeyGuard');
  return key;
});
