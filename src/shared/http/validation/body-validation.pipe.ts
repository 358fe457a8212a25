import { type ArgumentMetadata, Injectable, type PipeTransform } from '@nestjs/common';
import { validateSync } from 'class-validator';
import { MAX_ERRORS, toInputError, type Violation } from '../../domain/errors';
import { ruleMessage } from './constraints';
import { type CrossFieldRule, type FieldMeta, fieldsOf } from './fields';

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
 * (body-validation.pipe.spec.ts). Used only when every field of the class has a recorded rule.
 */
export function compiledFailures(instance: Record<string, unknown>, type: Function): FieldFailure[] {
  return [...(planFailures(instance, planOf(type)) ?? [])];
}

const NONE: ReadonlyMap<string, string> = new Map();

/**
 * What validating an object of a class needs, worked out once per class: its fields as parallel
 * arrays (iterating a Map allocates an entry per field, per object — on 500 journal lines that was
 * most of a prepare's garbage), whether every field has a compiled rule, and its CanonicalId fields.
 */
interface Plan {
  fields: Map<string, FieldMeta>;
  names: readonly string[];
  metas: readonly FieldMeta[];
  compiled: boolean;
  canonicalIds: readonly string[];
}

const plans = new WeakMap<Function, Plan>();
function planOf(type: Function): Plan {
  let plan = plans.get(type);
  if (plan === undefined) {
    const fields = fieldsOf(type);
    if (!fields) throw new Error(`${type.name} declares no fields`);
    const entries = [...fields];
    plan = {
      fields,
      names: entries.map(([name]) => name),
      metas: entries.map(([, meta]) => meta),
      compiled: entries.every(([, meta]) => meta.rule !== undefined),
      canonicalIds: entries.filter(([, meta]) => meta.canonicalId).map(([name]) => name),
    };
    plans.set(type, plan);
  }
  return plan;
}

/** The compiled rules over a plan's fields: null when every field passes (no allocation then). */
function planFailures(target: Record<string, unknown>, plan: Plan): Map<string, string> | null {
  let failed: Map<string, string> | null = null;
  for (let f = 0; f < plan.names.length; f++) {
    const value = target[plan.names[f]];
    const rule = plan.metas[f].rule!;
    if (!rule.validate(value)) (failed ??= new Map()).set(plan.names[f], ruleMessage(value, rule.message));
  }
  return failed;
}

/**
 * Validates a plain JSON object against a DTO class and returns the normalized instance, or the
 * violations with their JSON pointers. Order of work per object: unknown fields (own keys only, so
 * `__proto__` and `constructor` are unknown too), null/absent optional fields → their defaults, nested
 * items, then the fields' constraints, then cross-field rules. Nothing is coerced and nothing is
 * deep-copied: the instance holds the JSON values as parsed (class-transformer would take an own
 * `constructor` member inside free-form data such as dimension_refs for a class to instantiate).
 */
export function validateObject<T extends object>(
  raw: unknown,
  type: new () => T,
  pointer = '',
): { value: T; violations: Violation[] } {
  const violations: Violation[] = [];
  const value = validateInto(raw, type, pointer, null, violations);
  return { value, violations };
}

function pointerAt(parent: string, token: number | null): string {
  return token === null ? parent : pointerTo(parent, token);
}

/**
 * validateObject at `pointerTo(parent, token)` (or `parent` itself when token is null), its
 * violations appended to `out` in body order; returns the instance. The pointer string is built only
 * when a violation needs it, and a valid item allocates nothing but its instance — a valid 500-line
 * journal builds no per-line pointer, violation list or result object.
 */
function validateInto<T extends object>(raw: unknown, type: new () => T, parent: string, token: number | null, out: Violation[]): T {
  const plan = planOf(type);
  if (!isPlainObject(raw)) {
    out.push({ pointer: pointerAt(parent, token), code: 'invalid_input', detail: 'must be an object' });
    return undefined as unknown as T;
  }
  // own keys only (JSON.parse makes `__proto__` and `constructor` own keys: both are unknown fields)
  for (const key in raw) {
    if (hasOwn.call(raw, key) && !plan.fields.has(key)) {
      out.push({ pointer: pointerTo(pointerAt(parent, token), key), code: 'invalid_input', detail: 'is not a known field' });
    }
  }

  const instance = new type() as T & Partial<CrossFieldRule>;
  const target = instance as Record<string, unknown>;
  let nested: Violation[][] | undefined;
  for (let f = 0; f < plan.names.length; f++) {
    const name = plan.names[f];
    const meta = plan.metas[f];
    let value = hasOwn.call(raw, name) ? raw[name] : undefined;
    if ((value === null || value === undefined) && meta.optional) value = meta.default!();
    // CONTRACT §4: an array over its maxItems is one violation at its own pointer; its items are not
    // examined (a 256 KiB body of `{},` would otherwise yield ~87,000 item violations)
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

  // listed in the order of the seed's tables: each field in declaration order, a nested array's
  // items right after the array itself, then the object's cross-field rule
  const failed: ReadonlyMap<string, string> = plan.compiled
    ? (planFailures(target, plan) ?? NONE)
    : new Map(classValidatorFailures(instance));
  for (const name of plan.canonicalIds) {
    const value = target[name];
    if (typeof value === 'string' && !failed.has(name)) target[name] = value.toLowerCase();
  }
  if (failed.size > 0 || nested) {
    for (let f = 0; f < plan.names.length; f++) {
      const detail = failed.get(plan.names[f]);
      if (detail !== undefined) {
        out.push({ pointer: pointerTo(pointerAt(parent, token), plan.names[f]), code: plan.metas[f].amount ? 'invalid_amount' : 'invalid_input', detail });
      }
      const items = nested?.[f];
      if (items) for (const v of items) out.push(v);
    }
  }
  if (typeof instance.crossFieldViolations === 'function') {
    for (const v of instance.crossFieldViolations(failed)) out.push({ pointer: pointerAt(parent, token), code: 'invalid_input', detail: v.detail });
  }
  return instance;
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
