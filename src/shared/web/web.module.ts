import { Module } from '@nestjs/common';
import { SignInLockouts } from './sign-in-lockouts';
import { WebPurge, WebPurgeScheduler } from './web-purge';
import { WebSessions } from './web-sessions';

/**
 * The page kernel (STYLE.md: shared by the consent pages and the developer console): sessions and
 * sign-in lockouts. Transactions, Clock and SecretBox come from the global CoreModule.
 */
@Module({
  providers: [WebSessions, SignInLockouts, WebPurge],
  exports: [WebSessions, SignInLockouts, WebPurge],
})
export class WebKernelModule {}

/** The periodic purge of expired sessions, failures and lockouts, run by the partner listener of every instance. */
@Module({ imports: [WebKernelModule], providers: [WebPurgeScheduler] })
export class WebPurgeModule {}
