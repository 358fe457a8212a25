// The page kernel of the server-rendered pages (consent §11, developer console §15).
export {
  badFormPage,
  cspSourceOf,
  LANG_COOKIE,
  messagePage,
  oneTimeCode,
  PAGE_SECURITY_HEADERS,
  pageCsp,
  PageHttp,
  pageLanguage,
  pageMiddleware,
  parseCookies,
  type PageSet,
  type WebRequest,
} from './page-http';
export { definePage, renderPage } from './page-layout';
export { isLocked, normalizeEmail, retryAfterSeconds, SIGN_IN_LOCKOUT_MS, SIGN_IN_MAX_FAILURES, SIGN_IN_WINDOW_MS } from './sign-in-lockout';
export { type SignInAttempt, SignInLockouts, signInKey } from './sign-in-lockouts';
export { WebPurge } from './web-purge';
export { WebKernelModule, WebPurgeModule } from './web.module';
export { type Flash, refusedSignIn, sessionIdHash, type WebSession, WebSessions } from './web-sessions';
export {
  addCatalogueTexts,
  catalogueGaps,
  catalogueNamespaces,
  chooseLanguage,
  defineCatalogue,
  firstSupportedTag,
  fromAcceptLanguage,
  isLang,
  type Lang,
  LANGUAGES,
  translate,
  type Translate,
  translator,
} from './i18n';
export { formatAmount, formatDate, formatDateTime, formatters, formatUtc, OWNER_TIME_ZONE } from './format';
export { STYLESHEET } from './page-layout';
export { WEB_FACTS } from './facts';
