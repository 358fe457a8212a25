import { EventEmitter } from 'node:events';
import type { NextFunction, Request, Response } from 'express';
import { promotedDuringChurn } from '../../../test/support/promotion';
import { GracefulShutdown } from './graceful-shutdown';

describe('GracefulShutdown.middleware', () => {
  it('does not keep finished responses alive after a full collection under load', async () => {
    // The bug: the responses in flight were kept in a Set, and after one full collection with requests
    // in flight every later response was promoted with its request's data (peak RSS ~330 MB instead of
    // ~190 in the yardstick). Each item here is a response carrying its request's body.
    const shutdown = new GracefulShutdown();
    const middleware = shutdown.middleware();
    const req = { method: 'POST', path: '/journal/prepare' } as Request;
    const next: NextFunction = () => undefined;
    const promoted = await promotedDuringChurn((body) => {
      const res = Object.assign(new EventEmitter(), { body }) as unknown as Response;
      middleware(req, res, next);
      return () => res.emit('finish');
    });
    expect(promoted).toBeLessThan(5 * 2 ** 20);
  });
});
