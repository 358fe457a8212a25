import { createHash, timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { DomainError } from '../../../shared/domain/errors';
import type { RequestWithContext } from '../../../shared/http/request-context';

export const CONSOLE_API_KEY = Symbol('CONSOLE_API_KEY');

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Every console call carries `Authorization: Bearer <CONSOLE_API_KEY>` (CONTRACT §10). */
@Injectable()
export class ConsoleKeyGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(@Inject(CONSOLE_API_KEY) key: string) {
    this.expected = digest(key);
  }

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<RequestWithContext>();
    const header = req.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer[ ]+(\S+)\s*$/i.exec(header) : null;
    if (!match) throw new DomainError('missing_token', 'Send Authorization: Bearer <CONSOLE_API_KEY>');
    req.tokenSent = true;
    if (!timingSafeEqual(digest(match[1]), this.expected)) {
      throw new DomainError('invalid_token', 'The console API key is not valid');
    }
    return true;
  }
}
