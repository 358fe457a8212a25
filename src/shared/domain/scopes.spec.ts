// the modules that declare the contract's scopes (their facts.ts); the service loads every module's
import '../../modules/journal/facts';
import '../../modules/products/facts';
import '../../modules/receipts/facts';
import { scopeRegistry } from '../module-facts';
import { type ScopeDefinition, SCOPES, isScope, scopeCatalogueTexts, scopeOpenApiWords, scopeWordGaps } from './scopes';

const SCOPE_REGISTRY = scopeRegistry();

describe('the scopes the modules declare (src/shared/domain/scopes.ts)', () => {
  it("holds the contract's scopes (CONTRACT §8, and §17's journal:read), in the published order", () => {
    // the contract's literal list: an expected value, not derived; a new scope is appended after these
    expect(SCOPES.slice(0, 5)).toEqual(['journal:prepare', 'journal:post', 'products:create', 'operations:read', 'journal:read']);
  });

  it('gives every scope its consent words in Danish and English and its OpenAPI words', () => {
    expect(scopeWordGaps(SCOPE_REGISTRY)).toEqual([]);
  });

  it('names the scope and the file to edit when a word is missing or empty (the check can fail)', () => {
    const broken = {
      ...SCOPE_REGISTRY,
      'customers:create': {
        consent: { en: { title: 'Create customers', text: 'add customers' }, da: { title: '', text: 'tilføje kunder' } },
        openapi: ' ',
      },
    } as Record<string, ScopeDefinition>;
    expect(scopeWordGaps(broken)).toEqual([
      'scope customers:create has no consent.da.title: write it in the facts.ts of the module that declares it',
      'scope customers:create has no openapi: write it in the facts.ts of the module that declares it',
    ]);
    expect(scopeWordGaps({ 'customers:create': { consent: { en: { title: 'x', text: 'y' } }, openapi: 'z' } } as never)).toEqual([
      'scope customers:create has no consent.da.title: write it in the facts.ts of the module that declares it',
      'scope customers:create has no consent.da.text: write it in the facts.ts of the module that declares it',
    ]);
  });

  it('derives the consent catalogue keys and the OpenAPI scope words from it', () => {
    expect(scopeCatalogueTexts('da')['scope.journal:post.title']).toBe('Bogføre posteringer');
    expect(scopeCatalogueTexts('en')['scope.products:create.text']).toBe('add products to your product list');
    expect(Object.keys(scopeCatalogueTexts('en'))).toHaveLength(2 * SCOPES.length);
    expect(scopeOpenApiWords()['operations:read']).toBe('Read operation receipts and the events feed');
    expect(Object.keys(scopeOpenApiWords())).toEqual([...SCOPES]);
  });

  it('knows a scope by its exact name only', () => {
    expect(isScope('journal:read')).toBe(true);
    for (const v of ['Journal:read', 'journal:delete', 'constructor', 'toString', '', 3, null]) expect(isScope(v)).toBe(false);
  });
});
