import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth } from '@nestjs/swagger';
import type { AccessRequirement } from '../application/access-check.service';
import type { CallerContext } from '../domain/caller-context';
import type { Scope } from '../domain/scopes';

export const PARTNER_ROUTE = Symbol('partner-route');

/** Declares the scope (and, for final posting, the mandate) a partner route needs. */
export function PartnerRoute(scope: Scope, options: { mandate?: boolean } = {}) {
  const requirement: AccessRequirement = { scope, mandate: options.mandate ?? false };
  return applyDecorators(SetMetadata(PARTNER_ROUTE, requirement), ApiBearerAuth());
}

export interface RequestWithCaller {
  caller?: CallerContext;
}

/** The caller context the guard established. */
export const Caller = createParamDecorator((_: unknown, ctx: ExecutionContext): CallerContext => {
  const caller = ctx.switchToHttp().getRequest<RequestWithCaller>().caller;
  if (!caller) throw new Error('no caller context: the route lacks @PartnerRoute');
  return caller;
});
