import { Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { LANGUAGES } from '../../../../shared/web';
import { APP_CONFIG, type AppConfig } from '../../../../shared/config/app-config';
import { SCOPES } from '../../../../shared/domain/scopes';
import { clientAddress } from '../../../../shared/http/client-address';
import { AnonymousRateLimit, OAuthClientRateLimit } from '../../../rate-limit';
import { OAuthClientService } from '../application/oauth-client.service';
import { TokenService } from '../application/token.service';
import type { OAuthClient } from '../domain/consent.repository';

type ClientAuth =
  | { ok: true; client: OAuthClient }
  | { ok: false; error: 'invalid_client' | 'invalid_request'; description: string }
  | { ok: false; error: 'rate_limited'; retryAfter: number };
type Credentials = { ok: true; id: string; secret: string } | { ok: false; error: 'invalid_client' | 'invalid_request'; description: string };

function formDecode(v: string): string | null {
  try {
    return decodeURIComponent(v.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/** The client's endpoints of CONTRACT §11: metadata (RFC 8414), token (RFC 6749 §4.1.3) and revocation (RFC 7009). */
@ApiExcludeController()
@Controller()
export class TokenController {
  constructor(
    private readonly clients: OAuthClientService,
    private readonly tokens: TokenService,
    private readonly anonymous: AnonymousRateLimit,
    private readonly perClient: OAuthClientRateLimit,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('.well-known/oauth-authorization-server')
  metadata(@Res() res: Response): void {
    const issuer = this.config.publicOrigin;
    res.status(200).json({
      issuer,
      authorization_endpoint: `${issuer}/oauth/authorize`,
      token_endpoint: `${issuer}/oauth/token`,
      revocation_endpoint: `${issuer}/oauth/revoke`,
      scopes_supported: [...SCOPES],
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      // RFC 9207: every authorization response names the issuer (`iss`), a defence against mix-up attacks
      authorization_response_iss_parameter_supported: true,
      // CONTRACT §11, §18: the languages of the owner pages (OpenID Connect Discovery's name)
      ui_locales_supported: [...LANGUAGES],
    });
  }

  @Post('oauth/token')
  @HttpCode(200)
  async token(@Req() req: Request, @Res() res: Response): Promise<void> {
    const form = this.form(req);
    if (!form) return this.error(res, 400, 'invalid_request', 'the body must be application/x-www-form-urlencoded');
    const auth = await this.authenticate(req, form);
    if (!auth.ok)
      return auth.error === 'rate_limited'
        ? this.refuse(res, auth.retryAfter)
        : this.error(res, auth.error === 'invalid_client' ? 401 : 400, auth.error, auth.description);
    const grantType = form.grant_type;
    if (typeof grantType !== 'string' || grantType === '') return this.error(res, 400, 'invalid_request', 'grant_type is required');
    if (grantType !== 'authorization_code') return this.error(res, 400, 'unsupported_grant_type', 'only authorization_code is supported');
    const result = await this.tokens.exchange(auth.client, { code: form.code, redirectUri: form.redirect_uri, codeVerifier: form.code_verifier });
    if (!result.ok) return this.error(res, 400, result.error, result.description);
    res.status(200).json(result.body);
  }

  @Post('oauth/revoke')
  @HttpCode(200)
  async revoke(@Req() req: Request, @Res() res: Response): Promise<void> {
    const form = this.form(req);
    if (!form) return this.error(res, 400, 'invalid_request', 'the body must be application/x-www-form-urlencoded');
    const auth = await this.authenticate(req, form);
    if (!auth.ok)
      return auth.error === 'rate_limited'
        ? this.refuse(res, auth.retryAfter)
        : this.error(res, auth.error === 'invalid_client' ? 401 : 400, auth.error, auth.description);
    if (typeof form.token !== 'string' || form.token === '') return this.error(res, 400, 'invalid_request', 'token is required');
    await this.tokens.revoke(auth.client, form.token);
    res.status(200).end();
  }

  private form(req: Request): Record<string, unknown> | null {
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded') return null;
    return (req.body ?? {}) as Record<string, unknown>;
  }

  /**
   * CONTRACT §12, §20. Credentials whose secret this service issued for that client id (its MAC, checked
   * without I/O) are a registered client's: they count on the client's own limit (OAUTH_CLIENT_PER_MINUTE), never
   * on the address's, so a stranger on the same address cannot stop its code exchange; should the look-up then
   * fail (a secret since replaced), the failure counts on the address like any other. Everything else — a
   * client id nobody registered, a guessed secret, no credentials — counts on the address's `oauth` budget first,
   * and over it is refused before any look-up; within it, valid credentials (a secret issued before secrets
   * carried the MAC) give their point back.
   */
  private async authenticate(req: Request, form: Record<string, unknown>): Promise<ClientAuth> {
    const credentials = this.credentials(req, form);
    if (credentials.ok && this.clients.issuedFor(credentials.id, credentials.secret)) {
      const retryAfter = await this.perClient.take(credentials.id);
      if (retryAfter !== null) return { ok: false, error: 'rate_limited', retryAfter };
      const client = await this.clients.authenticate(credentials.id, credentials.secret);
      if (client) return { ok: true, client };
      const { retryAfter: overAddress } = await this.anonymous.take('oauth', clientAddress(req));
      if (overAddress !== null) return { ok: false, error: 'rate_limited', retryAfter: overAddress };
      return { ok: false, error: 'invalid_client', description: 'client authentication failed' };
    }
    const { retryAfter, giveBack } = await this.anonymous.take('oauth', clientAddress(req));
    if (retryAfter !== null) return { ok: false, error: 'rate_limited', retryAfter };
    if (!credentials.ok) return credentials;
    const client = await this.clients.authenticate(credentials.id, credentials.secret);
    if (!client) return { ok: false, error: 'invalid_client', description: 'client authentication failed' };
    await giveBack();
    return { ok: true, client };
  }

  /** HTTP Basic (RFC 6749 §2.3.1: both parts form-encoded) or client_id + client_secret in the body, not both. */
  private credentials(req: Request, form: Record<string, unknown>): Credentials {
    const header = req.headers.authorization;
    let id: unknown;
    let secret: unknown;
    const basic = typeof header === 'string' && /^Basic\s+/i.test(header);
    if (basic) {
      if (form.client_secret !== undefined) return { ok: false, error: 'invalid_request', description: 'use one client authentication method' };
      const decoded = Buffer.from(header.replace(/^Basic\s+/i, ''), 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon < 0) return { ok: false, error: 'invalid_client', description: 'client authentication failed' };
      id = formDecode(decoded.slice(0, colon));
      secret = formDecode(decoded.slice(colon + 1));
      if (form.client_id !== undefined && form.client_id !== id)
        return { ok: false, error: 'invalid_request', description: 'client_id differs from the authenticated client' };
    } else {
      id = form.client_id;
      secret = form.client_secret;
    }
    if (typeof id !== 'string' || typeof secret !== 'string') return { ok: false, error: 'invalid_client', description: 'client authentication failed' };
    return { ok: true, id, secret };
  }

  /** Over the anonymous limit: 429 with Retry-After and the endpoints' JSON error body (RFC 6749 §5.2), the catalogue's code as `error` and `code`. */
  private refuse(res: Response, retryAfter: number): void {
    res.setHeader('Retry-After', String(retryAfter));
    res.setHeader('Cache-Control', 'no-store');
    res.status(429).json({ error: 'rate_limited', error_description: 'too many requests; retry after the time in Retry-After', code: 'rate_limited' });
  }

  private error(res: Response, status: number, error: string, description: string): void {
    if (status === 401) res.setHeader('WWW-Authenticate', 'Basic realm="oauth", charset="UTF-8"');
    res.status(status).json({ error, error_description: description });
  }
}
