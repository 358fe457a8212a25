import 'reflect-metadata';
import { applyDecorators } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';

/**
 * Field metadata that class-validator has no words for: which fields a DTO knows (everything else is
 * an unknown field, CONTRACT §5), what an optional field becomes when it is null or absent (seed 2.2
 * rule 4, 2.4 rule 5), which fields are amounts (their violations are `invalid_amount`), and which
 * hold an array of nested DTOs.
 */
export interface FieldMeta {
  optional: boolean;
  default?: () => unknown;
  amount: boolean;
  nested?: () => new () => object;
  /** an array field's maxItems: a longer array is one violation at its pointer, its items unexamined */
  maxItems?: number;
  /** the field's one class-validator constraint, as a plain predicate and message */
  rule?: { validate: (value: unknown) => boolean; message: string };
  /** an id the application receives lower-cased once it passed its constraint (CanonicalId) */
  canonicalId?: boolean;
}

const FIELDS = Symbol('dto:fields');

function update(target: object, property: string | symbol, patch: Partial<FieldMeta>): void {
  const ctor = target.constructor;
  const own: Map<string, FieldMeta> = Reflect.getOwnMetadata(FIELDS, ctor) ?? new Map();
  const current = own.get(String(property)) ?? { optional: false, amount: false };
  own.set(String(property), { ...current, ...patch });
  Reflect.defineMetadata(FIELDS, own, ctor);
}

const resolved = new WeakMap<Function, Map<string, FieldMeta> | undefined>();

/** The fields a DTO declares, its base classes' first (a DTO may extend another). Cached per class. */
export function fieldsOf(ctor: Function): Map<string, FieldMeta> | undefined {
  if (resolved.has(ctor)) return resolved.get(ctor);
  const own: Map<string, FieldMeta> | undefined = Reflect.getOwnMetadata(FIELDS, ctor);
  const parent = Object.getPrototypeOf(ctor);
  const inherited = parent && parent !== Function.prototype ? fieldsOf(parent) : undefined;
  const fields = inherited && own ? new Map([...inherited, ...own]) : (own ?? inherited);
  resolved.set(ctor, fields);
  return fields;
}

/** Called by the constraint decorators (constraints.ts): the predicate they register with class-validator. */
export function recordRule(target: object, property: string | symbol, rule: NonNullable<FieldMeta['rule']>): void {
  update(target, property, { rule });
}

/** Records an array field's maxItems (CONTRACT §4: a longer array's items are not examined). */
export function recordMaxItems(target: object, property: string | symbol, maxItems: number): void {
  update(target, property, { maxItems });
}

/** A field the client must send; `null` is a violation. */
export function Required(): PropertyDecorator {
  return applyDecorators(((target, property) => update(target, property, { optional: false })) as PropertyDecorator, ApiProperty({ required: true }));
}

/**
 * A field that may be absent or null; either way the server puts `defaultValue` in its place. Its
 * schema therefore accepts null (CONTRACT §5) and names the default.
 */
export function Optional(defaultValue: unknown): PropertyDecorator {
  const fresh = Array.isArray(defaultValue) ? () => [...defaultValue] : () => defaultValue;
  return applyDecorators(
    ((target, property) => update(target, property, { optional: true, default: fresh })) as PropertyDecorator,
    ApiProperty({ required: false, nullable: true, default: defaultValue } as ApiPropertyOptions),
  );
}

/**
 * A field with no class-validator rule of its own, checked by the use case (e.g. a grant's
 * `totp_code`, whose faults are 403, never 400): only its schema is declared here.
 */
export function CheckedByUseCase(schema: ApiPropertyOptions): PropertyDecorator {
  return ApiProperty(schema);
}

/**
 * Canonical ids at the edge: a uuid field that passed its constraint reaches the application
 * lower-cased, so use cases compare and store ids as they are. A violation still shows the value as sent.
 */
export function CanonicalId(): PropertyDecorator {
  return (target, property) => update(target, property, { canonicalId: true });
}

/** Violations of this field are `invalid_amount` (CONTRACT §4). */
export function Amount(): PropertyDecorator {
  return (target, property) => update(target, property, { amount: true });
}

/** An array whose items are validated as `type`, each at its own pointer. */
export function NestedItems(type: () => new () => object): PropertyDecorator {
  return applyDecorators(
    ((target, property) => update(target, property, { nested: type })) as PropertyDecorator,
    // @nestjs/swagger resolves a lazy type only when the function is named `type`
    ApiProperty({ type: { type: () => type() }.type, isArray: true } as ApiPropertyOptions),
  );
}

/**
 * A DTO rule that spans fields (e.g. a journal line's one-side rule), reported at the object's own
 * pointer. `failed` names the fields that already have a violation, so the rule can stay silent when
 * its inputs are invalid.
 */
export interface CrossFieldRule {
  crossFieldViolations(failed: { has(field: string): boolean }): ReadonlyArray<{ detail: string }>;
}

/** What a cross-field rule returns when it holds: one frozen empty list, so a valid item allocates none. */
export const NO_CROSS_FIELD_VIOLATIONS: ReadonlyArray<{ detail: string }> = Object.freeze([]);

/** Marks a request DTO that declares no fields: its body must be `{}`. */
export function NoFields(): ClassDecorator {
  return (target) => {
    if (!Reflect.getOwnMetadata(FIELDS, target)) Reflect.defineMetadata(FIELDS, new Map(), target);
  };
}
