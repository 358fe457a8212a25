import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { JournalLineRequestDto, JournalRequestDto } from '../../../modules/journal/api/journal.request.dto';
import { CreateProductRequestDto } from '../../../modules/products/api/create-product.request.dto';
import { CreateAppRequestDto } from '../../../modules/console/api/app.request.dto';
import { CreateGrantRequestDto, CreateMandateRequestDto } from '../../../modules/console/api/grant.request.dto';
import {
  CreateAccountRequestDto,
  CreateOrganizationRequestDto,
  CreateTaxCodeRequestDto,
  EnrolOwnerRequestDto,
} from '../../../modules/console/api/organization.request.dto';
import { CreateSandboxProjectRequestDto } from '../../../modules/console/api/sandbox-projects.controller';
import { CreateWebhookEndpointRequestDto } from '../../../modules/console/api/webhook-endpoints.controller';
import { EmptyRequestDto } from '../dto/empty.request.dto';
import { RegisterOAuthClientRequestDto } from '../../../modules/console/api/oauth-clients.controller';
import { fieldsOf } from '../validation/fields';

/**
 * One declaration per field: the schema the field decorators put into the checked-in documents agrees
 * with the rule they register — required-ness, default, null, and on probe values at and around every
 * bound, the verdict. (The drift e2e test keeps the checked-in documents equal to the code's.)
 */
const documents = ['partner', 'console'].map((name) =>
  JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'openapi', `${name}.json`), 'utf8')),
);
const ajv = new Ajv2020({ strict: false, validateFormats: true });
addFormats(ajv);

function schemaOf(name: string): Record<string, any> {
  const found = documents.map((d) => d.components.schemas[name]).find(Boolean);
  if (!found) throw new Error(`no schema ${name} in openapi/*.json`);
  return found;
}

const DTOS: Array<[string, Function]> = [
  ['JournalRequestDto', JournalRequestDto],
  ['JournalLineRequestDto', JournalLineRequestDto],
  ['CreateProductRequestDto', CreateProductRequestDto],
  ['CreateSandboxProjectRequestDto', CreateSandboxProjectRequestDto],
  ['CreateOrganizationRequestDto', CreateOrganizationRequestDto],
  ['CreateAccountRequestDto', CreateAccountRequestDto],
  ['CreateTaxCodeRequestDto', CreateTaxCodeRequestDto],
  ['EnrolOwnerRequestDto', EnrolOwnerRequestDto],
  ['CreateAppRequestDto', CreateAppRequestDto],
  ['CreateMandateRequestDto', CreateMandateRequestDto],
  ['CreateGrantRequestDto', CreateGrantRequestDto],
  ['CreateWebhookEndpointRequestDto', CreateWebhookEndpointRequestDto],
  ['EmptyRequestDto', EmptyRequestDto],
  ['RegisterOAuthClientRequestDto', RegisterOAuthClientRequestDto],
];

/** Values at and around a schema's bounds, plus every JSON type. */
function probes(schema: Record<string, any>): unknown[] {
  const values: unknown[] = [true, 0, -1, 1, 1.5, 1e2, 'x', '', {}, [], '2024-02-29', '2023-02-29', '2026-11-20T00:00:00Z'];
  values.push('500d9204-EDCC-4fb5-a209-6518960920d6', '500d9204-edcc-4fb5-a209-65189609', 'owner@example.dk', 'a b@c', 'DKK', 'stk', 'services');
  for (const n of [schema.minLength, schema.maxLength]) {
    if (typeof n === 'number') for (const k of [n - 1, n, n + 1]) if (k >= 0) values.push('x'.repeat(k), '😀'.repeat(k));
  }
  for (const n of [schema.minimum, schema.maximum]) if (typeof n === 'number') values.push(n - 1, n, n + 1, String(n));
  for (const n of [schema.minItems, schema.maxItems]) {
    if (typeof n === 'number') for (const k of [n - 1, n, n + 1]) if (k >= 0) values.push(Array.from({ length: k }, () => 1));
  }
  for (const v of schema.enum ?? []) if (v !== null) values.push(v, `${v}x`);
  return values;
}

describe.each(DTOS)('the schema of %s', (name, type) => {
  const schema = schemaOf(name);
  const fields = fieldsOf(type) ?? new Map();

  it('has exactly the fields of the DTO, closed to unknown fields', () => {
    expect(Object.keys(schema.properties ?? {}).sort()).toEqual([...fields.keys()].sort());
    expect(schema.additionalProperties).toBe(false);
  });

  it('requires exactly the required fields', () => {
    const required = [...fields].filter(([, meta]) => !meta.optional).map(([field]) => field);
    expect([...(schema.required ?? [])].sort()).toEqual(required.sort());
  });

  for (const [field, meta] of fields) {
    it(`${field}: default, null and the rule's verdict on probe values agree`, () => {
      const property = schema.properties[field];
      expect(property).toBeDefined();
      expect(JSON.stringify(property)).not.toContain('nullable');
      if (meta.optional) expect(property.default).toEqual(meta.default!());
      else expect(property).not.toHaveProperty('default');
      // an array's items are judged by their own rule (a nested DTO, or the use case: /account_ids/N, /scopes/N)
      const { items, ...shape } = property;
      if (meta.nested) expect(items).toEqual({ $ref: `#/components/schemas/${meta.nested().name}` });
      const accepts = (v: unknown) => ajv.validate(shape, v);
      // null: optional fields take their default (CONTRACT §5); required ones refuse it
      expect(accepts(null)).toBe(meta.optional);
      if (!meta.rule) return; // checked by the use case only (totp_code: any fault is 403)
      for (const value of probes(property)) {
        expect({ value, schema: accepts(value) }).toEqual({ value, schema: meta.rule.validate(value) });
      }
    });
  }
});
