/**
 * The scope registry (CONTRACT §8, §11, §13, §17): every scope of the partner API, declared once with
 * everything said about it. Adding a scope is one entry here; the rest is derived from it:
 * - `SCOPES` (the order below): the token's and the grant's scopes, `GET /grant`'s route, the console's
 *   grant body, the authorization server metadata's `scopes_supported`, the OpenAPI enums;
 * - `consent` — the owner's words for it in Danish and English (the consent page and Connected apps read
 *   them through the `consent` catalogue, src/modules/auth/consent/views/messages.ts: `consent.scope.<scope>.title`/`.text`);
 * - `openapi` — its description in the OpenAPI documents' `oauth2` security scheme.
 * A missing word fails the build (the type below) and src/shared/domain/scopes.spec.ts (an empty one).
 * The route that needs a scope names it where it is declared (`@PartnerRoute('products:create')`).
 */
export interface ScopeWords {
  /** the scope as a short heading: "Create products" */
  readonly title: string;
  /** what the app will be able to do, completing "The app will be able to …" */
  readonly text: string;
}

export interface ScopeDefinition {
  readonly consent: { readonly en: ScopeWords; readonly da: ScopeWords };
  /** the OpenAPI `oauth2` scheme's description of the scope (English, for developers) */
  readonly openapi: string;
}

export const SCOPE_REGISTRY = {
  'journal:prepare': {
    consent: {
      en: { title: 'Check journal entries', text: 'check journal entries against the chosen accounts, without posting anything' },
      da: { title: 'Kontrollere posteringer', text: 'kontrollere posteringer mod de valgte konti uden at bogføre noget' },
    },
    openapi: 'Check journals before posting (no writes)',
  },
  'journal:post': {
    consent: {
      en: { title: 'Post journal entries', text: 'post journal entries to the chosen accounts — only if you also tick the mandate box below' },
      da: { title: 'Bogføre posteringer', text: 'bogføre posteringer på de valgte konti — kun hvis du også sætter kryds i fuldmagten nedenfor' },
    },
    openapi: 'Post journals (final; also needs a posting mandate)',
  },
  'products:create': {
    consent: {
      en: { title: 'Create products', text: 'add products to your product list' },
      da: { title: 'Oprette varer', text: 'tilføje varer til din vareliste' },
    },
    openapi: 'Create products',
  },
  'operations:read': {
    consent: {
      en: { title: 'Read its receipts and events', text: 'look up the receipts of what it did and read the feed of their events' },
      da: { title: 'Læse sine bekræftelser og hændelser', text: 'se bekræftelserne på det, den selv har udført, og læse listen over hændelserne' },
    },
    openapi: 'Read operation receipts and the events feed',
  },
  'journal:read': {
    consent: {
      en: { title: 'Read its journal entries', text: 'read the journal entries it posted and their attachments' },
      da: { title: 'Læse sine posteringer', text: 'læse de posteringer, den har bogført, og deres bilag' },
    },
    openapi: "Read the app's own journal entries and their attachments",
  },
} as const satisfies Record<string, ScopeDefinition>;

export type Scope = keyof typeof SCOPE_REGISTRY;

/** Every scope, in the registry's order (the order `scopes_supported` and the OpenAPI enums list them in). */
export const SCOPES: readonly Scope[] = Object.freeze(Object.keys(SCOPE_REGISTRY) as Scope[]);

export const isScope = (v: unknown): v is Scope => typeof v === 'string' && Object.hasOwn(SCOPE_REGISTRY, v);

/** Each scope's words in one language, keyed as the consent catalogue wants them: `scope.<scope>.title`, `scope.<scope>.text`. */
export function scopeCatalogueTexts(lang: 'en' | 'da'): Record<`scope.${Scope}.${keyof ScopeWords}`, string> {
  const texts = {} as Record<`scope.${Scope}.${keyof ScopeWords}`, string>;
  for (const scope of SCOPES) {
    texts[`scope.${scope}.title`] = SCOPE_REGISTRY[scope].consent[lang].title;
    texts[`scope.${scope}.text`] = SCOPE_REGISTRY[scope].consent[lang].text;
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
    const where = (what: string) => `scope ${scope} has no ${what}: write it in src/shared/domain/scopes.ts`;
    for (const lang of ['da', 'en'] as const) {
      for (const part of ['title', 'text'] as const) if (blank(definition.consent?.[lang]?.[part])) gaps.push(where(`consent.${lang}.${part}`));
    }
    if (blank(definition.openapi)) gaps.push(where('openapi'));
  }
  return gaps;
}

/** Each scope's OpenAPI description, keyed by scope (the `oauth2` security scheme's `scopes`). */
export function scopeOpenApiWords(): Record<Scope, string> {
  return Object.fromEntries(SCOPES.map((scope) => [scope, SCOPE_REGISTRY[scope].openapi])) as Record<Scope, string>;
}
