import express from 'express';
import request from 'supertest';
import { exactRoutingExpress } from '../http/server-limits';
import { prefixedLayersFirst } from './route-order';

/** An app laid out as Nest lays out the partner listener: global middleware, then middleware, then routes, then not-found. */
function anApp(extra?: (app: express.Express) => void) {
  const app = exactRoutingExpress();
  const seen: string[] = [];
  const mark =
    (name: string): express.RequestHandler =>
    (_req, _res, next) => {
      seen.push(name);
      next();
    };
  app.use(mark('global'));
  app.get('/docs', (_req, res) => void res.send('docs'));
  app.post('/api/partner/v1/journal', mark('partner body'));
  app.post('/developers/signin', mark('page body'));
  extra?.(app);
  app.get('/health/ready', (_req, res) => void res.send('ready'));
  app.post('/api/partner/v1/journal', (_req, res) => void res.send('journal'));
  app.get('/api/partner/v1/operations/:id', (req, res) => void res.send(`operation ${req.params.id}`));
  app.post('/developers/signin', (_req, res) => void res.send('signed in'));
  app.use((_req, res) => void res.status(404).send('not found'));
  return { app, seen };
}

const paths = (app: express.Express) =>
  (app as unknown as { router: { stack: Array<{ rawPath?: unknown; route?: { path: string } }> } }).router.stack.map((l) => String(l.route?.path ?? l.rawPath));

describe('prefixedLayersFirst', () => {
  it('moves the layers under the prefix, in their order, ahead of the others between them', () => {
    const { app } = anApp();
    expect(prefixedLayersFirst(app, '/api/partner/')).toBe(2);
    expect(paths(app)).toEqual([
      '/',
      '/docs', // ahead of the first layer under the prefix: stays
      '/api/partner/v1/journal',
      '/api/partner/v1/journal',
      '/api/partner/v1/operations/:id',
      '/developers/signin',
      '/health/ready',
      '/developers/signin',
      '/',
    ]);
  });

  it('leaves every request meeting the layers that match it in the same order', async () => {
    const { app, seen } = anApp();
    prefixedLayersFirst(app, '/api/partner/');
    expect((await request(app).post('/api/partner/v1/journal')).text).toBe('journal');
    expect(seen.splice(0)).toEqual(['global', 'partner body']);
    expect((await request(app).get('/api/partner/v1/operations/abc')).text).toBe('operation abc');
    expect(seen.splice(0)).toEqual(['global']);
    expect((await request(app).post('/developers/signin')).text).toBe('signed in');
    expect(seen.splice(0)).toEqual(['global', 'page body']);
    expect((await request(app).get('/docs')).text).toBe('docs');
    expect((await request(app).get('/health/ready')).text).toBe('ready');
    const unknown = await request(app).get('/api/partner/v1/journal');
    expect([unknown.status, unknown.text]).toEqual([404, 'not found']);
  });

  it.each([
    ['a catch-all middleware', (app: express.Express) => app.use('/', (_req: express.Request, _res: express.Response, next: express.NextFunction) => next())],
    [
      'a pattern that reaches under the prefix',
      (app: express.Express) => app.get('/api/:area/v1/operations/:id', (_req: express.Request, res: express.Response) => void res.end()),
    ],
    ['a wildcard', (app: express.Express) => app.all('/{*rest}', (_req: express.Request, _res: express.Response, next: express.NextFunction) => next())],
  ])('moves nothing and throws when %s stands between', (_what, extra) => {
    const { app } = anApp(extra);
    const before = paths(app);
    expect(() => prefixedLayersFirst(app, '/api/partner/')).toThrow(/cannot be moved ahead of it/);
    expect(paths(app)).toEqual(before);
  });

  it('does nothing when no layer is under the prefix', () => {
    const app = exactRoutingExpress();
    app.get('/docs', (_req, res) => void res.send('docs'));
    expect(prefixedLayersFirst(app, '/api/partner/')).toBe(0);
    expect(paths(app)).toEqual(['/docs']);
  });
});
