import { Logger } from '@nestjs/common';

/**
 * CONTRACT §18: every page of §11, §15 and §18 is served in Danish and in English; every text a person
 * reads comes from a catalogue per language. A module declares its texts once, beside its pages, with
 * `defineCatalogue` (both languages, typed keys: a key missing in `da` fails the build and
 * `catalogueGaps` in a unit test); a key missing at run time falls back to English and is logged once.
 */
export const LANGUAGES = ['da', 'en'] as const;
export type Lang = (typeof LANGUAGES)[number];

export function isLang(v: unknown): v is Lang {
  return typeof v === 'string' && (LANGUAGES as readonly string[]).includes(v);
}

/** A catalogue's texts: `{name}` in a text is replaced by the parameter of that name. */
export type Texts = Readonly<Record<string, string>>;
export type CatalogueOf<T extends Texts> = { readonly en: T; readonly da: { readonly [K in keyof T]: string } };

const registry: Record<Lang, Map<string, string>> = { da: new Map(), en: new Map() };
const catalogues = new Map<string, { en: Texts; da: Texts }>();
const logger = new Logger('i18n');
const reported = new Set<string>();

/** Registers a module's texts under `namespace` (`consent`, `developers`, `web`): keys become `namespace.key`. */
export function defineCatalogue<T extends Texts>(namespace: string, catalogue: CatalogueOf<T>): CatalogueOf<T> {
  catalogues.set(namespace, catalogue as { en: Texts; da: Texts });
  for (const lang of LANGUAGES) {
    for (const [k, v] of Object.entries(catalogue[lang] as Texts)) registry[lang].set(`${namespace}.${k}`, v);
  }
  return catalogue;
}

/**
 * Adds texts to a namespace that another part declares (the `consent` catalogue's scope words, which the
 * modules that own the scopes declare: src/shared/module-facts.ts); checked by `catalogueGaps` like the rest.
 */
export function addCatalogueTexts(namespace: string, texts: { en: Texts; da: Texts }): void {
  const before = catalogues.get(namespace) ?? { en: {}, da: {} };
  catalogues.set(namespace, { en: { ...before.en, ...texts.en }, da: { ...before.da, ...texts.da } });
  for (const lang of LANGUAGES) {
    for (const [k, v] of Object.entries(texts[lang])) registry[lang].set(`${namespace}.${k}`, v);
  }
}

/** The keys one language lacks, or has empty, that the other has (per namespace); a unit test keeps this empty. */
export function catalogueGaps(): Array<{ lang: Lang; key: string }> {
  const gaps: Array<{ lang: Lang; key: string }> = [];
  for (const [ns, c] of catalogues) {
    for (const lang of LANGUAGES) {
      const other = lang === 'da' ? c.en : c.da;
      for (const key of Object.keys(other)) {
        const v = (c[lang] as Record<string, unknown>)[key];
        if (typeof v !== 'string' || v.trim() === '') gaps.push({ lang, key: `${ns}.${key}` });
      }
    }
  }
  return gaps;
}

/** The namespaces registered so far (for the test that the catalogues are complete). */
export function catalogueNamespaces(): string[] {
  return [...catalogues.keys()];
}

const pluralRules: Record<Lang, Intl.PluralRules> = { da: new Intl.PluralRules('da'), en: new Intl.PluralRules('en') };

/**
 * `{name}` is the parameter; `{name, plural, one {# sekund} other {# sekunder}}` (ICU's form) picks the
 * language's plural category of the number with Intl.PluralRules (`other` when the text has no form for
 * it), `#` being the number: so "1 sekund", never "1 sekunder" (CONTRACT §21).
 */
function fill(lang: Lang, text: string, params?: Readonly<Record<string, string | number>>): string {
  if (!params) return text;
  const plural = text.replace(/\{(\w+), plural,((?:\s*[a-z]+ \{[^{}]*\})+)\s*\}/g, (whole, name: string, forms: string) => {
    if (!(name in params)) return whole;
    const n = Number(params[name]);
    const byCategory = new Map([...forms.matchAll(/([a-z]+) \{([^{}]*)\}/g)].map((m) => [m[1], m[2]]));
    const form = byCategory.get(Number.isFinite(n) ? pluralRules[lang].select(n) : 'other') ?? byCategory.get('other') ?? '';
    return form.replace(/#/g, String(params[name]));
  });
  return plural.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** The text of `key` in `lang`; a key missing in `lang` falls back to English (logged once per key and language). */
export function translate(lang: Lang, key: string, params?: Readonly<Record<string, string | number>>): string {
  const text = registry[lang].get(key);
  if (text !== undefined) return fill(lang, text, params);
  const tag = `${lang}:${key}`;
  if (!reported.has(tag)) {
    reported.add(tag);
    logger.warn({ lang, key }, 'page text missing from the catalogue; English shown');
  }
  return fill('en', registry.en.get(key) ?? key, params);
}

/** A translator bound to one language, as the templates receive it (`it.t('consent.allow')`). */
export type Translate = (key: string, params?: Readonly<Record<string, string | number>>) => string;
export function translator(lang: Lang): Translate {
  return (key, params) => translate(lang, key, params);
}

/** The first supported language of a space-separated list of tags (OpenID Connect `ui_locales`), by primary subtag. */
export function firstSupportedTag(list: unknown): Lang | null {
  if (typeof list !== 'string' || list.length > 500) return null;
  for (const tag of list.split(/\s+/)) {
    const primary = tag.split('-')[0]?.toLowerCase();
    if (isLang(primary)) return primary;
  }
  return null;
}

/**
 * The most wanted supported language of an `Accept-Language` header (RFC 9110 §12.5.4: weights
 * honoured, `q=0` means not wanted, `*` leaves it to the default), or null. Garbage is
 * skipped, never an error.
 */
export function fromAcceptLanguage(header: unknown): Lang | null {
  if (typeof header !== 'string' || header.length > 2_000) return null;
  let best: { lang: Lang; q: number; order: number } | null = null;
  const parts = header.split(',').slice(0, 50);
  const candidates: Array<{ tag: string; q: number; order: number }> = [];
  parts.forEach((part, order) => {
    const [rawTag, ...params] = part.trim().split(';');
    const tag = rawTag.trim().toLowerCase();
    if (!/^(\*|[a-z]{1,8}(-[a-z0-9]{1,8})*)$/.test(tag)) return;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([01](\.\d{0,3})?)\s*$/i.exec(p);
      if (m) q = Math.min(1, Number(m[1]));
      else return;
    }
    candidates.push({ tag, q, order });
  });
  for (const c of candidates) {
    if (c.q <= 0) continue;
    const primary = c.tag.split('-')[0];
    // `*` (any language) names none of ours: the page set's default decides, as with no header
    const langs: Lang[] = isLang(primary) ? [primary] : [];
    for (const lang of langs) {
      if (!best || c.q > best.q || (c.q === best.q && c.order < best.order)) best = { lang, q: c.q, order: c.order };
    }
  }
  return best ? best.lang : null;
}

/**
 * CONTRACT §18's order: the switch just used (`lang` in the query, which also sets the cookie), the
 * authorization request's `ui_locales`, the `lang` cookie, `Accept-Language`, then the page set's
 * default (Danish for owners, English for developers). Unknown values are skipped.
 */
export function chooseLanguage(input: { switchTo?: unknown; uiLocales?: unknown; cookie?: unknown; acceptLanguage?: unknown; fallback: Lang }): Lang {
  if (isLang(input.switchTo)) return input.switchTo;
  const fromUi = isLang(input.uiLocales) ? input.uiLocales : firstSupportedTag(input.uiLocales);
  if (fromUi) return fromUi;
  if (isLang(input.cookie)) return input.cookie;
  return fromAcceptLanguage(input.acceptLanguage) ?? input.fallback;
}
