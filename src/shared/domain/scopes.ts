import { type ScopeDefinition, type ScopeWords, SCOPES, scopeRegistry } from '../module-facts';

/**
 * The scopes of the partner API (CONTRACT §8, §11, §13, §17). Each module declares its own scopes with
 * everything said about them — the owner's words in Danish and English (`consent`: the consent page and
 * Connected apps read them through the `consent` catalogue) and the OpenAPI words (`openapi`) — in its
 * `facts.ts` (`declareModuleFacts`, src/shared/module-facts.ts); the kernel assembles them:
 * - `SCOPES` (the checked-in order, then by module): the token's and the grant's scopes, `GET /grant`'s
 *   route, the console's grant body, the authorization server metadata's `scopes_supported`, the OpenAPI enums;
 * - `scopeCatalogueTexts` — the words as the `consent` catalogue keys them (`consent.scope.<scope>.title`/`.text`);
 * - `scopeOpenApiWords` — the OpenAPI documents' `oauth2` security scheme.
 * A missing word fails the build (the type) and src/shared/domain/scopes.spec.ts (an empty one). The route
 * that needs a scope names it where it is declared (`@PartnerRoute('products:create')`); a route naming a
 * scope no module declares fails route-operations.spec.ts.
 */
export type { ScopeDefinition, ScopeWords };
export { SCOPES };

/** A scope some module declares (checked at run time by `isScope`: modules declare them as they load). */
export type Scope = string;

export const isScope = (v: unknown): v is Scope => typeof v === 'string' && SCOPES.includes(v);

/** Each scope's words in one language, keyed as the consent catalogue wants them: `scope.<scope>.title`, `scope.<scope>.text`. */
export function scopeCatalogueTexts(lang: 'en' | 'da', registry: Readonly<Record<string, ScopeDefinition>> = scopeRegistry()): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const [scope, definition] of Object.entries(registry)) {
    texts[`scope.${scope}.title`] = definition.consent[lang].title;
    texts[`scope.${scope}.text`] = definition.consent[lang].text;
  }
  return texts;
}

/**
 * The words a registry lacks (missing, or blank), each naming the scope and the file to edit; empty when
 * every scope has its consent title and text in both languages and its OpenAPI words.
 */
export function scopeWordGaps(registry: Readonly<Record<string, ScopeDefinition>>): string[] {
  const gaps: string[] = [];
  const blank = (v: unknown) => typeof v !== 'string' || v.trim() === '';
  for (const [scope, definition] of Object.entries(registry)) {
    const where = (what: string) => `scope ${scope} has no ${what}: write it in the facts.ts of the module that declares it`;
    for (const lang of ['da', 'en'] as const) {
      for (const part of ['title', 'text'] as const) if (blank(definition.consent?.[lang]?.[part])) gaps.push(where(`consent.${lang}.${part}`));
    }
    if (blank(definition.openapi)) gaps.push(where('openapi'));
  }
  return gaps;
}

/** Each scope's OpenAPI description, keyed by scope (the `oauth2` security scheme's `scopes`). */
export function scopeOpenApiWords(): Record<Scope, string> {
  const registry = scopeRegistry();
  return Object.fromEntries(SCOPES.map((scope) => [scope, registry[scope].openapi]));
}
