import { consoleRouteDeclarations, partnerRouteDeclarations } from '../../../../test/support/route-declarations';
import { IDEMPOTENCY_ERRORS } from './partner-operation';

/**
 * Every partner route describes itself in the OpenAPI document (CONTRACT §13), declared once beside the
 * route: a route without @PartnerOperation fails here, naming its controller file, before any e2e run.
 */
describe('the partner routes declare their OpenAPI operations', () => {
  const routes = partnerRouteDeclarations();

  it('finds the partner controllers (a scan that finds nothing proves nothing)', () => {
    expect(routes.length).toBeGreaterThanOrEqual(12);
    expect(routes).toContainEqual(expect.objectContaining({ method: 'post', path: '/journal', file: 'src/modules/journal/api/journal.controller.ts' }));
  });

  it('every partner route has a @PartnerOperation', () => {
    const missing = routes
      .filter((r) => !r.facts)
      .map((r) => `${r.method.toUpperCase()} ${r.path}: add @PartnerOperation({ operationId, summary, success, errors }) to ${r.handler} in ${r.file}`);
    expect(missing).toEqual([]);
  });

  it('operationIds are unique', () => {
    const ids = routes.flatMap((r) => (r.facts ? [r.facts.operationId] : []));
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('an @Idempotent() route, and only such a route, lists the Idempotency-Key answers in its errors', () => {
    const wrong = routes
      .filter((r) => r.facts && r.idempotent !== IDEMPOTENCY_ERRORS.every((code) => r.facts!.errors.includes(code)))
      .map((r) => `${r.method.toUpperCase()} ${r.path} (${r.idempotent ? '@Idempotent()' : 'not idempotent'}): fix its @PartnerOperation errors in ${r.file}`);
    expect(wrong).toEqual([]);
  });
});

describe('the console routes declare their OpenAPI operations', () => {
  const routes = consoleRouteDeclarations();

  it('every console route has a @ConsoleOperation', () => {
    expect(routes.length).toBeGreaterThanOrEqual(30);
    const missing = routes
      .filter((r) => !r.facts)
      .map((r) => `${r.method.toUpperCase()} /console/v1${r.path}: add @ConsoleOperation({ operationId, summary, result, errors }) to ${r.handler} in ${r.file}`);
    expect(missing).toEqual([]);
  });
});
