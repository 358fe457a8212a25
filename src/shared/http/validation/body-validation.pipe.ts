import { type ArgumentMetadata, Injectable, type PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { DomainError, type Violation } from '../../domain/domain-error';
import { type CrossFieldRule, fieldsOf } from './fields';

const hasOwn = Object.prototype.hasOwnProperty;

/** RFC 6901: `~` → `~0`, `/` → `~1`. */
function pointerTo(base: string, token: string | number): string {
  return `${base}/${String(token).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function violation(pointer: string, code: Violation['code'], detail: string): Violation {
  return { pointer, code, detail };
}

/**
 * Validates a plain JSON object against a DTO class and returns the normalized instance, or the
 * violations with their JSON pointers. Order of work per object: unknown fields (own keys only, so
 * `__proto__` and `constructor` are unknown too), null/absent optional fields → their defaults, nested
 * items, then one class-validator pass over the flat fields, then cross-field rules on a valid object.
 */
export function validateObject<T extends object>(
  raw: unknown,
  type: new () => T,
  pointer = '',
): { value: T; violations: Violation[] } {
  const violations: Violation[] = [];
  const fields = fieldsOf(type);
  if (!fields) throw new Error(`${type.name} declares no fields`);
  if (!isPlainObject(raw)) {
    violations.push(violation(pointer, 'invalid_input', 'must be an object'));
    return { value: undefined as unknown as T, violations };
  }
  for (const key of Object.keys(raw)) {
    if (!fields.has(key)) violations.push(violation(pointerTo(pointer, key), 'invalid_input', 'is not a known field'));
  }

  const plain: Record<string, unknown> = {};
  const nestedValues: Record<string, unknown[]> = {};
  for (const [name, meta] of fields) {
    let value = hasOwn.call(raw, name) ? raw[name] : undefined;
    if ((value === null || value === undefined) && meta.optional) value = meta.default!();
    if (meta.nested && Array.isArray(value)) {
      const itemType = meta.nested();
      const base = pointerTo(pointer, name);
      nestedValues[name] = value.map((item, i) => {
        const result = validateObject(item, itemType, pointerTo(base, i));
        violations.push(...result.violations);
        return result.value;
      });
      continue; // set on the instance below, not copied by class-transformer
    }
    plain[name] = value;
  }

  const instance = plainToInstance(type, plain, { enableImplicitConversion: false }) as T & Partial<CrossFieldRule>;
  for (const [name, items] of Object.entries(nestedValues)) (instance as Record<string, unknown>)[name] = items;

  const own = validateSync(instance, { stopAtFirstError: true, forbidUnknownValues: false });
  for (const error of own) {
    const meta = fields.get(error.property);
    const message = error.constraints ? Object.values(error.constraints)[0] : 'is invalid';
    violations.push(violation(pointerTo(pointer, error.property), meta?.amount ? 'invalid_amount' : 'invalid_input', message));
  }
  if (typeof instance.crossFieldViolations === 'function') {
    const failed = new Set(own.map((e) => e.property));
    for (const v of instance.crossFieldViolations(failed)) violations.push(violation(pointer, 'invalid_input', v.detail));
  }
  return { value: instance, violations };
}

/** The CONTRACT §4 rule: `invalid_amount` only when every violation is an amount violation. */
export function toInputError(violations: Violation[]): DomainError {
  const code = violations.every((v) => v.code === 'invalid_amount') ? 'invalid_amount' : 'invalid_input';
  const first = violations[0];
  const detail = `${violations.length} violation${violations.length === 1 ? '' : 's'}; first: ${first.pointer || '/'} ${first.detail}`;
  return new DomainError(code, detail, violations);
}

/**
 * The global validation pipe: the only place where class-validator's output becomes
 * `invalid_input` / `invalid_amount` with JSON pointers. It validates request bodies whose parameter
 * type is a DTO with declared fields; everything else passes through untouched.
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
