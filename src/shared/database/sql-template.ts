/**
 * SQL written as tagged templates, its parameters bound where they are written: `sql\`… WHERE id = ${id}\``
 * makes a fragment; a fragment interpolated into another is part of it; `toQuery()` numbers the parameters
 * $1, $2 … in the order they appear in the whole statement. So statements composed from several modules'
 * parts (sql.ts) need no renumbering, and no part passes placeholders around as `'$1'` strings.
 *
 * What an interpolation is:
 * - a fragment (`sql`, `raw`, `join`, `empty`): its text, its own parameters numbered in place;
 * - a `bind(value)`: one parameter however often it appears in the statement (e.g. the organization that
 *   three parts of one statement compare with), so PostgreSQL infers its type once, as with a repeated `$1`;
 * - anything else, arrays included: a new parameter (node-postgres sends an array as one PostgreSQL
 *   array, `= ANY(${ids}::uuid[])`); `undefined` is refused, a forgotten field must not become NULL.
 *
 * Plain SQL text that no caller supplies (an alias, a column, a type name) goes in with `raw`. Written here
 * rather than taken from the registry: `sql-template-tag` (5.2.1) is an ES module only and has no parameter
 * bound once for several places.
 */
export class SqlFragment {
  constructor(
    private readonly strings: readonly string[],
    private readonly parts: readonly unknown[],
  ) {
    if (strings.length !== parts.length + 1) throw new TypeError('a fragment has one string more than parts');
  }

  /**
   * The statement's text and values, parameters numbered from $1. The text of a statement made of the same
   * pieces as one before it is that statement's text, found again by its pieces (StatementTexts) instead of
   * written anew: a write's statement of several modules' rows is ~7 KB of text that would otherwise be
   * concatenated, flattened and hashed on every call (bench/RESULTS.md, issue 47).
   */
  toQuery(): SqlQuery {
    let values: unknown[] = [];
    let bound = new Map<Bound, number>();
    const found = this.trace(STATEMENT_TEXTS.root, values, bound);
    let text: string;
    if (found !== null && found.text !== undefined) text = found.text;
    else {
      values = [];
      bound = new Map<Bound, number>();
      text = this.write(values, bound);
      if (found !== null) found.text = text;
    }
    return {
      text,
      values,
      indexOf(b: Bound): number {
        const n = bound.get(b);
        if (n === undefined) throw new Error('the bound parameter is not part of this statement');
        return n - 1;
      },
    };
  }

  /**
   * A fragment put into a plain string (`\`…${fragment}…\``, `+`) would lose its parameters: refused, so that
   * the mistake fails at once instead of sending `[object Object]` to PostgreSQL.
   */
  toString(): never {
    throw new TypeError('an SQL fragment is not text: interpolate it into sql`…`');
  }

  /** True when the fragment has no text at all (e.g. `empty`, `join([])`). */
  get isEmpty(): boolean {
    return this.parts.length === 0 && this.strings[0] === '';
  }

  /**
   * The values and bound numbers as write() makes them, and the cache's node for the pieces write() would
   * join: each string of the fragments and each parameter's number, in the text's order (so one node, one
   * text). Null where the cache has no room for a new node, or at an undefined value (write() refuses it).
   */
  private trace(at: TextNode | null, values: unknown[], bound: Map<Bound, number>): TextNode | null {
    let node = STATEMENT_TEXTS.step(at, this.strings[0]);
    for (let i = 0; i < this.parts.length; i++) {
      const part = this.parts[i];
      if (part instanceof SqlFragment) node = part.trace(node, values, bound);
      else if (part instanceof Bound) {
        let n = bound.get(part);
        if (n === undefined) {
          n = values.push(part.value);
          bound.set(part, n);
        }
        node = STATEMENT_TEXTS.step(node, n);
      } else if (part === undefined) return null;
      else node = STATEMENT_TEXTS.step(node, values.push(part));
      node = STATEMENT_TEXTS.step(node, this.strings[i + 1]);
    }
    return node;
  }

  private write(values: unknown[], bound: Map<Bound, number>): string {
    let text = this.strings[0];
    for (let i = 0; i < this.parts.length; i++) {
      const part = this.parts[i];
      if (part instanceof SqlFragment) text += part.write(values, bound);
      else if (part instanceof Bound) {
        let n = bound.get(part);
        if (n === undefined) {
          n = values.push(part.value);
          bound.set(part, n);
        }
        text += `$${n}`;
      } else if (part === undefined) throw new TypeError(`an undefined value for the parameter after: ${text.slice(-60)}`);
      else text += `$${values.push(part)}`;
      text += this.strings[i + 1];
    }
    return text;
  }
}

/**
 * A node of the statements' texts: reached by a statement's pieces (strings and parameter numbers) in order
 * from the root, it holds the text they make once one statement has been written. Most nodes have one
 * child, kept beside the node; the others' go to a map.
 */
interface TextNode {
  key: string | number | undefined;
  child: TextNode | undefined;
  more: Map<string | number, TextNode> | undefined;
  text: string | undefined;
}

const textNode = (key: string | number | undefined): TextNode => ({ key, child: undefined, more: undefined, text: undefined });

/**
 * The texts of the statements this process has written, by their pieces. Bounded in nodes (one per piece
 * of each distinct statement; a product's create is ~300): statements of many shapes (a posting of any number
 * of lines) fill it up to the bound, after which a statement it does not hold is written as before.
 */
export class StatementTexts {
  readonly root = textNode(undefined);
  private nodes = 0;

  constructor(private readonly maxNodes: number) {}

  step(at: TextNode | null, key: string | number): TextNode | null {
    if (at === null) return null;
    const child = at.child;
    if (child !== undefined) {
      if (child.key === key) return child;
      const next = at.more?.get(key);
      if (next !== undefined) return next;
    }
    if (this.nodes >= this.maxNodes) return null;
    this.nodes++;
    const made = textNode(key);
    if (child === undefined) at.child = made;
    else (at.more ??= new Map()).set(key, made);
    return made;
  }
}

const STATEMENT_TEXTS = new StatementTexts(50_000);

/** A statement ready for node-postgres, and where a bound parameter's value sits in `values`. */
export interface SqlQuery {
  readonly text: string;
  readonly values: unknown[];
  indexOf(b: Bound): number;
}

/** A value that is one parameter wherever it appears in a statement (see `bind`). */
export class Bound {
  constructor(readonly value: unknown) {
    if (value === undefined) throw new TypeError('an undefined value cannot be bound');
  }
}

/** The tag: SQL text with values and fragments interpolated. */
export function sql(strings: TemplateStringsArray, ...parts: unknown[]): SqlFragment {
  return new SqlFragment(strings, parts);
}

/** `value` as one parameter for every place of the statement it is interpolated into. */
export function bind(value: unknown): Bound {
  return value instanceof Bound ? value : new Bound(value);
}

/** SQL text written by the code itself (an alias, a column, a type), never a value from outside. */
export function raw(text: string): SqlFragment {
  return new SqlFragment([text], []);
}

/** The items (fragments or values) with `separator` (SQL text) between them. */
export function join(items: readonly unknown[], separator = ', '): SqlFragment {
  if (items.length === 0) return empty;
  return new SqlFragment(['', ...items.slice(1).map(() => separator), ''], items);
}

export const empty = raw('');

/**
 * What a part of another module's sql.ts takes for an expression of the composing statement: a fragment
 * (a column, `raw('a.id')`, or SQL with its own parameters) or a value bound as a parameter (`bind(v)`).
 * Not a plain string, so that a column name can never be sent as a value, nor a value written as SQL.
 */
export type SqlExpr = SqlFragment | Bound;

/** Runs a fragment on anything with node-postgres's `query(text, values)` (a transaction's EntityManager, Sql). */
export function queryWith<Row extends object = Record<string, unknown>>(
  runner: { query(text: string, values: unknown[]): Promise<unknown> },
  statement: SqlFragment,
): Promise<Row[]> {
  const { text, values } = statement.toQuery();
  return runner.query(text, values) as Promise<Row[]>;
}

/** A statement whose text is made once and whose values are filled per call (compileSql). */
export interface CompiledSql<K extends string> {
  readonly text: string;
  /** The values in the text's order; a slot the text does not use is left out. */
  values(args: Readonly<Record<K, unknown>>): unknown[];
}

/**
 * For a hot statement: `build` writes it once over one bound slot per name (each one parameter wherever it
 * is used), and each call only fills the values in place, with no text made per call.
 */
export function compileSql<K extends string>(names: readonly K[], build: (slots: Readonly<Record<K, Bound>>) => SqlFragment): CompiledSql<K> {
  const slots = Object.fromEntries(names.map((name) => [name, new Bound(name)])) as Record<K, Bound>;
  const query = build(slots).toQuery();
  const at: Array<[K, number]> = [];
  for (const name of names) {
    try {
      at.push([name, query.indexOf(slots[name])]);
    } catch {
      // a slot this text does not use
    }
  }
  if (at.length !== query.values.length) throw new Error('a compiled statement takes its values through its slots only');
  return {
    text: query.text,
    values(args) {
      const values = new Array<unknown>(query.values.length);
      for (const [name, i] of at) {
        const value = args[name];
        if (value === undefined) throw new TypeError(`no value for the slot ${name}`);
        values[i] = value;
      }
      return values;
    },
  };
}
