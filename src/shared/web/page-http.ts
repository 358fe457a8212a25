import cookieParser from 'cookie-parser';
import { doubleCsrf } from 'csrf-csrf';
import { urlencoded } from 'express';
import type { NextFunction, Request, Response } from 'express';
import type { AppConfig } from '../config/app-config';
import { hasControlCharacter } from '../domain/control-characters';
import { formatters } from './format';
import { chooseLanguage, isLang, type Lang, LANGUAGES, translate, translator } from './i18n';
import './messages';
import { renderPage } from './page-layout';

/** The language switch's cookie (CONTRACT §18): set by `?lang=` on any page, read by every page set. */
export const LANG_COOKIE = 'lang';
const LANGUAGE_NAMES: Record<Lang, string> = { da: 'Dansk', en: 'English' };

/** What a page set says about itself to the layout. */
export interface PageSet {
  /** the language when nothing else decides (CONTRACT §18: Danish for owners, English for developers) */
  defaultLang: Lang;
  /** the top bar's name, in the page's language */
  brand: (lang: Lang, serviceName: string) => string;
  /** where the brand links to, if anywhere */
  homeHref?: string;
  /** where the language switch of a page answering a POST leads (a POST's own path has no GET) */
  homePath: string;
}

/**
 * The page's language (CONTRACT §18): `?lang=` (the switch just used), the authorization request's
 * `ui_locales` (a controller puts it in `res.locals.uiLocales`), the `lang` cookie, `Accept-Language`,
 * then the page set's default. Never an error.
 */
export function pageLanguage(req: Request, res: Response, fallback: Lang): Lang {
  const query = (req.query ?? {}) as Record<string, unknown>;
  return chooseLanguage({
    switchTo: req.method === 'GET' ? query.lang : undefined,
    uiLocales: res.locals?.uiLocales,
    cookie: (req.cookies as Record<string, unknown> | undefined)?.[LANG_COOKIE],
    acceptLanguage: req.headers['accept-language'],
    fallback,
  });
}
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

/** The request's cookies into `req.cookies` (once: a second pass leaves them as they are). */
export const parseCookies = cookieParser();
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
        if (
          Object.values(req.body as Record<string, unknown>).some((v) =>
            (Array.isArray(v) ? v : [v]).some((x) => typeof x === 'string' && hasControlCharacter(x, 'line breaks')),
          )
        ) {
          return badForm(req, res, 'control character');
        }
        next();
      });
    });
  };
}

/**
 * A message page outside a page set's controller (a middleware's answer: a form that could not be
 * read, the anonymous limit's 429), in the request's language: the developer console's pages default
 * to English, the owner pages to Danish (CONTRACT §18).
 */
export function messagePage(req: Request, res: Response, status: number, titleKey: string, messageKey: string, params?: Record<string, string | number>): void {
  const lang = pageLanguage(req, res, req.path.startsWith('/developers') ? 'en' : 'da');
  languageHeaders(res, lang);
  res
    .status(status)
    .type('html')
    .send(renderPage('message', { lang, t: translator(lang), brand: '', title: translate(lang, titleKey), message: translate(lang, messageKey, params) }));
}

/** The usual answer to a form that could not be read (or that holds a control character in a field: issue 35 finding 8). */
export function badFormPage(req: Request, res: Response, fault?: 'control character'): void {
  messagePage(req, res, 400, 'web.badRequestTitle', fault ? 'web.controlCharacter' : 'web.badForm');
}

/** CONTRACT §18: which language the page is in, and that it depends on the request's language headers and cookie. */
function languageHeaders(res: Response, lang: Lang): void {
  res.setHeader('Content-Language', lang);
  // appended, so that what other layers vary on (Accept-Encoding) stays
  res.vary('Accept-Language');
  res.vary('Cookie');
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

  readonly serviceName: string;

  constructor(
    config: AppConfig,
    cookiePrefix: string,
    private readonly render: (name: Page | 'message' | 'confirm', data: Record<string, unknown>) => string = renderPage,
    readonly pageSet: PageSet = { defaultLang: 'en', brand: (_l, name) => name, homePath: '/' },
  ) {
    this.serviceName = config.serviceName ?? 'Partner API';
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

  /**
   * CONTRACT §21: a refused form's answer — 303 back to the form (GET), whose message waits in the
   * session (WebSessions.leaveFlash); `cookie` is the session's new cookie when it became a row.
   */
  backToForm(res: Response, location: string, cookie: string | null): void {
    if (cookie) this.setSession(res, cookie);
    this.seeOther(res, location);
  }

  /** The page's language (see pageLanguage); a page answering `?lang=` also keeps the choice in the `lang` cookie. */
  language(res: Response): Lang {
    const req = res.req as Request;
    const lang = pageLanguage(req, res, this.pageSet.defaultLang);
    const asked = req.method === 'GET' ? (req.query as Record<string, unknown> | undefined)?.lang : undefined;
    if (isLang(asked) && !res.headersSent && !res.locals.langCookieSet) {
      res.cookie(LANG_COOKIE, asked, { httpOnly: true, sameSite: 'lax', secure: this.secure, path: '/', maxAge: 365 * 86_400_000 });
      res.locals.langCookieSet = true;
    }
    return lang;
  }

  /**
   * The language switch: this page (GET) or the page set's home (after a POST) in each language,
   * `ui_locales` kept in step. A GET whose address holds a secret (a sign-up link's token) names its
   * switch's address instead in `res.locals.switchPathOverride`, so that the secret is on no page.
   */
  switchLinks(res: Response, lang: Lang): Array<{ lang: Lang; href: string; label: string; current: boolean }> {
    const req = res.req as Request;
    const override = res.locals.switchPathOverride as string | undefined;
    const base = override ?? (req.method === 'GET' ? req.originalUrl : ((res.locals.switchPath as string | undefined) ?? this.pageSet.homePath));
    return LANGUAGES.map((l) => {
      const url = new URL(base, 'http://page.invalid');
      url.searchParams.set('lang', l);
      if (url.searchParams.has('ui_locales')) url.searchParams.set('ui_locales', l);
      return { lang: l, href: `${url.pathname}${url.search}`, label: LANGUAGE_NAMES[l], current: l === lang };
    });
  }

  /** The texts of a page in the page's language (for controllers that name a page's title or a status). */
  t(res: Response, key: string, params?: Readonly<Record<string, string | number>>): string {
    return translate(this.language(res), key, params);
  }

  /**
   * A page in its language (CONTRACT §18): `<html lang>`, `Content-Language`, `Vary`, and for the
   * template `it.lang`, `it.t` (catalogue texts), `it.fmt` (Intl amounts and dates), the brand and the
   * language switch. `data.titleKey` / `data.title` name the page.
   */
  page(res: Response, status: number, name: Page | 'message' | 'confirm', data: Record<string, unknown>): void {
    const lang = this.language(res);
    languageHeaders(res, lang);
    const t = translator(lang);
    const title = typeof data.titleKey === 'string' ? t(data.titleKey, data.titleParams as Record<string, string> | undefined) : data.title;
    res
      .status(status)
      .type('html')
      .send(
        this.render(name, {
          serviceName: this.serviceName,
          brand: this.pageSet.brand(lang, this.serviceName),
          homeHref: this.pageSet.homeHref,
          switchLinks: this.switchLinks(res, lang),
          ...data,
          title,
          lang,
          t,
          fmt: formatters(lang),
        }),
      );
  }

  /** A titled message page; `titleKey` and `messageKey` are catalogue keys. */
  message(res: Response, status: number, titleKey: string, messageKey: string, extra: Record<string, unknown> = {}): void {
    this.page(res, status, 'message', { titleKey, message: this.t(res, messageKey, extra.params as Record<string, string> | undefined), ...extra });
  }

  forbidden(res: Response): void {
    this.message(res, 403, 'web.refusedTitle', 'web.refused');
  }
}

/** CONTRACT §18: spaces in a pasted one-time code are ignored (a code shown as `123 456` pastes with its space). */
export function oneTimeCode(raw: unknown): unknown {
  return typeof raw === 'string' && raw.length <= 64 ? raw.replace(/\s+/g, '') : raw;
}
