import cookieParser from 'cookie-parser';
import { doubleCsrf } from 'csrf-csrf';
import { urlencoded } from 'express';
import type { NextFunction, Request, Response } from 'express';
import type { AppConfig } from '../config/app-config';
import { hasControlCharacter } from '../domain/control-characters';
import { renderPage } from './page-layout';
/** What the CSRF token is bound to: a session's id (hash) and its own secret. */
export interface CsrfBinding {
  idHash: string;
  csrfSecret: string;
}

/** A page request with the session it belongs to (set by the controller before a token is made or checked). */
export type WebRequest<S extends CsrfBinding = CsrfBinding> = Request & { webSession?: S | null };

/**
 * The pages' CSP: no script, nothing from elsewhere, no framing, and forms that post to this origin
 * only — plus `formTargets`, the sources a form's answer may redirect to (CONTRACT §11: the consent
 * form's POST answers 303 to the app's redirect URI, which the browser follows only if form-action
 * allows it).
 */
export function pageCsp(formTargets: readonly string[] = []): string {
  const formAction = ["'self'", ...formTargets].join(' ');
  return `default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action ${formAction}; frame-ancestors 'none'`;
}

/** The CSP source of a redirect URI: its origin (`https://app.example:8443`), or its scheme for an app's own (`com.example.app:`). */
export function cspSourceOf(uri: string): string | null {
  try {
    const url = new URL(uri);
    if (url.origin !== 'null') return url.origin;
    return /^[a-z][a-z0-9+.-]*:$/i.test(url.protocol) ? url.protocol : null;
  } catch {
    return null;
  }
}

/** CONTRACT §11 (and §15): every page (and every answer of the flow's endpoints) carries these. */
export const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': pageCsp(),
  'Cache-Control': 'no-store',
  Pragma: 'no-cache',
  'Referrer-Policy': 'no-referrer',
};

const parseCookies = cookieParser();
// a form is a handful of fields; 64 KiB is plenty (1,000 account checkboxes of 50 bytes each)
const parseForm = urlencoded({ extended: false, limit: 65_536, parameterLimit: 2_000 });

/**
 * Security headers, cookies and form bodies of page routes (bound to the routes, so routing comes
 * first). `badForm` answers a POST body that cannot be read (a page, or JSON for an API endpoint).
 */
export function pageMiddleware(badForm: (req: Request, res: Response, fault?: 'control character') => void) {
  return (req: Request, res: Response, next: NextFunction): void => {
    for (const [k, v] of Object.entries(PAGE_SECURITY_HEADERS)) res.setHeader(k, v);
    parseCookies(req, res, (err?: unknown) => {
      if (err) return next(err);
      if (req.method !== 'POST') return next();
      parseForm(req, res, (formErr?: unknown) => {
        if (formErr) return badForm(req, res);
        if (req.body === undefined || req.body === null || typeof req.body !== 'object') req.body = {};
        // issue 35 finding 8: no field of any form may hold a control character (a NUL reached
        // PostgreSQL as a 500); a textarea keeps its tabs and line breaks
        if (Object.values(req.body as Record<string, unknown>).some((v) => (Array.isArray(v) ? v : [v]).some((x) => typeof x === 'string' && hasControlCharacter(x, 'line breaks')))) {
          return badForm(req, res, 'control character');
        }
        next();
      });
    });
  };
}

/** The usual answer to a form that could not be read (or held a control character in a field). */
export function badFormPage(_req: Request, res: Response, fault?: 'control character'): void {
  const message = fault ? 'A field of the form holds a control character, which cannot be used. Go back and type it again.' : 'The form could not be read.';
  res.status(400).type('html').send(renderPage('message', { title: 'Bad request', message }));
}

/**
 * The session cookie and the CSRF token of one kind of page (csrf-csrf, signed with the session's own
 * secret and bound to its id, so a token of one session is worthless in another). Cookies are
 * HttpOnly, SameSite=Lax, and Secure with the `__Host-` prefix when PUBLIC_ORIGIN is https.
 * `cookiePrefix` names the cookies (`<prefix>_session`, `<prefix>_csrf`), so the consent pages and
 * the developer console keep separate sessions; `render` draws a page by name.
 */
export class PageHttp<Page extends string = string> {
  readonly secure: boolean;
  readonly sessionCookie: string;
  private readonly csrf;

  constructor(
    config: AppConfig,
    cookiePrefix: string,
    private readonly render: (name: Page | 'message', data: Record<string, unknown>) => string = renderPage,
  ) {
    this.secure = config.publicOrigin.startsWith('https:');
    this.sessionCookie = this.secure ? `__Host-${cookiePrefix}_session` : `${cookiePrefix}_session`;
    this.csrf = doubleCsrf({
      getSecret: (req?: Request) => (req as WebRequest | undefined)?.webSession?.csrfSecret ?? '',
      getSessionIdentifier: (req: Request) => (req as WebRequest).webSession?.idHash ?? '',
      cookieName: this.secure ? `__Host-${cookiePrefix}_csrf` : `${cookiePrefix}_csrf`,
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

  /** A token for the forms of this response; `req.webSession` must be the session the page belongs to. */
  csrfToken(req: WebRequest, res: Response): string {
    return this.csrf.generateCsrfToken(req, res);
  }

  /** A POST is accepted only with a session and a token bound to it (CONTRACT §11). */
  validPost(req: WebRequest): boolean {
    if (!req.webSession) return false;
    return this.csrf.validateRequest(req);
  }

  /** This page's forms may lead (by a 303 answering their POST) to these URIs: form-action allows their origins too. */
  allowFormTargets(res: Response, uris: readonly string[]): void {
    const sources = [...new Set(uris.map(cspSourceOf).filter((x): x is string => x !== null))];
    res.setHeader('Content-Security-Policy', pageCsp(sources));
  }

  /** 303 with an empty body: Express's own redirect body would repeat the Location (and its code) in the page. */
  seeOther(res: Response, location: string): void {
    res.status(303).setHeader('Location', location);
    res.end();
  }

  page(res: Response, status: number, name: Page | 'message', data: Record<string, unknown>): void {
    res.status(status).type('html').send(this.render(name, data));
  }

  forbidden(res: Response): void {
    this.page(res, 403, 'message', {
      title: 'Request refused',
      message: 'This form has expired or did not come from this site. Nothing was changed. Go back to the app and start again.',
    });
  }
}
