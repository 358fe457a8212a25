import { consoleRouteDeclarations, partnerRouteDeclarations } from '../../../../test/support/route-declarations';
// every module, as the service loads them: the scopes and path-parameter words are their facts (facts.ts)
import '../../../app.module';
import { isScope } from '../../domain/scopes';
import { pathParameterWords } from '../../module-facts';
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

  it("every scope a partner route names is one a module declares in its facts.ts", () => {
    expect(routes.flatMap((r) => r.scopes)).toContain('products:create');
    expect(routes.filter((r) => r.everyScope).map((r) => `${r.method} ${r.path}`)).toEqual(['get /grant']);
    const unknown = routes.flatMap((r) =>
      r.scopes.filter((s) => !isScope(s)).map((s) => `${r.method.toUpperCase()} ${r.path} (${r.file}) names the scope ${s}: declare it in its module's facts.ts`),
    );
    expect(unknown).toEqual([]);
  });

  it("every path parameter of a partner route has its words in a module's facts.ts", () => {
    const words = pathParameterWords();
    const parameters = routes.flatMap((r) => [...r.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ r, name })));
    expect(parameters.map((p) => p.name)).toContain('entry_id');
    const missing = parameters
      .filter(({ name }) => !words[name])
      .map(({ r, name }) => `${r.method.toUpperCase()} ${r.path} (${r.file}): {${name}} has no words; declare them in its module's facts.ts (openapi.pathParameters)`);
    expect(missing).toEqual([]);
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
