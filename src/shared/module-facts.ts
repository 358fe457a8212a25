import type { PurgeParts } from './database/purge-parts';

/**
 * What a module tells the rest of the service about itself (issue 48): its scopes and their words, its
 * receipt kinds and resource types, its OpenAPI tags and path-parameter words, its part of the purge of
 * organizations and apps, its tables. A module declares them once, in its own `facts.ts` (exported
 * through its `index.ts`): `export const PRODUCTS_FACTS = declareModuleFacts({ module: 'products', … })`.
 * The kernel assembles the declarations as the modules load (the composition root imports every module)
 * and derives its lists from them (SCOPES, RECEIPT_KINDS, the partner document's tags, the purge's order);
 * no file of src/shared names a module's scope, kind, tag or table. `scripts/check-table-ownership.mjs`
 * reads `tables` from the same files.
 */
export interface ScopeWords {
  /** the scope as a short heading: "Create products" */
  readonly title: string;
  /** what the app will be able to do, completing "The app will be able to …" */
  readonly text: string;
}

export interface ScopeDefinition {
  /** the owner's words for it in Danish and English (consent page, Connected apps) */
  readonly consent: { readonly en: ScopeWords; readonly da: ScopeWords };
  /** the OpenAPI `oauth2` scheme's description of the scope (English, for developers) */
  readonly openapi: string;
}

export interface ModuleFacts {
  /** the module's folder name (`products`; `grants` for src/modules/auth/grants; `shared/web` for the page kernel) */
  readonly module: string;
  readonly scopes?: Readonly<Record<string, ScopeDefinition>>;
  /** the receipt kinds its writes store and the resource types they name (CONTRACT §7) */
  readonly receipts?: { readonly kinds: readonly string[]; readonly resourceTypes: readonly string[] };
  readonly openapi?: {
    /** the partner document's tags its routes use (`@ApiTags`), with their words */
    readonly tags?: Readonly<Record<string, string>>;
    /** the words of its routes' path parameters, by the document's name (`entry_id` for `:entryId`) */
    readonly pathParameters?: Readonly<Record<string, string>>;
  };
  /** its part of deleting organizations and apps; `refersTo`: the modules whose rows its rows refer to (it runs before them) */
  readonly purge?: { readonly parts: PurgeParts; readonly refersTo: readonly string[] };
  /** the tables it owns: only it names them in SQL (docs/architecture.md, "Who owns which table") */
  readonly tables?: readonly string[];
}

/**
 * The order of what the checked-in documents and the stored grants already list, so that moving a
 * declaration between modules reorders nothing. Only an order: a value not named here follows, by
 * module name and then in its module's order; a name of something gone is ignored.
 */
const CHECKED_IN_ORDER = {
  scopes: ['journal:prepare', 'journal:post', 'products:create', 'operations:read', 'journal:read'],
  kinds: ['product.create', 'journal.post', 'attachment.add', 'journal.reverse', 'journal.batch'],
  resourceTypes: ['product', 'journal_entry', 'attachment', 'journal_batch'],
  tags: ['journal', 'products', 'operations', 'events', 'grant'],
};

const declared = new Map<string, ModuleFacts>();

/** Every scope, in order: the token's and grant's scopes, `scopes_supported`, the OpenAPI enums. Kept current in place. */
export const SCOPES: readonly string[] = [];
/** Every receipt kind, in order (the OpenAPI enum of `kind`). Kept current in place. */
export const RECEIPT_KINDS: readonly string[] = [];
/** Every resource type a receipt names, in order. Kept current in place. */
export const RESOURCE_TYPES: readonly string[] = [];

const listeners: Array<(facts: ModuleFacts) => void> = [];

/** Calls `listener` for every declaration made so far and every later one (the consent catalogue's scope words). */
export function onModuleFacts(listener: (facts: ModuleFacts) => void): void {
  listeners.push(listener);
  for (const facts of declared.values()) listener(facts);
}

/** The values of one kind of fact across the modules, each once, in the documents' order. */
function ordered(values: Array<{ value: string; module: string; index: number }>, pins: readonly string[]): string[] {
  const rank = (v: string) => (pins.includes(v) ? pins.indexOf(v) : pins.length);
  return values.sort((a, b) => rank(a.value) - rank(b.value) || a.module.localeCompare(b.module) || a.index - b.index).map((v) => v.value);
}

function collect(pick: (f: ModuleFacts) => Iterable<string> | undefined): Array<{ value: string; module: string; index: number }> {
  return [...declared.values()].flatMap((f) => [...(pick(f) ?? [])].map((value, index) => ({ value, module: f.module, index })));
}

function refill(target: readonly string[], values: string[]): void {
  const list = target as string[];
  list.length = 0;
  list.push(...values);
}

/** Who declares each value of one kind of fact: a value declared by two modules is an error at load. */
function refuseTwice(facts: ModuleFacts, what: string, pick: (f: ModuleFacts) => Iterable<string> | undefined): void {
  const mine = new Set(pick(facts) ?? []);
  for (const other of declared.values()) {
    for (const value of pick(other) ?? []) {
      if (mine.has(value)) throw new Error(`${what} ${value} is declared by both ${other.module} and ${facts.module}: one module owns it`);
    }
  }
}

const FACT_KINDS: Array<[string, (f: ModuleFacts) => Iterable<string> | undefined]> = [
  ['the scope', (f) => Object.keys(f.scopes ?? {})],
  ['the receipt kind', (f) => f.receipts?.kinds],
  ['the OpenAPI tag', (f) => Object.keys(f.openapi?.tags ?? {})],
  ['the path parameter', (f) => Object.keys(f.openapi?.pathParameters ?? {})],
  ['the table', (f) => f.tables],
];

/** A module's `receipts` from the operations its writes declare once in its domain ({ kind, resourceType }). */
export function receiptsOf(...operations: ReadonlyArray<{ readonly kind: string; readonly resourceType: string }>): NonNullable<ModuleFacts['receipts']> {
  return { kinds: operations.map((o) => o.kind), resourceTypes: [...new Set(operations.map((o) => o.resourceType))] };
}

/** Declares a module's facts (once per module; loading the same module again is a no-op). */
export function declareModuleFacts<F extends ModuleFacts>(facts: F): F {
  const before = declared.get(facts.module);
  if (before === facts) return facts;
  if (before) throw new Error(`the module ${facts.module} declares its facts twice`);
  for (const [what, pick] of FACT_KINDS) refuseTwice(facts, what, pick);
  declared.set(facts.module, facts);
  refill(
    SCOPES,
    ordered(
      collect((f) => Object.keys(f.scopes ?? {})),
      CHECKED_IN_ORDER.scopes,
    ),
  );
  refill(
    RECEIPT_KINDS,
    ordered(
      collect((f) => f.receipts?.kinds),
      CHECKED_IN_ORDER.kinds,
    ),
  );
  // a resource type may be named by several kinds of one module; each once
  refill(RESOURCE_TYPES, [
    ...new Set(
      ordered(
        collect((f) => f.receipts?.resourceTypes),
        CHECKED_IN_ORDER.resourceTypes,
      ),
    ),
  ]);
  for (const listener of listeners) listener(facts);
  return facts;
}

/** Every module's declaration so far, by module name. */
export function moduleFacts(): ReadonlyMap<string, ModuleFacts> {
  return declared;
}

/** Each scope's definition, in SCOPES' order. */
export function scopeRegistry(): Readonly<Record<string, ScopeDefinition>> {
  const all = Object.assign({}, ...[...declared.values()].map((f) => f.scopes ?? {})) as Record<string, ScopeDefinition>;
  return Object.fromEntries(SCOPES.map((s) => [s, all[s]]));
}

/** The partner document's tags (name → words), in the document's order. */
export function openApiTags(): Array<[string, string]> {
  const all = Object.assign({}, ...[...declared.values()].map((f) => f.openapi?.tags ?? {})) as Record<string, string>;
  return ordered(
    collect((f) => Object.keys(f.openapi?.tags ?? {})),
    CHECKED_IN_ORDER.tags,
  ).map((t) => [t, all[t]]);
}

/** The words of every path parameter, by the document's name. */
export function pathParameterWords(): Readonly<Record<string, string>> {
  return Object.assign({}, ...[...declared.values()].map((f) => f.openapi?.pathParameters ?? {})) as Record<string, string>;
}

/**
 * Every module's purge part, dependants first: a module's part runs before the parts of the modules its
 * rows refer to (`refersTo`); among those free to run, by module name.
 */
export function purgeOrder(): Array<{ module: string; parts: PurgeParts }> {
  const purging = [...declared.values()].filter((f) => f.purge).sort((a, b) => a.module.localeCompare(b.module));
  const done: Array<{ module: string; parts: PurgeParts }> = [];
  const left = new Set(purging.map((f) => f.module));
  while (left.size > 0) {
    // free: no module still left refers to it
    const next = purging.find((f) => left.has(f.module) && !purging.some((g) => left.has(g.module) && g.purge!.refersTo.includes(f.module)));
    if (!next) throw new Error(`the purge parts refer to each other in a circle: ${[...left].join(', ')}`);
    left.delete(next.module);
    done.push({ module: next.module, parts: next.purge!.parts });
  }
  return done;
}

/** The owner of every declared table (`table` → module). */
export function tableOwners(): Record<string, string> {
  return Object.fromEntries([...declared.values()].flatMap((f) => (f.tables ?? []).map((t) => [t, f.module])));
}
