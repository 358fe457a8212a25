import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension, ApiOAuth2 } from '@nestjs/swagger';
import type { AccessRequirement } from '../application/access-check.service';
import type { CallerContext } from '../../../../shared/domain/caller-context';
import { type Scope, SCOPES } from '../../../../shared/domain/scopes';
import { EVERY_SCOPE_EXTENSION } from '../../../../shared/http/openapi/partner-operation';

export const PARTNER_ROUTE = Symbol('partner-route');

/**
 * Declares the scope (and, for final posting, the mandate) a partner route needs, and what the guard
 * reads in the token's statement for it (AccessRequirement.prefetch). Any one of several scopes
 * suffices; the OpenAPI operation's security lists them.
 */
export function PartnerRoute(scope: Scope | readonly Scope[], options: { mandate?: boolean; prefetch?: AccessRequirement['prefetch'] } = {}) {
  const requirement: AccessRequirement = { scope, mandate: options.mandate ?? false, prefetch: options.prefetch ?? null };
  // OpenAPI: the entries of an operation's `security` are alternatives, the scopes of one entry all needed,
  // so each scope that suffices is an entry of its own (after the bearer token's)
  // `SCOPES` (any scope may call it) is the kernel's list, complete only once every module has loaded: the
  // document lists its scopes when it is built (partner-document.ts)
  if (scope === SCOPES) return applyDecorators(SetMetadata(PARTNER_ROUTE, requirement), ApiBearerAuth(), ApiExtension(EVERY_SCOPE_EXTENSION, true));
  const scopes = typeof scope === 'string' ? [scope] : [...scope];
  return applyDecorators(SetMetadata(PARTNER_ROUTE, requirement), ApiBearerAuth(), ...scopes.map((s) => ApiOAuth2([s])));
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
