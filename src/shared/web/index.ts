// The page kernel of the server-rendered pages (consent §11, developer console §15).
export { badFormPage, cspSourceOf, PAGE_SECURITY_HEADERS, pageCsp, PageHttp, pageMiddleware, type WebRequest } from './page-http';
export { definePage, renderPage } from './page-layout';
export { isLocked, normalizeEmail, retryAfterSeconds, SIGN_IN_LOCKOUT_MS, SIGN_IN_MAX_FAILURES, SIGN_IN_WINDOW_MS } from './sign-in-lockout';
export { type SignInAttempt, SignInLockouts, signInKey } from './sign-in-lockouts';
export { WebPurge } from './web-purge';
export { WebKernelModule, WebPurgeModule } from './web.module';
export { sessionIdHash, type WebSession, WebSessions } from './web-sessions';
