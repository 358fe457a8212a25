import { Module } from '@nestjs/common';
import { SignInLockouts } from './sign-in-lockouts';
import { WebSessions } from './web-sessions';

/**
 * The page kernel (STYLE.md: shared by the consent pages and the developer console): sessions and
 * sign-in lockouts. Transactions and Clock come from the global CoreModule.
 */
@Module({
  providers: [WebSessions, SignInLockouts],
  exports: [WebSessions, SignInLockouts],
})
export class WebKernelModule {}
