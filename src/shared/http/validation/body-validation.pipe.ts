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
export function compiledFailures(instance: Record<string, unknown>, fields: Map<string, FieldMeta>): FieldFailure[] {
  const failures: FieldFailure[] = [];
  for (const [name, meta] of fields) {
    const value = instance[name];
    if (!meta.rule!.validate(value)) failures.push([name, ruleMessage(value, meta.rule!.message)]);
  }
  return failures;
}

const NONE: ReadonlyMap<string, string> = new Map();

const canonicalIds = new WeakMap<Function, readonly string[]>();
/** The fields of a class marked CanonicalId, cached per class (none for most, e.g. a journal line). */
function canonicalIdFields(type: Function, fields: Map<string, FieldMeta>): readonly string[] {
  let names = canonicalIds.get(type);
  if (names === undefined) {
    names = [...fields].filter(([, meta]) => meta.canonicalId).map(([name]) => name);
    canonicalIds.set(type, names);
  }
  return names;
}

const compiled = new WeakMap<Function, boolean>();
function isCompiled(type: Function, fields: Map<string, FieldMeta>): boolean {
  let ok = compiled.get(type);
  if (ok === undefined) {
    ok = [...fields.values()].every((m) => m.rule !== undefined);
    compiled.set(type, ok);
  }
  return ok;
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
  return validateAt(raw, type, pointer, null);
}

function pointerAt(parent: string, token: number | null): string {
  return token === null ? parent : pointerTo(parent, token);
}

/**
 * validateObject at `pointerTo(parent, token)` (or `parent` itself when token is null); the pointer
 * string is built only when a violation needs it — a valid 500-line journal builds none per line.
 */
function validateAt<T extends object>(
  raw: unknown,
  type: new () => T,
  parent: string,
  token: number | null,
): { value: T; violations: Violation[] } {
  const violations: Violation[] = [];
  const fields = fieldsOf(type);
  if (!fields) throw new Error(`${type.name} declares no fields`);
  if (!isPlainObject(raw)) {
    violations.push({ pointer: pointerAt(parent, token), code: 'invalid_input', detail: 'must be an object' });
    return { value: undefined as unknown as T, violations };
  }
  for (const key of Object.keys(raw)) {
    if (!fields.has(key)) violations.push({ pointer: pointerTo(pointerAt(parent, token), key), code: 'invalid_input', detail: 'is not a known field' });
  }

  const instance = new type() as T & Partial<CrossFieldRule>;
  const target = instance as Record<string, unknown>;
  let nestedViolations: Map<string, Violation[]> | undefined;
  for (const [name, meta] of fields) {
    let value = hasOwn.call(raw, name) ? raw[name] : undefined;
    if ((value === null || value === undefined) && meta.optional) value = meta.default!();
    // CONTRACT §4: an array over its maxItems is one violation at its own pointer; its items are not
    // examined (a 256 KiB body of `{},` would otherwise yield ~87,000 item violations)
    if (meta.nested && Array.isArray(value) && (meta.maxItems === undefined || value.length <= meta.maxItems)) {
      const itemType = meta.nested();
      const base = pointerTo(pointerAt(parent, token), name);
      const found: Violation[] = [];
      value = value.map((item, i) => {
        const result = validateAt(item, itemType, base, i);
        for (const v of result.violations) found.push(v);
        return result.value;
      });
      if (found.length > 0) (nestedViolations ??= new Map()).set(name, found);
    }
    target[name] = value;
  }

  // listed in the order of the seed's tables: each field in declaration order, a nested array's
  // items right after the array itself, then the object's cross-field rule
  const failures = isCompiled(type, fields) ? compiledFailures(target, fields) : classValidatorFailures(instance);
  const failed = failures.length === 0 ? NONE : new Map(failures);
  for (const name of canonicalIdFields(type, fields)) {
    const value = target[name];
    if (typeof value === 'string' && !failed.has(name)) target[name] = value.toLowerCase();
  }
  if (failures.length > 0 || nestedViolations) {
    for (const [name, meta] of fields) {
      const detail = failed.get(name);
      if (detail !== undefined) violations.push({ pointer: pointerTo(pointerAt(parent, token), name), code: meta.amount ? 'invalid_amount' : 'invalid_input', detail });
      for (const v of nestedViolations?.get(name) ?? []) violations.push(v);
    }
  }
  if (typeof instance.crossFieldViolations === 'function') {
    for (const v of instance.crossFieldViolations(failed)) violations.push({ pointer: pointerAt(parent, token), code: 'invalid_input', detail: v.detail });
  }
  return { value: instance, violations };
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
