import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import cookieParser from 'cookie-parser';
import { doubleCsrf } from 'csrf-csrf';
import { urlencoded } from 'express';
import type { NextFunction, Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../../../shared/config/app-config';
import type { ConsentSession } from '../domain/consent.repository';
import { renderPage } from '../views/pages';

export type ConsentRequest = Request & { consentSession?: ConsentSession | null };

/** CONTRACT §11: every page (and every answer of the flow's endpoints) carries these. */
const SECURITY_HEADERS: Record<string, string> = {
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'",
  'Cache-Control': 'no-store',
  Pragma: 'no-cache',
  'Referrer-Policy': 'no-referrer',
};

const parseCookies = cookieParser();
// a form is a handful of fields; 64 KiB is plenty (1,000 account checkboxes of 50 bytes each)
const parseForm = urlencoded({ extended: false, limit: 65_536, parameterLimit: 2_000 });

/** Security headers, cookies and form bodies for the consent routes only (routing comes first). */
@Injectable()
export class ConsentHttpMiddleware implements NestMiddleware {
  use(req: Request, res: Response, next: NextFunction): void {
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
    parseCookies(req, res, (err?: unknown) => {
      if (err) return next(err);
      if (req.method !== 'POST') return next();
      parseForm(req, res, (formErr?: unknown) => {
        if (formErr) {
          // the client endpoints answer in RFC 6749 §5.2 JSON, the pages in HTML
          if (req.path === '/oauth/token' || req.path === '/oauth/revoke') {
            res.status(400).json({ error: 'invalid_request', error_description: 'the body could not be read' });
          } else {
            res.status(400).type('html').send(renderPage('message', { title: 'Bad request', message: 'The form could not be read.' }));
          }
          return;
        }
        if (req.body === undefined || req.body === null || typeof req.body !== 'object') req.body = {};
        next();
      });
    });
  }
}

/**
 * The session cookie and the CSRF token (csrf-csrf, signed with the session's own secret and bound
 * to its id, so a token of one session is worthless in another). Cookies are HttpOnly, SameSite=Lax,
 * and Secure with the `__Host-` prefix when PUBLIC_ORIGIN is https.
 */
@Injectable()
export class ConsentHttp {
  readonly secure: boolean;
  readonly sessionCookie: string;
  private readonly csrf;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.secure = config.publicOrigin.startsWith('https:');
    this.sessionCookie = this.secure ? '__Host-consent_session' : 'consent_session';
    this.csrf = doubleCsrf({
      getSecret: (req?: Request) => (req as ConsentRequest | undefined)?.consentSession?.csrfSecret ?? '',
      getSessionIdentifier: (req: Request) => (req as ConsentRequest).consentSession?.idHash ?? '',
      cookieName: this.secure ? '__Host-consent_csrf' : 'consent_csrf',
      cookieOptions: { httpOnly: true, sameSite: 'lax', secure: this.secure, path: '/' },
      getCsrfTokenFromRequest: (req: Request) => (typeof req.body?._csrf === 'string' ? req.body._csrf : null),
    });
  }

  sessionCookieValue(req: Request): unknown {
    return (req.cookies as Record<string, unknown> | undefined)?.[this.sessionCookie];
  }

  setSession(res: Response, cookie: string): void {
    res.cookie(this.sessionCookie, cookie, { httpOnly: true, sameSite: 'lax', secure: this.secure, path: '/' });
  }

  clearSession(res: Response): void {
    res.clearCookie(this.sessionCookie, { httpOnly: true, sameSite: 'lax', secure: this.secure, path: '/' });
  }

  /** A token for the forms of this response; `req.consentSession` must be the session the page belongs to. */
  csrfToken(req: ConsentRequest, res: Response): string {
    return this.csrf.generateCsrfToken(req, res);
  }

  /** A POST is accepted only with a session and a token bound to it (CONTRACT §11). */
  validPost(req: ConsentRequest): boolean {
    if (!req.consentSession) return false;
    return this.csrf.validateRequest(req);
  }

  /** 303 with an empty body: Express's own redirect body would repeat the Location (and its code) in the page. */
  seeOther(res: Response, location: string): void {
    res.status(303).setHeader('Location', location);
    res.end();
  }

  page(res: Response, status: number, name: Parameters<typeof renderPage>[0], data: Record<string, unknown>): void {
    res.status(status).type('html').send(renderPage(name, data));
  }

  forbidden(res: Response): void {
    this.page(res, 403, 'message', {
      title: 'Request refused',
      message: 'This form has expired or did not come from this site. Nothing was changed. Go back to the app and start again.',
    });
  }
}
