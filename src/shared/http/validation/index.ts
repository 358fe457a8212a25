/**
 * The field rules a module's request DTO declares (CONTRACT §4, §5): one constraint per field, each also
 * its OpenAPI schema (constraints.ts), and the field's presence, default and nesting (fields.ts). A
 * module-specific rule needs no change here: `Matches` (a pattern) or `IsFieldWith` (any predicate).
 */
export {
  IsArrayField,
  IsArrayOfField,
  IsCalendarDateField,
  IsEmailField,
  IsFieldWith,
  IsIntegerField,
  IsJsonArrayField,
  IsMatchingField,
  IsMinorAmountField,
  IsOneOfField,
  IsTextField,
  IsUuidField,
  Matches,
  type FieldSchema,
} from './constraints';
export { Amount, CanonicalId, CheckedByUseCase, type CrossFieldRule, NestedItems, NoFields, Optional, Required } from './fields';
