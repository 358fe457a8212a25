// Issue 37 probe, NOT a path to ship: the sandbox 2-line prepare answered in one pass, after the envelope (security
// headers, request id, graceful stop, completion hook) but before Nest's router-execution context and Express's
// route layers: the same JsonBodyMiddleware, the same AccessCheckService with the same prefetch and rate-limit step,
// the same BodyValidationPipe on JournalRequestDto, the same JournalService.prepare, the same ProblemFilter for errors.
// It measures what Nest's guard/pipe/handler machinery costs on a small call. Installed by with-one-pass-probe.sh.
const { join } = require('node:path');
module.exports = function install(app, dist) {
  const r = (p) => require(join(dist, p));
  const { AccessCheckService } = r('src/modules/auth/access/application/access-check.service');
  const { RateLimitService } = r('src/modules/rate-limit/rate-limit.service');
  const { JournalService } = r('src/modules/journal/application/journal.service');
  const { JournalRequestDto } = r('src/modules/journal/api/journal.request.dto');
  const { JournalController } = r('src/modules/journal/api/journal.controller');
  const { PARTNER_ROUTE } = r('src/modules/auth/access/api/partner-route.decorator');
  const { JsonBodyMiddleware } = r('src/shared/http/json-body.middleware');
  const { BodyValidationPipe } = r('src/shared/http/validation/body-validation.pipe');
  const { ProblemFilter } = r('src/shared/http/problem.filter');
  const { RateLimitedError } = r('src/shared/domain/errors');
  const { ExecutionContextHost } = require(join(dist, '..', 'node_modules', '@nestjs/core/helpers/execution-context-host'));
  const access = app.get(AccessCheckService, { strict: false });
  const rateLimit = app.get(RateLimitService, { strict: false });
  const journal = app.get(JournalService, { strict: false });
  const requirement = Reflect.getMetadata(PARTNER_ROUTE, JournalController.prototype.prepare);
  if (!requirement) throw new Error('probe: no partner route metadata on JournalController.prepare');
  const body = new JsonBodyMiddleware();
  const pipe = new BodyValidationPipe();
  const filter = new ProblemFilter('partner-api');
  const metadata = { type: 'body', metatype: JournalRequestDto, data: undefined };
  const fail = (err, req, res, next) => filter.catch(err, new ExecutionContextHost([req, res, next]));
  app.use('/api/partner/sandbox/v1/journal/prepare', (req, res, next) => {
    if (req.method !== 'POST' || req.url !== '/') return next();
    body
      .use(req, res, async () => {
        try {
          req.caller = await access.authenticate(req.headers.authorization, 'sandbox', requirement, requirement.prefetch?.(req), async (tokenHash) => {
            const outcome = await rateLimit.take(tokenHash);
            if (!outcome) return;
            res.setHeader('RateLimit-Policy', outcome.headers['RateLimit-Policy']);
            res.setHeader('RateLimit', outcome.headers.RateLimit);
            if (!outcome.allowed) throw new RateLimitedError(outcome.retryAfterSeconds);
          });
          const dto = await pipe.transform(req.body, metadata);
          res.status(200).json(await journal.prepare(req.caller, dto));
        } catch (err) {
          fail(err, req, res, next);
        }
      })
      .catch((err) => fail(err, req, res, next));
  });
};
