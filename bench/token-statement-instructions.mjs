// node-postgres's instructions per execution of the sandbox prepare's token statement (issue 47), two builds' texts
// against each other, counted by valgrind's callgrind (bench/instructions.mjs says why counts, not times). Each build
// gives its own statement text and its own reading of the row (the usable account ids); both run in this one process,
// on the service's pool client (NamedStatementClient), 16 callers at once, in rounds whose order alternates (A B, B A,
// …) so that the JIT's warming falls on both. The service is started (not under valgrind) on a fresh database for its
// sandbox project. This script starts itself again under callgrind.
//   node bench/token-statement-instructions.mjs --a DIR --b DIR [--calls 5000] [--rounds 6]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { callgrindArgs, instructionsOf } from './callgrind.mjs';
import { cliArg, startServiceOnFreshDatabase } from './sandbox-project.mjs';

const CALLS = Number(cliArg('calls', '5000'));
const ROUNDS = Number(cliArg('rounds', '6'));
const dirs = { A: resolve(cliArg('a', '.')), B: resolve(cliArg('b', '.')) };

if (!process.env.TOKEN_INSTRUCTIONS_DIR) {
  const work = mkdtempSync(join(tmpdir(), 'bench-token-instructions-'));
  const run = spawnSync('valgrind', [...callgrindArgs(work), process.execPath, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, TOKEN_INSTRUCTIONS_DIR: work },
  });
  rmSync(work, { recursive: true, force: true });
  process.exit(run.status ?? 1);
}

const work = process.env.TOKEN_INSTRUCTIONS_DIR;
const here = createRequire(import.meta.url);
const { Pool } = here('pg');
const { NamedStatementClient } = here('../dist/src/shared/performance/named-statement-client.js');
const { hashAccessToken } = here('../dist/src/modules/auth/access/domain/access-token.js');
const SHAPE = { environment: 'sandbox', mandate: false, references: true, idempotencyRecord: false };

/** A build's statement text, and its reading of the row's usable accounts (an array before 4345dac, text after). */
const sides = Object.fromEntries(
  Object.entries(dirs).map(([name, dir]) => {
    const need = createRequire(join(dir, 'package.json'));
    const repository = need('./dist/src/modules/auth/access/infrastructure/pg-access.repository.js');
    const parts = { grants: need('./dist/src/modules/auth/grants/sql.js').GrantsSql, sandbox: need('./dist/src/modules/auth/sandbox/sql.js').SandboxSql };
    const read = repository.usableIds ?? ((ids) => new Set(ids ?? []));
    return [name, { text: repository.tokenStatement(SHAPE, parts).text, read }];
  }),
);

const { project, databaseUrl, stop } = await startServiceOnFreshDatabase({ name: 'tokeninstructions' });
const pool = new Pool({ connectionString: databaseUrl, max: 16, Client: NamedStatementClient });
try {
  const values = [hashAccessToken(project.headers.authorization.slice('Bearer '.length)), project.accounts, []];
  const run = async ({ text, read }, calls) => {
    let left = calls;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (left-- > 0) {
          const usable = read((await pool.query(text, values)).rows[0].usable_accounts);
          if (usable.size !== project.accounts.length) throw new Error(`the statement found ${usable.size} usable accounts`);
        }
      }),
    );
  };
  const counts = { A: [], B: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    for (const name of round % 2 ? ['A', 'B'] : ['B', 'A']) {
      await run(sides[name], 2000);
      const total = await instructionsOf(work, process.pid, () => run(sides[name], CALLS));
      counts[name].push(total / CALLS);
      console.log(`round ${round} ${name}: ${Math.round(total / CALLS).toLocaleString('en')} instructions per execution`);
    }
  }
  // the JIT is still warming in the first rounds; the least of the later half is the steady figure
  const steady = (xs) => Math.min(...xs.slice(Math.floor(xs.length / 2)));
  console.log(
    `least of rounds ${Math.floor(ROUNDS / 2) + 1}–${ROUNDS}: A ${Math.round(steady(counts.A)).toLocaleString('en')}, B ${Math.round(steady(counts.B)).toLocaleString('en')} | B/A ${(steady(counts.B) / steady(counts.A)).toFixed(3)}`,
  );
} finally {
  await pool.end();
  await stop();
}
