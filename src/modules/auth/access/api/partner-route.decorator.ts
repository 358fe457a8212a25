import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth } from '@nestjs/swagger';
import type { AccessRequirement } from '../application/access-check.service';
import type { CallerContext } from '../../../../shared/domain/caller-context';
import type { Scope } from '../../../../shared/domain/scopes';

export const PARTNER_ROUTE = Symbol('partner-route');

/**
 * Declares the scope (and, for final posting, the mandate) a partner route needs, and what the guard
 * reads in the token's statement for it (AccessRequirement.prefetch).
 */
export function PartnerRoute(
  scope: Scope | readonly Scope[],
  options: { mandate?: boolean; prefetch?: AccessRequirement['prefetch'] } = {},
) {
  const requirement: AccessRequirement = { scope, mandate: options.mandate ?? false, prefetch: options.prefetch ?? null };
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
