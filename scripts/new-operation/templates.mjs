/**
 * The new module's own files, modelled on src/modules/products (docs/architecture.md): an exactly-once
 * `POST /<module>` with an Idempotency-Key, one scope, a receipt and its `operation.completed` event, a
 * table with its migration, the OpenAPI facts and an e2e spec with supertest. Each template takes the
 * names of names.mjs and returns the file's text; `files(n, timestamp)` lists them by path.
 * What lies outside the module is added by the wiring steps (wiring.mjs), not here.
 */

/** the domain's constant naming the create's receipt (kind, resource type): GADGET_CREATE */
const createConst = (n) => `${n.resourceType.toUpperCase()}_CREATE`;
const tsType = (f) => (f.type === 'text' ? 'string' : 'number') + (f.optional ? ' | null' : '');
const column = (f) => (f.type === 'text' ? 'text' : 'bigint');
const MAX_MINOR = 99999999999999;
/** the text length a field allows: the key as a product code (70), the others as a product name (200) */
const maxOf = (n, f) => (f === n.key ? 70 : 200);

function dtoField(n, f) {
  const lines = [f.optional ? '  @Optional(null)' : '  @Required()'];
  const nullable = f.optional ? '{ nullable: true }' : '';
  if (f.type === 'text') lines.push(`  @IsTextField(1, ${maxOf(n, f)}${f.optional ? ', { nullable: true }' : ''})`);
  else lines.push('  @Amount()', `  @IsMinorAmountField(${nullable})`);
  lines.push(`  ${f.name}: ${tsType(f)};`);
  return lines.join('\n');
}

const dto = (n) => {
  const validators = [...new Set(n.fields.map((f) => (f.type === 'text' ? 'IsTextField' : 'IsMinorAmountField')))].sort();
  const fields = [...new Set(n.fields.flatMap((f) => [f.optional ? 'Optional' : 'Required', ...(f.type === 'amount' ? ['Amount'] : [])]))].sort();
  // the field rules' public surface (src/shared/http/validation/index.ts): Matches for a pattern, IsFieldWith for any predicate
  return `import { ${[...validators, ...fields].sort().join(', ')} } from '../../../shared/http/validation';

/** The ${n.resource} input of \`POST /${n.module}\`: a field left out is rejected (required) or null (optional). */
export class ${n.dto} {
${n.fields.map((f) => dtoField(n, f)).join('\n\n')}
}
`;
};

const domain = (n) => `import type { NewResource } from '../../idempotency';

/** The normalized ${n.resource} input (defaults filled by the server, CONTRACT §5). */
export interface ${n.Resource}Input {
${n.fields.map((f) => `  ${f.name}: ${tsType(f)};`).join('\n')}
}

/** The create's receipt (CONTRACT §7): its kind, which is also the operation the key's fingerprint names, and what it names. */
export const ${createConst(n)} = { kind: '${n.receiptKind}', resourceType: '${n.resourceType}' } as const;

/** A ${n.resource.replaceAll('-', ' ')} as its create stores it: the input, with the ids, owner and time create-once made. */
export interface New${n.Resource} extends ${n.Resource}Input, NewResource {}
`;

const port = (n) => `import { ResourceConflictError } from '../../../shared/domain/errors';
import type { RowInsert } from '../../../shared/domain/row-insert';
import type { New${n.Resource} } from './${n.resource}';

/** The ${n.key.name} exists in the uniqueness context (organization and environment); nothing about it is revealed. */
export class ${n.Resource}${n.key.camel[0].toUpperCase() + n.key.camel.slice(1)}TakenError extends ResourceConflictError {
  constructor() {
    super('A ${n.resource.replaceAll('-', ' ')} with this ${n.key.name.replaceAll('_', ' ')} already exists');
  }
}

/** Port: the ${n.module.replaceAll('-', ' ')} register. */
export abstract class ${n.Resource}Repository {
  /** The ${n.resource.replaceAll('-', ' ')}'s row, for the write that stores it; a taken ${n.key.name.replaceAll('_', ' ')} is a ${n.Resource}${n.key.camel[0].toUpperCase() + n.key.camel.slice(1)}TakenError. */
  abstract rowFor(${n.resourceCamel}: New${n.Resource}): RowInsert;
}
`;

const takenError = (n) => `${n.Resource}${n.key.camel[0].toUpperCase() + n.key.camel.slice(1)}TakenError`;

const adapter = (n) => `import { Injectable } from '@nestjs/common';
import type { RowInsert } from '../../../shared/domain/row-insert';
import type { New${n.Resource} } from '../domain/${n.resource}';
import { ${n.Resource}Repository, ${takenError(n)} } from '../domain/${n.resource}.repository';

const COLUMNS = [
  ['organization_id', 'uuid'],
  ['id', 'uuid'],
  ['environment', 'text'],
${n.fields.map((f) => `  ['${f.name}', '${column(f)}'],`).join('\n')}
  ['app_id', 'uuid'],
  ['operation_id', 'uuid'],
  ['created_at', 'timestamptz'],
] as const;

@Injectable()
export class Pg${n.Resource}Repository extends ${n.Resource}Repository {
  rowFor(r: New${n.Resource}): RowInsert {
    return {
      table: '${n.table}',
      columns: COLUMNS,
      values: [r.organizationId, r.id, r.environment, ${n.fields.map((f) => `r.${f.name}`).join(', ')}, r.appId, r.operationId, r.createdAt],
      // the only unique constraint a new random id can hit is (organization_id, environment, ${n.key.name})
      onUniqueViolation: () => new ${takenError(n)}(),
    };
  }
}
`;

const service = (n) => `import { Injectable } from '@nestjs/common';
import type { CallerContext } from '../../../shared/domain/caller-context';
import { type CreatedBody, CreateOnceService } from '../../idempotency';
import { ${createConst(n)}, type ${n.Resource}Input } from '../domain/${n.resource}';
import { ${n.Resource}Repository } from '../domain/${n.resource}.repository';

@Injectable()
export class ${n.Module}Service {
  constructor(private readonly ${n.moduleCamel}: ${n.Resource}Repository, private readonly once: CreateOnceService) {}

  /**
   * Create, not upsert, exactly once per Idempotency-Key (CreateOnceService: the ${n.resource.replaceAll('-', ' ')}'s row with the
   * record, the receipt and the outbox row as one statement; the create receipt as seed 2.5's for products);
   * a taken ${n.key.name.replaceAll('_', ' ')} rolls all of it back (409, nothing stored).
   */
  create(caller: CallerContext, key: string, input: ${n.Resource}Input): Promise<CreatedBody> {
    return this.once.create(caller, key, ${createConst(n)}, input, (made) => [this.${n.moduleCamel}.rowFor({ ...input, ...made })]);
  }
}
`;

const schemasName = (n) => `CREATE_${n.resourceType.toUpperCase()}_SCHEMAS`;

const controller = (n) => `import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ref } from '../../../shared/http/openapi/common';
import { BODY_ERRORS, IDEMPOTENCY_ERRORS, PartnerOperation, partnerJson } from '../../../shared/http/openapi/partner-operation';
import { PARTNER_BASES } from '../../../shared/http/partner-paths';
import { Caller, PartnerRoute } from '../../auth/access';
import type { CallerContext } from '../../../shared/domain/caller-context';
import { type CreatedBody, Idempotent, IdempotencyKey, idempotencyRecordPrefetch } from '../../idempotency';
import { ${n.Module}Service } from '../application/${n.module}.service';
import { ${n.dto} } from './create-${n.resource}.request.dto';
import { ${schemasName(n)} } from './${n.module}.openapi';

@ApiTags('${n.module}')
@Controller(PARTNER_BASES.map((base) => \`\${base}/${n.module}\`))
export class ${n.Module}Controller {
  constructor(private readonly ${n.moduleCamel}: ${n.Module}Service) {}

  @Post()
  @HttpCode(201)
  @PartnerRoute('${n.scope}', { prefetch: idempotencyRecordPrefetch })
  @Idempotent()
  @PartnerOperation({
    operationId: '${n.operationId}',
    summary: 'Create a ${n.resource.replaceAll('-', ' ')}',
    success: partnerJson(201, 'Created, or a replay of the first creation with this Idempotency-Key.', ref('${n.Resource}CreateResult')),
    errors: [...BODY_ERRORS, ...IDEMPOTENCY_ERRORS, 'resource_conflict'],
    schemas: ${schemasName(n)},
  })
  create(@Caller() caller: CallerContext, @IdempotencyKey() key: string, @Body() body: ${n.dto}): Promise<CreatedBody> {
    const { ${n.fields.map((f) => f.name).join(', ')} } = body;
    return this.${n.moduleCamel}.create(caller, key, { ${n.fields.map((f) => f.name).join(', ')} });
  }
}
`;

const openapi = (n) => `import { environment, object, ref, type Schema, uuid } from '../../../shared/http/openapi/common';

/** The answers of \`POST /${n.module}\` in the partner document (CONTRACT §7, §13): exactly the members listed. */
export const ${schemasName(n)}: Record<string, Schema> = {
  ${n.Resource}Created: object(
    { id: uuid, created: { const: true }, operation_id: uuid, replayed: { const: false }, environment },
    undefined,
    { description: 'First execution of POST /${n.module}.' },
  ),
  ${n.Resource}Replayed: object(
    { id: uuid, created: { const: true }, operation_id: uuid, replayed: { const: true } },
    undefined,
    { description: 'A replay (same Idempotency-Key, same input): the first execution\\'s ids, without \`environment\`.' },
  ),
  // CONTRACT §13: the 201 body is closed itself (additionalProperties: false), and oneOf says which of
  // the two it is: a first execution carries \`environment\`, a replay does not
  ${n.Resource}CreateResult: object(
    { id: uuid, created: { const: true }, operation_id: uuid, replayed: { type: 'boolean' }, environment },
    ['id', 'created', 'operation_id', 'replayed'],
    { oneOf: [ref('${n.Resource}Created'), ref('${n.Resource}Replayed')], description: 'The answer of POST /${n.module}: its first execution or a replay.' },
  ),
};
`;

const nestModule = (n) => `import { Module } from '@nestjs/common';
import { GrantsModule } from '../auth/grants';
import { CreateOnceService, IdempotencyModule } from '../idempotency';
import { ReceiptsModule } from '../receipts';
import { ${n.Module}Controller } from './api/${n.module}.controller';
import { ${n.Module}Service } from './application/${n.module}.service';
import { ${n.Resource}Repository } from './domain/${n.resource}.repository';
import { Pg${n.Resource}Repository } from './infrastructure/pg-${n.resource}.repository';

@Module({
  imports: [IdempotencyModule, ReceiptsModule, GrantsModule],
  controllers: [${n.Module}Controller],
  providers: [${n.Module}Service, CreateOnceService, { provide: ${n.Resource}Repository, useClass: Pg${n.Resource}Repository }],
})
export class ${n.Module}Module {}
`;

const index = (n) => `// The ${n.module} module's public surface: the composition root imports only this file.
export { ${n.Module}Module } from './${n.module}.module';
export { ${n.Module}Controller } from './api/${n.module}.controller';
export { ${factsName(n)} } from './facts';
`;

const factsName = (n) => `${n.table.toUpperCase()}_FACTS`;
const quoted = (v) => `'${v.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
const scopeWords = (w) => `{ title: ${quoted(w.title)}, text: ${quoted(w.text)} }`;

/** What the module tells the rest of the service (src/shared/module-facts.ts): the kernel assembles it when the module loads. */
const facts = (n) => `import { declareModuleFacts, receiptsOf } from '../../shared/module-facts';
import { ${createConst(n)} } from './domain/${n.resource}';
import { ${n.Module}Purge } from './sql';

/** What the ${n.module} module declares to the rest of the service (src/shared/module-facts.ts says what each fact feeds). */
export const ${factsName(n)} = declareModuleFacts({
  module: '${n.module}',
  scopes: {
    '${n.scope}': {
      consent: {
        en: ${scopeWords(n.words.en)},
        da: ${scopeWords(n.words.da)},
      },
      openapi: ${quoted(n.words.en.title)},
    },
  },
  receipts: receiptsOf(${createConst(n)}),
  openapi: { tags: { '${n.module}': '${n.Module.replace(/([a-z])([A-Z])/g, '$1 $2')}' } },
  // its rows refer to organizations: a purged organization's go first
  purge: { parts: ${n.Module}Purge, refersTo: ['organizations'] },
  tables: ['${n.table}'],
});
`;

const sqlParts = (n) => `import type { PurgeParts } from '../../shared/database/purge-parts';

/**
 * SQL parts of the ${n.module} module's tables (${n.table}), for statements that other modules compose: the
 * owner writes every word about its tables, the composer only combines the parts. Imports nothing but
 * src/shared (docs/architecture.md).
 */
/** Issue 35: the ${n.module.replaceAll('-', ' ')} of purged organizations. */
export const ${n.Module}Purge: PurgeParts = {
  organizations: [\`DELETE FROM ${n.table} WHERE organization_id = ANY($1::uuid[])\`],
};
`;

const migrationClass = (n, ts) => `${n.Module}${ts}`;

const migration = (n, ts) => {
  const cols = n.fields.map((f) => {
    const check = f.type === 'amount' ? ` CHECK (${f.name} BETWEEN 0 AND ${MAX_MINOR})` : '';
    return `      ${f.name} ${column(f)}${f.optional ? '' : ' NOT NULL'}${check},`;
  });
  return `import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The ${n.module} module's table (written by POST /${n.module}, one row per ${n.resource.replaceAll('-', ' ')}). */
export class ${migrationClass(n, ts)} implements MigrationInterface {
  name = '${migrationClass(n, ts)}';

  async up(q: QueryRunner): Promise<void> {
    await q.query(\`CREATE TABLE ${n.table} (
      organization_id uuid NOT NULL REFERENCES organizations (id),
      id uuid NOT NULL,
      environment text NOT NULL,
${cols.join('\n')}
      app_id uuid NOT NULL,
      operation_id uuid NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, id),
      UNIQUE (organization_id, environment, ${n.key.name})
    )\`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(\`DROP TABLE ${n.table}\`);
  }
}
`;
};

/** A valid value of each field for the e2e spec (the key made unique by the spec). */
const sample = (f) => (f.type === 'text' ? `'${f.name.replaceAll('_', ' ')} ø'` : '12500');

const e2e = (n) => {
  const required = n.fields.filter((f) => !f.optional);
  const optional = n.fields.filter((f) => f.optional);
  const rest = required.slice(1);
  const minimalOf = (expr) => `{ ${n.key.name}: ${expr}${rest.map((f) => `, ${f.name}: ${sample(f)}`).join('')} }`;
  const minimal = minimalOf('k()');
  // every field given; bigint columns come back from pg as strings
  const full = `{ ${n.key.name}: c${n.fields
    .slice(1)
    .map((f) => `, ${f.name}: ${sample(f)}`)
    .join('')} }`;
  const stored = `{ ${n.key.name}: c${n.fields
    .slice(1)
    .map((f) => `, ${f.name}: ${f.type === 'amount' ? "'12500'" : sample(f)}`)
    .join('')} }`;
  const textField = n.fields.find((f) => f.type === 'text' && f !== n.key) ?? n.key;
  const amountField = n.fields.find((f) => f.type === 'amount');
  return `import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { aSandboxProject, PRODUCTION, SANDBOX, type SandboxProject } from '../support/fixtures';
import { aProductionAccess } from '../support/production-fixtures';
import { createTestApp, type TestApp } from '../support/test-app';

// Generated by npm run new:operation (scripts/new-operation.mjs); the module's own tests from here on.
describe('POST /${n.module} (CONTRACT §5, §6, §7, §8)', () => {
  let app: TestApp;
  let project: SandboxProject;
  let db: DataSource;

  beforeAll(async () => {
    app = await createTestApp();
    project = await aSandboxProject(app);
    db = app.apps.partner.get(DataSource);
  });
  afterAll(() => app.close());

  const post = (body: unknown, key: string | null = randomUUID(), token = project.token, base = SANDBOX) => {
    let req = app.partner().post(\`\${base}/${n.module}\`).set('Authorization', \`Bearer \${token}\`);
    if (key !== null) req = req.set('Idempotency-Key', key);
    return req.send(body as object);
  };
  const k = () => \`K-\${randomUUID()}\`;
  const count = async (sql: string, params: unknown[]) => Number((await db.query(sql, params))[0].n);
  const rowsWithKey = (value: string) => count(\`SELECT count(*) AS n FROM ${n.table} WHERE ${n.key.name} = $1\`, [value]);
  const recordsWithKey = (key: string) => count(\`SELECT count(*) AS n FROM idempotency_records WHERE idempotency_key = $1\`, [key]);
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

  it('creates: 201 with exactly id, created, operation_id, replayed false, environment sandbox; the row holds the input', async () => {
    const c = k();
    const res = await post(${full});
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['created', 'environment', 'id', 'operation_id', 'replayed']);
    expect(res.body).toMatchObject({ created: true, replayed: false, environment: 'sandbox' });
    expect(res.body.id).toMatch(UUID);
    expect(res.body.operation_id).toMatch(UUID);
    const rows = await db.query(\`SELECT ${n.fields.map((f) => f.name).join(', ')} FROM ${n.table} WHERE id = $1\`, [res.body.id]);
    expect(rows).toEqual([${stored}]);
  });
${
  optional.length > 0
    ? `
  it('stores an optional field left out as null', async () => {
    const res = await post(${minimal});
    expect(res.status).toBe(201);
    const rows = await db.query(\`SELECT ${optional.map((f) => f.name).join(', ')} FROM ${n.table} WHERE id = $1\`, [res.body.id]);
    expect(rows).toEqual([{ ${optional.map((f) => `${f.name}: null`).join(', ')} }]);
  });
`
    : ''
}
  it('replays an identical request: 201, same id and operation_id, replayed true, no environment; one row', async () => {
    const key = randomUUID();
    const body = ${minimal};
    const first = await post(body, key);
    const again = await post(body, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual({ id: first.body.id, created: true, operation_id: first.body.operation_id, replayed: true });
    expect(await rowsWithKey(body.${n.key.name})).toBe(1);
  });

  it('answers a changed payload under the same key with 409 idempotency_key_reused and stores nothing new', async () => {
    const key = randomUUID();
    const c = k();
    expect((await post(${minimalOf('c')}, key)).status).toBe(201);
    const changed = await post(${minimalOf('`${c}-2`')}, key);
    expect(changed.status).toBe(409);
    expect(changed.body.code).toBe('idempotency_key_reused');
    expect(await rowsWithKey(\`\${c}-2\`)).toBe(0);
  });

  it('refuses a taken ${n.key.name} with 409 resource_conflict, revealing nothing, storing nothing; the key is reusable', async () => {
    const c = k();
    const existing = await post(${minimalOf('c')});
    expect(existing.status).toBe(201);
    const key = randomUUID();
    const conflict = await post(${minimalOf('c')}, key);
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('resource_conflict');
    expect(conflict.text).not.toContain(existing.body.id);
    expect(await recordsWithKey(key)).toBe(0);
    const retry = await post(${minimalOf('k()')}, key);
    expect(retry.status).toBe(201);
    expect(retry.body.replayed).toBe(false);
  });

  it.each([
    ['no ${n.key.name}', 'invalid_input', '/${n.key.name}', { ${n.key.name}: undefined }],
    ['an empty ${n.key.name}', 'invalid_input', '/${n.key.name}', { ${n.key.name}: '' }],
    ['a ${n.key.name} too long', 'invalid_input', '/${n.key.name}', { ${n.key.name}: 'x'.repeat(${maxOf(n, n.key) + 1}) }],
    ['a ${textField.name} that is a number', 'invalid_input', '/${textField.name}', { ${textField.name}: 7 }],
    ['a NUL in ${textField.name}', 'invalid_input', '/${textField.name}', { ${textField.name}: 'a\\u0000b' }],
${
  amountField
    ? `    ['a negative ${amountField.name}', 'invalid_amount', '/${amountField.name}', { ${amountField.name}: -1 }],
    ['a fractional ${amountField.name}', 'invalid_amount', '/${amountField.name}', { ${amountField.name}: 1.5 }],
    ['a ${amountField.name} as a string', 'invalid_amount', '/${amountField.name}', { ${amountField.name}: '100' }],
`
    : ''
}    ['an unknown field', 'invalid_input', '/colour', { colour: 'red' }],
  ])('refuses %s: 400 %s at %s, nothing stored, the key reusable', async (_what, code, pointer, change) => {
    const key = randomUUID();
    const bad = await post({ ...${minimal}, ...change }, key);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(code);
    expect(bad.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual([pointer]);
    expect(await recordsWithKey(key)).toBe(0);
    expect((await post(${minimal}, key)).status).toBe(201);
  });

  it('requires an Idempotency-Key: 400 idempotency_key_required, nothing stored', async () => {
    const body = ${minimal};
    const res = await post(body, null);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('idempotency_key_required');
    expect(await rowsWithKey(body.${n.key.name})).toBe(0);
  });

  it('refuses a call without a token: 401', async () => {
    const res = await app.partner().post(\`\${SANDBOX}/${n.module}\`).set('Idempotency-Key', randomUUID()).send(${minimal});
    expect(res.status).toBe(401);
  });

  it('10 concurrent identical requests → all 201, one id, exactly one first execution, one row', async () => {
    const key = randomUUID();
    const body = ${minimal};
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(body, key)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(answers.filter((a) => a.body.replayed === false)).toHaveLength(1);
    expect(await rowsWithKey(body.${n.key.name})).toBe(1);
  });

  it('stores a receipt (kind ${n.receiptKind}) and exactly one operation.completed event', async () => {
    const res = await post(${minimal});
    const receipt = await app.partner().get(\`\${SANDBOX}/operations/\${res.body.operation_id}\`).set('Authorization', \`Bearer \${project.token}\`);
    expect(receipt.status).toBe(200);
    expect(receipt.body).toEqual({
      operation_id: res.body.operation_id,
      kind: '${n.receiptKind}',
      status: 'completed',
      resource: { type: '${n.resourceType}', id: res.body.id },
      completed_at: expect.stringMatching(/^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$/),
      environment: 'sandbox',
    });
    const events = await db.query(\`SELECT body FROM webhook_outbox WHERE body LIKE $1\`, [\`%\${res.body.operation_id}%\`]);
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0].body)).toEqual({ type: 'operation.completed', timestamp: receipt.body.completed_at, data: receipt.body });
  });

  describe('production', () => {
    it('answers environment "production" with a grant of ${n.scope}', async () => {
      const access = await aProductionAccess(app, { scopes: ['${n.scope}'] });
      const res = await post(${minimal}, randomUUID(), access.token, PRODUCTION);
      expect(res.status).toBe(201);
      expect(res.body.environment).toBe('production');
    });

    it('refuses a grant without ${n.scope}: 403 insufficient_scope naming it, nothing stored', async () => {
      const access = await aProductionAccess(app, { scopes: ['operations:read'] });
      const body = ${minimal};
      const res = await post(body, randomUUID(), access.token, PRODUCTION);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('insufficient_scope');
      expect(res.headers['www-authenticate']).toBe('Bearer realm="partner-api", error="insufficient_scope", scope="${n.scope}"');
      expect(await rowsWithKey(body.${n.key.name})).toBe(0);
    });
  });
});
`;
};

/** The module's own files by path (relative to the repository), and the migration's. */
export function files(n, timestamp) {
  const m = `src/modules/${n.module}`;
  return {
    [`${m}/index.ts`]: index(n),
    [`${m}/sql.ts`]: sqlParts(n),
    [`${m}/facts.ts`]: facts(n),
    [`${m}/${n.module}.module.ts`]: nestModule(n),
    [`${m}/api/${n.module}.controller.ts`]: controller(n),
    [`${m}/api/${n.module}.openapi.ts`]: openapi(n),
    [`${m}/api/create-${n.resource}.request.dto.ts`]: dto(n),
    [`${m}/application/${n.module}.service.ts`]: service(n),
    [`${m}/domain/${n.resource}.ts`]: domain(n),
    [`${m}/domain/${n.resource}.repository.ts`]: port(n),
    [`${m}/infrastructure/pg-${n.resource}.repository.ts`]: adapter(n),
    [`src/shared/database/migrations/${timestamp}-${n.module}.ts`]: migration(n, timestamp),
    [`test/e2e/${n.module}.e2e-spec.ts`]: e2e(n),
  };
}

export { migrationClass };
