import { type ArgumentMetadata, Injectable, type PipeTransform } from '@nestjs/common';
import { validateSync } from 'class-validator';
import { MAX_ERRORS, toInputError, type Violation } from '../../domain/errors';
import { ruleMessage } from './constraints';
import { type CrossFieldRule, type FieldMeta, fieldsOf } from './fields';
import { generateValidator, type ObjectValidator } from '../../performance/generated-validator';

const hasOwn = Object.prototype.hasOwnProperty;

/** RFC 6901: `~` → `~0`, `/` → `~1`. */
export function pointerTo(base: string, token: string | number): string {
  return `${base}/${String(token).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** One violation per failing field: `[property, message]`. */
type FieldFailure = [string, string];

/**
 * The declared contract: class-validator over the instance's flat fields (each field has exactly one
 * constraint, see constraints.ts).
 */
export function classValidatorFailures(instance: object): FieldFailure[] {
  return validateSync(instance, { stopAtFirstError: true, forbidUnknownValues: false }).map((e) => [
    e.property,
    e.constraints ? Object.values(e.constraints)[0] : 'is invalid',
  ]);
}

/**
 * The same rules, compiled: each field's one constraint runs as the plain predicate it registered with
 * class-validator, without class-validator's per-call metadata walk — on 500 journal lines that walk
 * dominated a prepare's CPU time. Equivalence with classValidatorFailures is a property test
 * (compiled-rules.spec.ts). Used only when every field of the class has a recorded rule.
 */
export function compiledFailures(instance: Record<string, unknown>, type: Function): FieldFailure[] {
  return [...(planFailures(instance, planOf(type)) ?? [])];
}

const NONE: ReadonlyMap<string, string> = new Map();

/** A field of a DTO class as the pipe walks it: its name and what its decorators recorded (fields.ts). */
interface PlannedField {
  readonly name: string;
  readonly meta: FieldMeta;
}

/**
 * What validating an object of a class needs, worked out once per class (planOf).
 * Performance: `fields` is an array of the class's fields, built once, because iterating the class's
 * Map per object allocated an entry per field — on a 500-line journal most of a prepare's garbage
 * (bench/RESULTS.md, "Validation without per-item garbage").
 */
export interface Plan {
  /** name → meta: is a body key one of the fields (the unknown-field check) */
  readonly byName: ReadonlyMap<string, FieldMeta>;
  /** the fields in declaration order, the order their violations are listed in */
  readonly fields: readonly PlannedField[];
  /** every field has a compiled rule, so fieldFailures takes the compiled path */
  readonly compiled: boolean;
  /** the fields declared @CanonicalId(): lower-cased once they pass */
  readonly canonicalIds: readonly string[];
  /** validateInto written out for this class (generated-validator.ts); only when `compiled` */
  readonly generated: ObjectValidator | null;
}

const plans = new WeakMap<Function, Plan>();

/** The plan of a DTO class, made on its first use and kept for the class's lifetime. */
export function planOf(type: Function): Plan {
  let plan = plans.get(type);
  if (plan === undefined) {
    const byName = fieldsOf(type);
    if (!byName) throw new Error(`${type.name} declares no fields`);
    const fields = [...byName].map(([name, meta]) => ({ name, meta }));
    const compiled = fields.every((f) => f.meta.rule !== undefined);
    const canonicalIds = fields.filter((f) => f.meta.canonicalId).map((f) => f.name);
    const generated = compiled ? generateValidator(type as new () => object, fields, byName, canonicalIds, GENERATOR_HELPERS) : null;
    plan = { byName, fields, compiled, canonicalIds, generated };
    plans.set(type, plan);
  }
  return plan;
}

/** The compiled rules over a plan's fields: null when every field passes (no allocation then). */
function planFailures(target: Record<string, unknown>, plan: Plan): Map<string, string> | null {
  let failed: Map<string, string> | null = null;
  for (let f = 0; f < plan.fields.length; f++) {
    const { name, meta } = plan.fields[f];
    const value = target[name];
    const rule = meta.rule!;
    if (!rule.validate(value)) (failed ??= new Map()).set(name, ruleMessage(value, rule.message));
  }
  return failed;
}

/**
 * Each failing field's message, by field name. Two paths give one answer (a property test holds them
 * equal: compiled-rules.spec.ts): the compiled rules when every field recorded one — every DTO of the
 * partner API, the fast path — else class-validator itself.
 */
function fieldFailures(instance: object, plan: Plan): ReadonlyMap<string, string> {
  if (plan.compiled) return planFailures(instance as Record<string, unknown>, plan) ?? NONE;
  return new Map(classValidatorFailures(instance));
}

/**
 * Validates a plain JSON object against a DTO class and returns the normalized instance, or the
 * violations with their JSON pointers. Order of work per object: unknown fields (own keys only, so
 * `__proto__` and `constructor` are unknown too), null/absent optional fields → their defaults, nested
 * items, then the fields' constraints, then cross-field rules. Nothing is coerced and nothing is
 * deep-copied: the instance holds the JSON values as parsed (class-transformer would take an own
 * `constructor` member inside free-form data such as dimension_refs for a class to instantiate).
 */
export function validateObject<T extends object>(raw: unknown, type: new () => T, pointer = ''): { value: T; violations: Violation[] } {
  const violations: Violation[] = [];
  const value = validateInto(raw, type, pointer, null, violations);
  return { value, violations };
}

/**
 * The pointer of an object given as its parent's pointer and its token (an item's index), or the parent
 * itself when the token is null (the body). Performance: validateInto carries (parent, token) and calls
 * this only for a violation, so a valid 500-line journal builds no per-line pointer string
 * (bench/RESULTS.md, "JSON pointers built only for a violation").
 */
export function pointerAt(parent: string, token: number | null): string {
  return token === null ? parent : pointerTo(parent, token);
}

/**
 * validateObject of one object, located at pointerAt(parent, token), its violations appended to `out`
 * in body order; returns the instance. A valid object allocates nothing but its instance (no pointer,
 * violation list or result object): a 500-line journal validates its lines through here.
 */
function validateInto<T extends object>(raw: unknown, type: new () => T, parent: string, token: number | null, out: Violation[]): T {
  const plan = planOf(type);
  // the same steps, written out for the class (generated-validator.ts): the path every partner DTO takes
  if (plan.generated !== null && !walkOnly) return plan.generated(raw, parent, token, out) as T;
  if (!isPlainObject(raw)) {
    out.push({ pointer: pointerAt(parent, token), code: 'invalid_input', detail: 'must be an object' });
    return undefined as unknown as T;
  }

  // 1. keys the class does not declare: one violation each, before anything else of this object
  for (const key in raw) {
    // own keys only (JSON.parse makes `__proto__` and `constructor` own keys: both are unknown fields)
    if (hasOwn.call(raw, key) && !plan.byName.has(key)) {
      out.push({ pointer: pointerTo(pointerAt(parent, token), key), code: 'invalid_input', detail: 'is not a known field' });
    }
  }

  // 2. the declared fields copied onto a new instance; nested items are validated here, their
  //    violations kept per field (nested[f], made only when an item fails) to be listed after that field's own
  const instance = new type() as T & Partial<CrossFieldRule>;
  const target = instance as Record<string, unknown>;
  let nested: Violation[][] | undefined;
  for (let f = 0; f < plan.fields.length; f++) {
    const { name, meta } = plan.fields[f];
    let value = hasOwn.call(raw, name) ? raw[name] : undefined;
    if ((value === null || value === undefined) && meta.optional) value = meta.default!();
    // CONTRACT §4: an array over its maxItems is one violation at its own pointer (step 3); its items are
    // not examined (a 256 KiB body of `{},` would otherwise yield ~87,000 item violations)
    if (meta.nested && Array.isArray(value) && (meta.maxItems === undefined || value.length <= meta.maxItems)) {
      const itemType = meta.nested();
      const base = pointerTo(pointerAt(parent, token), name);
      const found: Violation[] = [];
      const items = new Array<unknown>(value.length);
      for (let i = 0; i < value.length; i++) items[i] = validateInto(value[i], itemType, base, i, found);
      value = items;
      if (found.length > 0) (nested ??= [])[f] = found;
    }
    target[name] = value;
  }

  // 3. each field's one constraint (fieldFailures: compiled, or class-validator)
  const failed = fieldFailures(instance, plan);

  // 4. ids compare lower-cased downstream: a valid CanonicalId is lower-cased now, an invalid one is left as sent
  for (const name of plan.canonicalIds) {
    const value = target[name];
    if (typeof value === 'string' && !failed.has(name)) target[name] = value.toLowerCase();
  }

  // 5. the violations in the order of the seed's tables: each field in declaration order, a nested
  //    array's items right after the array itself
  if (failed.size > 0 || nested) {
    for (let f = 0; f < plan.fields.length; f++) {
      const { name, meta } = plan.fields[f];
      const detail = failed.get(name);
      if (detail !== undefined) {
        out.push({ pointer: pointerTo(pointerAt(parent, token), name), code: meta.amount ? 'invalid_amount' : 'invalid_input', detail });
      }
      const items = nested?.[f];
      if (items) for (const v of items) out.push(v);
    }
  }

  // 6. then the object's cross-field rule, which is told which fields already failed
  if (typeof instance.crossFieldViolations === 'function') {
    for (const v of instance.crossFieldViolations(failed)) out.push({ pointer: pointerAt(parent, token), code: 'invalid_input', detail: v.detail });
  }
  return instance;
}

const GENERATOR_HELPERS = { pointerTo, pointerAt, ruleMessage, validateInto, none: NONE };

/** Tests only: run `f` with the generic walk for every class, the reference the generated code is held to. */
let walkOnly = false;
export function withTheGenericWalk<T>(f: () => T): T {
  walkOnly = true;
  try {
    return f();
  } finally {
    walkOnly = false;
  }
}

// toInputError and MAX_ERRORS are domain rules (errors.ts); re-exported for the filter and the pipe's tests.
export { MAX_ERRORS, toInputError };

/**
 * The global validation pipe: the only place where validation results become `invalid_input` /
 * `invalid_amount` with JSON pointers. It validates request bodies whose parameter type is a DTO with
 * declared fields; everything else passes through untouched.
 */
@Injectable()
export class BodyValidationPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    const type = metadata.metatype as (new () => object) | undefined;
    if (metadata.type !== 'body' || !type || !fieldsOf(type)) return value;
    const { value: dto, violations } = validateObject(value, type);
    if (violations.length > 0) throw toInputError(violations);
    return dto;
  }
}
