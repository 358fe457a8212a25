/**
 * The names of a new write operation, all derived from the command line (scripts/new-operation.mjs):
 * one place, so the module's files and the wiring steps agree on every spelling.
 */

const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const SCOPE = /^[a-z][a-z0-9_]*:[a-z][a-z0-9_]*$/;
const FIELD = /^([a-z][a-z0-9_]*):(text|amount)(\?)?$/;
/** field names the generated code uses itself (columns, the receipt's members) */
const RESERVED = new Set(['id', 'organization_id', 'environment', 'app_id', 'operation_id', 'created_at', 'created', 'replayed']);

const pascal = (kebab) =>
  kebab
    .split('-')
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
const camel = (kebab) => pascal(kebab)[0].toLowerCase() + pascal(kebab).slice(1);
const snake = (kebab) => kebab.replaceAll('-', '_');

/** A usage error: the command line is wrong; the message says how. */
export class UsageError extends Error {}

/**
 * Fields: `name:text`, `name:text?` (optional, null when left out), `name:amount`, `name:amount?` (an
 * integer of øre, CONTRACT §5). The first field is the resource's business key: required text, unique
 * per organization and environment (a second create with it is 409 resource_conflict, as a product code).
 */
export function parseFields(specs) {
  const list = specs.length > 0 ? specs : ['code:text', 'name:text'];
  const fields = list.map((spec) => {
    const m = FIELD.exec(spec);
    if (!m) throw new UsageError(`field "${spec}": write name:text, name:text?, name:amount or name:amount? (snake_case name)`);
    const [, name, type, optional] = m;
    if (RESERVED.has(name)) throw new UsageError(`field "${name}": the generated code uses that name itself; choose another`);
    return { name, type, optional: optional === '?', camel: camel(name.replaceAll('_', '-')) };
  });
  const names = fields.map((f) => f.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new UsageError(`field "${twice}" is given twice`);
  if (fields[0].type !== 'text' || fields[0].optional) {
    throw new UsageError(`the first field ("${fields[0].name}") is the business key: it must be required text, e.g. code:text`);
  }
  return fields;
}

/** Every name the templates and the wiring steps use, from `<module> <resource> <scope> [fields…]`. */
export function namesFor(moduleName, resource, scope, fieldSpecs = []) {
  if (!moduleName || !resource || !scope) throw new UsageError('usage: npm run new:operation -- <module> <resource> <scope> [field:type …]');
  if (!KEBAB.test(moduleName)) throw new UsageError(`module "${moduleName}": a kebab-case plural, e.g. customers or price-lists`);
  if (!KEBAB.test(resource)) throw new UsageError(`resource "${resource}": a kebab-case singular, e.g. customer or price-list`);
  if (moduleName === resource) throw new UsageError('the module (plural) and the resource (singular) must differ, e.g. customers customer');
  if (!SCOPE.test(scope)) throw new UsageError(`scope "${scope}": <area>:<verb>, e.g. customers:create`);
  const fields = parseFields(fieldSpecs);
  const R = pascal(resource);
  const M = pascal(moduleName);
  return {
    module: moduleName, // customers: the folder, the route, the OpenAPI tag
    Module: M, // Customers: the Nest module, controller and service
    moduleCamel: camel(moduleName),
    resource, // customer
    Resource: R, // Customer
    resourceCamel: camel(resource),
    table: snake(moduleName), // customers
    scope, // customers:create
    receiptKind: `${snake(resource)}.create`, // customer.create: the receipt's kind and the idempotency operation
    resourceType: snake(resource), // customer: the receipt's resource.type
    operationId: `create${R}`,
    dto: `Create${R}RequestDto`,
    key: fields[0],
    fields,
  };
}
