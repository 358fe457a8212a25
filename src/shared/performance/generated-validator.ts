// Performance trick 6 of docs/adr/0013 (gain, removal): validators generated with `new Function`, beside the
// generic walk and class-validator. Held equal to the generic walk by generated-validator.spec.ts (property test).
import type { Violation } from '../domain/errors';
import type { FieldMeta } from '../http/validation/fields';

/** validateInto's signature: one object at pointerAt(parent, token), its violations appended to `out`. */
export type ObjectValidator = (raw: unknown, parent: string, token: number | null, out: Violation[]) => object;

/** What the generated code calls back into: the pipe's own helpers, so that both paths share them. */
export interface GeneratorHelpers {
  pointerTo(base: string, token: string | number): string;
  pointerAt(parent: string, token: number | null): string;
  ruleMessage(value: unknown, message: string): string;
  /** validates a nested item (the plan of its class decides which path it takes) */
  validateInto(raw: unknown, type: new () => object, parent: string, token: number | null, out: Violation[]): object;
  /** the empty failure map handed to a cross-field rule when no field failed */
  none: ReadonlyMap<string, string>;
}

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * The pipe's validateInto for one DTO class, written out as code for that class's fields (for the
 * 500-line prepare's CPU: ADR 0013). The generic walk reads and writes each field through a computed name, so
 * on a journal line every access is a megamorphic look-up; the generated function names each field, so
 * V8 sees one object shape per access. It does exactly what the generic walk does, step for step (the
 * numbered steps of validateInto), and a property test holds the two equal (generated-validator.spec.ts).
 * Only for classes whose every field has a compiled rule; the field names come from the class's own
 * decorators and are written as JSON string literals.
 */
export function generateValidator(
  type: new () => object,
  fields: ReadonlyArray<{ readonly name: string; readonly meta: FieldMeta }>,
  byName: ReadonlyMap<string, FieldMeta>,
  canonicalIds: readonly string[],
  helpers: GeneratorHelpers,
): ObjectValidator {
  const lit = (name: string) => JSON.stringify(name);
  const hasNested = fields.some((f) => f.meta.nested);
  const lines: string[] = [
    `return function validate${type.name.replace(/[^A-Za-z0-9_$]/g, '')}(raw, parent, token, out) {`,
    `  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {`,
    `    out.push({ pointer: h.pointerAt(parent, token), code: 'invalid_input', detail: 'must be an object' });`,
    `    return undefined;`,
    `  }`,
    // 1. unknown keys, own keys only
    `  for (const key in raw) {`,
    `    if (hasOwn.call(raw, key) && !byName.has(key)) {`,
    `      out.push({ pointer: h.pointerTo(h.pointerAt(parent, token), key), code: 'invalid_input', detail: 'is not a known field' });`,
    `    }`,
    `  }`,
    // 2. the declared fields onto a new instance, nested items validated
    `  const instance = new Type();`,
    hasNested ? `  let nested;` : '',
  ];
  fields.forEach(({ name, meta }, f) => {
    const v = `v${f}`;
    lines.push(`  let ${v} = hasOwn.call(raw, ${lit(name)}) ? raw[${lit(name)}] : undefined;`);
    if (meta.optional) lines.push(`  if (${v} === null || ${v} === undefined) ${v} = metas[${f}].default();`);
    if (meta.nested) {
      const bound = meta.maxItems === undefined ? '' : ` && ${v}.length <= ${meta.maxItems}`;
      lines.push(
        `  if (Array.isArray(${v})${bound}) {`,
        `    const itemType = metas[${f}].nested();`,
        `    const base = h.pointerTo(h.pointerAt(parent, token), ${lit(name)});`,
        `    const found = [];`,
        `    const items = new Array(${v}.length);`,
        `    for (let i = 0; i < ${v}.length; i++) items[i] = h.validateInto(${v}[i], itemType, base, i, found);`,
        `    ${v} = items;`,
        `    if (found.length > 0) (nested ??= [])[${f}] = found;`,
        `  }`,
      );
    }
    lines.push(`  instance[${lit(name)}] = ${v};`);
  });
  // 3. each field's one constraint
  lines.push(`  let failed = null;`);
  fields.forEach(({ name }, f) => {
    lines.push(`  if (!rules[${f}](v${f})) (failed ??= new Map()).set(${lit(name)}, h.ruleMessage(v${f}, messages[${f}]));`);
  });
  // 4. canonical ids lower-cased once they passed
  for (const name of canonicalIds) {
    const f = fields.findIndex((x) => x.name === name);
    lines.push(`  if (typeof v${f} === 'string' && !(failed !== null && failed.has(${lit(name)}))) instance[${lit(name)}] = v${f}.toLowerCase();`);
  }
  // 5. the violations in declaration order, a nested array's items right after the array itself
  lines.push(`  if (failed !== null${hasNested ? ' || nested !== undefined' : ''}) {`, `    const here = h.pointerAt(parent, token);`);
  fields.forEach(({ name, meta }, f) => {
    lines.push(
      `    if (failed !== null) { const detail = failed.get(${lit(name)}); if (detail !== undefined) out.push({ pointer: h.pointerTo(here, ${lit(name)}), code: ${lit(meta.amount ? 'invalid_amount' : 'invalid_input')}, detail }); }`,
    );
    if (meta.nested) lines.push(`    if (nested !== undefined && nested[${f}]) for (let i = 0; i < nested[${f}].length; i++) out.push(nested[${f}][i]);`);
  });
  lines.push(`  }`);
  // 6. the object's cross-field rule, told which fields failed
  lines.push(
    `  if (typeof instance.crossFieldViolations === 'function') {`,
    `    const cross = instance.crossFieldViolations(failed ?? h.none);`,
    `    for (let i = 0; i < cross.length; i++) out.push({ pointer: h.pointerAt(parent, token), code: 'invalid_input', detail: cross[i].detail });`,
    `  }`,
    `  return instance;`,
    `};`,
  );
  const metas = fields.map((f) => f.meta);
  const rules = metas.map((m) => m.rule!.validate);
  const messages = metas.map((m) => m.rule!.message);
  const make = new Function('h', 'hasOwn', 'byName', 'Type', 'metas', 'rules', 'messages', lines.filter((l) => l !== '').join('\n'));
  return make(helpers, hasOwn, byName, type, metas, rules, messages) as ObjectValidator;
}
