import { applyDecorators } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { registerDecorator, type ValidationArguments } from 'class-validator';
import { isCalendarDate } from '../../domain/calendar-date';
import { codePointLength } from '../../domain/code-points';
import { hasControlCharacter, NO_CONTROL_CHARACTERS_PATTERN } from '../../domain/control-characters';
import { isMinorAmount, MAX_MINOR } from '../../domain/money';
import { recordMaxItems, recordRule } from './fields';

/**
 * One class-validator constraint per field, each carrying the whole rule of that field and one
 * message, so that a field gets exactly one violation (CONTRACT §4: one entry per offending field).
 * Nothing is coerced: a constraint sees the JSON value as parsed.
 *
 * Each decorator also declares the field's OpenAPI schema from the same bounds (one declaration per
 * field); `Required`/`Optional` (fields.ts) add `required`, the default and the null an optional field
 * accepts (CONTRACT §5), and the document builder turns `nullable` into OpenAPI 3.1's `type: [..., 'null']`.
 */
interface Options {
  nullable?: boolean;
}

interface TextOptions extends Options {
  /** text a page shows (a name, a code): no control character at all (issue 35 finding 8) */
  plain?: boolean;
}

/** The message of a failed rule: the same for class-validator and the compiled path. */
export function ruleMessage(value: unknown, message: string): string {
  return value === undefined ? 'is required' : value === null ? `must not be null; ${message}` : message;
}

/** The OpenAPI schema of a field's rule (without required-ness, default or nullability). */
export type FieldSchema = ApiPropertyOptions;

function constraint(name: string, check: (value: unknown) => boolean, message: string, options: Options = {}, schema: FieldSchema = {}): PropertyDecorator {
  const validate = (value: unknown) => (value === null ? options.nullable === true : check(value));
  const rule: PropertyDecorator = (target, property) => {
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: String(property),
      options: { message: (args: ValidationArguments) => ruleMessage(args.value, message) },
      validator: { validate },
    });
    // the same predicate, kept for the pipe's compiled path (see body-validation.pipe.ts)
    recordRule(target, property, { validate, message });
  };
  return applyDecorators(rule, ApiProperty({ ...schema, ...(options.nullable ? { nullable: true } : {}) } as ApiPropertyOptions));
}

/**
 * A module's own field rule (e.g. a CVR number's check digit), with the same one-violation, one-message
 * behaviour and OpenAPI schema as the shared ones: `check` sees the JSON value as parsed, never coerced.
 * Declare it beside the module's DTO; the shared kernel needs no change for it.
 */
export function IsFieldWith(name: string, check: (value: unknown) => boolean, message: string, options?: Options, schema: FieldSchema = {}): PropertyDecorator {
  return constraint(name, check, message, options, schema);
}

/**
 * A string that matches `pattern` as a whole and is storable text (no NUL): the pattern is anchored here
 * (`^(?:…)$`) and written into the OpenAPI schema as given, so the document and the check cannot differ.
 */
export function IsMatchingField(pattern: RegExp, message: string, options?: Options, schema: FieldSchema = {}): PropertyDecorator {
  if (pattern.flags.includes('g') || pattern.flags.includes('y')) throw new Error('IsMatchingField: a global or sticky pattern keeps state between checks');
  const whole = new RegExp(`^(?:${pattern.source})$`, pattern.flags);
  return constraint('matches', (v) => typeof v === 'string' && isStorableText(v) && whole.test(v), message, options, {
    type: 'string',
    pattern: whole.source,
    ...schema,
  });
}

/**
 * A module's pattern rule under class-validator's familiar name (issue 36): `@Matches(/[0-9]{8}/, 'must be a
 * CVR number of 8 digits')`. It is IsMatchingField — whole-string match, storable text, the pattern in the
 * OpenAPI schema — exported from src/shared/http/validation for modules (index.ts).
 */
export const Matches = IsMatchingField;

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID.test(v);

export function IsCalendarDateField(options?: Options): PropertyDecorator {
  return constraint('calendarDate', isCalendarDate, 'must be a calendar date YYYY-MM-DD', options, {
    type: 'string',
    format: 'date',
    pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
  });
}

/**
 * Text PostgreSQL can store as given: no NUL character (text and jsonb cannot hold U+0000) and no
 * unpaired surrogate (it would be stored as U+FFFD, silently changing the caller's data).
 */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** NUL or any surrogate: text without one (nearly all text) is storable without the pairing check. */
const NUL_OR_SURROGATE = /[\u0000\ud800-\udfff]/;
export const isStorableText = (s: string): boolean => !NUL_OR_SURROGATE.test(s) || !UNSTORABLE.test(s);

export function IsTextField(min: number, max: number, options?: TextOptions, schema: FieldSchema = {}): PropertyDecorator {
  const plain = options?.plain === true;
  return constraint(
    'text',
    (v) => {
      if (typeof v !== 'string' || !isStorableText(v)) return false;
      if (plain && hasControlCharacter(v)) return false;
      // code units bound code points from above and from below by half
      if (v.length < min || v.length > 2 * max) return false;
      const n = codePointLength(v);
      return n >= min && n <= max;
    },
    plain
      ? `must be a string of ${min} to ${max} characters of valid Unicode text without control characters`
      : `must be a string of ${min} to ${max} characters of valid Unicode text without NUL`,
    options,
    { type: 'string', minLength: min, maxLength: max, ...(plain ? { pattern: NO_CONTROL_CHARACTERS_PATTERN } : {}), ...schema },
  );
}

export function IsUuidField(options?: Options): PropertyDecorator {
  return constraint('uuid', isUuid, 'must be a uuid', options, { type: 'string', format: 'uuid', pattern: UUID.source });
}

export function IsMinorAmountField(options?: Options): PropertyDecorator {
  return constraint('minorAmount', isMinorAmount, `must be an integer from 0 to ${MAX_MINOR}`, options, {
    type: 'integer',
    minimum: 0,
    maximum: MAX_MINOR,
    description: 'øre (1/100 DKK)',
  });
}

export function IsOneOfField(values: readonly string[], options?: Options): PropertyDecorator {
  const set = new Set(values);
  return constraint('oneOf', (v) => typeof v === 'string' && set.has(v), `must be one of ${values.map((x) => JSON.stringify(x)).join(', ')}`, options, {
    type: 'string',
    enum: [...values],
  });
}

/** `items`: the schema of one item (the use case or a nested DTO judges the items themselves). */
export function IsArrayField(min: number, max: number, options?: Options & { items?: Record<string, unknown> }): PropertyDecorator {
  const rule = constraint(
    'array',
    (v) => Array.isArray(v) && v.length >= min && v.length <= max,
    min === 0 ? `must be an array of at most ${max} items` : `must be an array of ${min} to ${max} items`,
    options,
    { type: 'array', ...(options?.items ? { items: options.items } : {}), minItems: min, maxItems: max } as FieldSchema,
  );
  return (target, property) => {
    rule(target, property);
    recordMaxItems(target, property, max);
  };
}

export function IsIntegerField(min: number, max: number, options?: Options): PropertyDecorator {
  return constraint(
    'integer',
    (v) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max,
    `must be an integer from ${min} to ${max}`,
    options,
    { type: 'integer', minimum: min, maximum: max },
  );
}

export function IsArrayOfField(
  min: number,
  max: number,
  item: (v: unknown) => boolean,
  itemDescription: string,
  options?: Options & { unique?: boolean; items?: Record<string, unknown> },
): PropertyDecorator {
  return constraint(
    'arrayOf',
    (v) => Array.isArray(v) && v.length >= min && v.length <= max && v.every(item) && (!options?.unique || new Set(v).size === v.length),
    `must be an array of ${min} to ${max}${options?.unique ? ' distinct' : ''} ${itemDescription}`,
    options,
    {
      type: 'array',
      items: options?.items ?? {},
      minItems: min,
      maxItems: max,
      ...(options?.unique ? { uniqueItems: true } : {}),
      description: itemDescription,
    } as FieldSchema,
  );
}

/** One `@`, no white space and no control character (issue 35 finding 8: a NUL reached PostgreSQL). */
const EMAIL = /^[^\s@\u0000-\u001f\u007f]+@[^\s@\u0000-\u001f\u007f]+$/;

/** An e-mail address as operators type it: one `@`, no white space, 3 to 254 characters (RFC 5321's path limit). */
export function IsEmailField(options?: Options): PropertyDecorator {
  return constraint(
    'email',
    (v) => typeof v === 'string' && v.length >= 3 && v.length <= 254 && EMAIL.test(v),
    'must be an e-mail address of at most 254 characters',
    options,
    { type: 'string', minLength: 3, maxLength: 254, pattern: EMAIL.source },
  );
}

/**
 * Whether PostgreSQL can store a JSON value as jsonb, and it can be fingerprinted (RFC 8785): nested at
 * most `maxDepth` levels (a scalar is 0), no string or key holding NUL or an unpaired surrogate, and no
 * number outside the double range (`1e400` parses to Infinity: CONTRACT §20, issue 43 finding 8 — it was a
 * 500 at fingerprinting). Walked without recursion.
 */
function isStorableJson(value: unknown, maxDepth: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v === 'string') {
      if (!isStorableText(v)) return false;
      continue;
    }
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return false;
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > maxDepth) return false;
    if (Array.isArray(v)) {
      for (const child of v) stack.push([child, depth + 1]);
    } else {
      for (const [key, child] of Object.entries(v)) {
        if (!isStorableText(key)) return false;
        stack.push([child, depth + 1]);
      }
    }
  }
  return true;
}

/** Each item storable (a loop, not `every` with a closure: it runs on every journal line, mostly on `[]`). */
function everyStorableJson(items: readonly unknown[], maxDepth: number): boolean {
  for (let i = 0; i < items.length; i++) if (!isStorableJson(items[i], maxDepth)) return false;
  return true;
}

/**
 * An array of free-form JSON items (seed 2.2 `dimension_refs`: item shape not shown, so any JSON value
 * is accepted). Nesting is bounded so that every accepted item can be fingerprinted and stored —
 * PostgreSQL refuses jsonb nested thousands of levels deep — rather than failing later with a 500.
 */
export function IsJsonArrayField(maxItems: number, maxDepth: number, options?: Options): PropertyDecorator {
  return constraint(
    'jsonArray',
    (v) => Array.isArray(v) && v.length <= maxItems && everyStorableJson(v, maxDepth),
    `must be an array of at most ${maxItems} items, each nested at most ${maxDepth} levels deep, with text free of NUL and unpaired surrogates and numbers within the double range`,
    options,
    { type: 'array', items: {}, maxItems, description: `any JSON items, nested at most ${maxDepth} levels` } as FieldSchema,
  );
}
