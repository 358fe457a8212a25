import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { DomainError, RateLimitedError, toInputError } from '../../../../shared/domain/errors';
import { PARTNER_QUERY_NAMES } from '../../../../shared/http/openapi/partner-operation';
import { pointerTo } from '../../../../shared/http/validation/body-validation.pipe';
import { clientAddress } from '../../../../shared/http/client-address';
import { AnonymousRateLimit, InFlightLimit, RateLimitService } from '../../../rate-limit';
import { environmentOfPath, PARTNER_BASES } from '../../../../shared/http/partner-paths';
import type { RequestWithContext } from '../../../../shared/http/request-context';
import { type AccessRequirement, AccessCheckService } from '../application/access-check.service';
import { PARTNER_ROUTE, type RequestWithCaller } from './partner-route.decorator';

/** CONTRACT §12: a call answered with one of these has no known identity and counts towards its address's anonymous limit. */
const ANONYMOUS_CODES = new Set(['missing_token', 'token_environment_mismatch', 'invalid_token']);

/**
 * Global guard of the partner listener. Every route under a partner base path needs a token; one that
 * forgot to declare its scope fails closed (500) rather than open.
 */
@Injectable()
export class PartnerAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly access: AccessCheckService,
    private readonly rateLimit: RateLimitService,
    private readonly anonymous: AnonymousRateLimit,
    private readonly inFlight: InFlightLimit,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<RequestWithContext & RequestWithCaller>();
    const requirement = this.reflector.get<AccessRequirement | undefined>(PARTNER_ROUTE, context.getHandler());
    // routing is exact and case-sensitive (server-limits.ts), so this prefix test agrees with the
    // router; a route that declares a scope is checked wherever it is mounted (fail closed)
    const isPartnerPath = PARTNER_BASES.some((base) => req.path.startsWith(`/${base}/`));
    if (!isPartnerPath && !requirement) return true;
    if (!requirement) throw new Error(`partner route ${req.method} ${req.path} declares no scope`);
    const authorization = req.headers.authorization;
    req.tokenSent = authorization !== undefined && /^Bearer +\S/i.test(authorization);
    const res = context.switchToHttp().getResponse<Response>();
    try {
      req.caller = await this.access.authenticate(authorization, environmentOfPath(req.path), requirement, requirement.prefetch?.(req), async (tokenHash) => {
        // CONTRACT §20: the token's requests in flight on this instance, before any work of this one
        this.inFlight.enter(tokenHash, res);
        // CONTRACT §12: after the token is known, before grant and scope
        const outcome = await this.rateLimit.take(tokenHash);
        if (!outcome) return;
        res.setHeader('RateLimit-Policy', outcome.headers['RateLimit-Policy']);
        res.setHeader('RateLimit', outcome.headers.RateLimit);
        if (!outcome.allowed) throw new RateLimitedError(outcome.retryAfterSeconds);
      });
    } catch (err) {
      // CONTRACT §12: only a call without a known identity counts, on its address's partner budget; a
      // missing, malformed or wrong-checksum token got here without I/O, a well-formed one after its
      // single look-up; a known token never reaches this (its own limit applies instead)
      if (err instanceof DomainError && ANONYMOUS_CODES.has(err.code)) {
        const { retryAfter } = await this.anonymous.take('partner', clientAddress(req));
        if (retryAfter !== null) throw new RateLimitedError(retryAfter);
      }
      throw err;
    }
    // CONTRACT §3 step 5, §20: a query parameter the GET does not declare is refused as an unknown body field is
    if (req.method === 'GET')
      refuseUnknownQueryParameters(req.originalUrl ?? req.url, this.reflector.get<ReadonlySet<string>>(PARTNER_QUERY_NAMES, context.getHandler()));
    return true;
  }
}

/**
 * 400 `invalid_input` with one entry per query parameter the route does not declare (its @PartnerOperation
 * `query`), the parameter's name as `pointer`. Names are read from the raw query string, as sent (Express's
 * parser would drop `__proto__` and fold `a[b]` into `a`).
 */
export function refuseUnknownQueryParameters(url: string, declared: ReadonlySet<string> | undefined): void {
  const q = url.indexOf('?');
  if (q < 0) return;
  const unknown = new Set<string>();
  for (const name of new URLSearchParams(url.slice(q + 1)).keys()) if (!declared?.has(name)) unknown.add(name);
  if (unknown.size === 0) return;
  throw toInputError([...unknown].map((name) => ({ pointer: pointerTo('', name), code: 'invalid_input', detail: 'is not a query parameter of this call' })));
}
