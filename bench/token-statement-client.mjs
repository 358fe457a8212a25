// The client side of the token statement (issue 47): node-postgres's CPU per execution of the sandbox prepare's
// token statement (the token, its generation, the body's account and tax-code ids), against a statement of the same
// parameters answering one column, on the same pool, 16 callers at once. Starts the built service on a fresh database
// (its sandbox project), then queries that database directly with the service's own pool client (NamedStatementClient).
//   node bench/token-statement-client.mjs [--calls 20000]
import { createRequire } from 'node:module';
import { cliArg, startServiceOnFreshDatabase } from './sandbox-project.mjs';

const need = createRequire(new URL('../package.json', import.meta.url));
const { Pool } = need('pg');
const { NamedStatementClient } = need('./dist/src/shared/performance/named-statement-client.js');
const { tokenStatement } = need('./dist/src/modules/auth/access/infrastructure/pg-access.repository.js');
const { hashAccessToken } = need('./dist/src/modules/auth/access/domain/access-token.js');
const { SandboxSql } = need('./dist/src/modules/auth/sandbox/sql.js');
const { GrantsSql } = need('./dist/src/modules/auth/grants/sql.js');
const CALLS = Number(cliArg('calls', '20000'));

const { project, databaseUrl, stop } = await startServiceOnFreshDatabase({ name: 'tokenstmt' });
const pool = new Pool({ connectionString: databaseUrl, max: 16, Client: NamedStatementClient });
try {
  const token = project.headers.authorization.slice('Bearer '.length);
  const statement = tokenStatement(
    { environment: 'sandbox', mandate: false, references: true, idempotencyRecord: false },
    { grants: GrantsSql, sandbox: SandboxSql },
  );
  const values = statement.values({ tokenHash: hashAccessToken(token), accountIds: project.accounts, taxCodeIds: [], idempotencyKey: null });
  const shapes = {
    'token statement': statement.text,
    'one column, same parameters': 'SELECT $1::text IS NOT NULL AND $2::uuid[] IS NOT NULL AND $3::uuid[] IS NOT NULL AS found',
  };
  const check = await pool.query(statement.text, values);
  if (check.rows.length !== 1) throw new Error('the token statement found no token');
  console.log('columns of the token statement:', check.fields.map((f) => f.name).join(', '));
  for (let round = 0; round < 3; round++) {
    for (const [name, text] of Object.entries(shapes)) {
      const before = process.cpuUsage();
      let left = CALLS;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (left-- > 0) await pool.query(text, values);
        }),
      );
      const used = process.cpuUsage(before);
      console.log(
        `round ${round + 1} ${name.padEnd(28)} client CPU ${((used.user + used.system) / CALLS).toFixed(1)} µs per execution (user ${(used.user / CALLS).toFixed(1)})`,
      );
    }
  }
} finally {
  await pool.end();
  await stop();
}
