// Performance trick 5 of docs/adr/0013 (gain, removal): a pg `Client` subclass that names (prepares) every
// parameterized statement. Held by database-sessions and token-statement-plans e2e specs, one-statement-write.spec.ts.
import { Client, Query } from 'pg';

/** Statement texts seen by this process, each with its name; bounded so that generated SQL cannot grow it. */
const names = new Map<string, string>();
const MAX_NAMED_STATEMENTS = 512;

/** The name under which `text` is prepared on every connection, or null once the bound is reached. */
export function statementName(text: string): string | null {
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= MAX_NAMED_STATEMENTS) return null;
    name = `s${names.size}`;
    names.set(text, name);
  }
  return name;
}

type QueryCallback = (err: Error | null, result: unknown) => void;

/**
 * A `pg` client that sends every parameterized statement as a named (prepared) statement. PostgreSQL
 * then parses and plans each statement text once per connection instead of on every call (what that
 * saves on the token query: ADR 0013). Statements without parameters (BEGIN, COMMIT, DDL of migrations)
 * stay unnamed. Repositories keep writing plain `query(text, params)`; every pool's client class
 * (host-selection.ts's `SelectingClient`) extends this one.
 */
export class NamedStatementClient extends Client {
  override query(config: unknown, values?: unknown, callback?: unknown): never {
    if (typeof config === 'string' && Array.isArray(values) && values.length > 0) {
      const name = statementName(config);
      if (name !== null) {
        if (typeof callback === 'function') {
          // The callback form (pg's pool, Sql.session): the Query is built from the text and named
          // afterwards. Given a config object instead, pg copies it property by property
          // (`cloneQueryConfig`, Object.defineProperties), a visible share of a replay's CPU (ADR 0013).
          const query = new Query(config, values, callback as ConstructorParameters<typeof Query>[2]);
          (query as unknown as { name: string }).name = name;
          return (super.query as (q: unknown) => never)(query);
        }
        const named = { name, text: config, values };
        return (super.query as (c: unknown, cb?: QueryCallback) => never)(named, callback as QueryCallback | undefined);
      }
    }
    return (super.query as (c: unknown, v?: unknown, cb?: unknown) => never)(config, values, callback);
  }
}
