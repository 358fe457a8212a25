import type { DataSource } from 'typeorm';
import { SECRET_CONTEXT, SecretBox } from './secret-box';

const COLUMNS = [
  { table: 'users', column: 'totp_secret', context: SECRET_CONTEXT.totp },
  { table: 'webhook_endpoints', column: 'secret', context: SECRET_CONTEXT.webhook },
  { table: 'developers', column: 'totp_secret', context: SECRET_CONTEXT.developerTotp },
] as const;

/**
 * The data half of the secrets-at-rest migration (CONTRACT §8), run at every start right after the
 * schema migrations (and by `npm run migrate`), because it needs SECRETS_KEY, which a migration file
 * does not have: every stored secret that is plaintext (written before encryption) or sealed under an
 * older key version is sealed under the current key; one that no listed key opens is counted and left. Each row is replaced by compare-and-set, so
 * instances starting together cannot overwrite each other's work. Returns how many were sealed.
 */
export async function sealStoredSecrets(dataSource: DataSource, box: SecretBox): Promise<{ sealed: number; unreadable: number }> {
  const currentPrefix = `enc:v${box.current.version}:`;
  let sealed = 0;
  let unreadable = 0;
  for (const { table, column, context } of COLUMNS) {
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const rows: Array<{ id: string; value: string }> = await dataSource.query(
        `SELECT id, ${column} AS value FROM ${table}
          WHERE ${column} IS NOT NULL AND left(${column}, $1) <> $2 AND id > $3 ORDER BY id LIMIT 500`,
        [currentPrefix.length, currentPrefix, after],
      );
      if (rows.length === 0) break;
      for (const r of rows) {
        let plaintext: string;
        try {
          plaintext = box.openAny(r.value, context);
        } catch {
          unreadable++; // sealed under a key SECRETS_KEY does not list: left as it is
          continue;
        }
        const next = box.seal(plaintext, context);
        await dataSource.query(`UPDATE ${table} SET ${column} = $1 WHERE id = $2 AND ${column} = $3`, [next, r.id, r.value]);
        sealed++;
      }
      after = rows[rows.length - 1].id;
      if (rows.length < 500) break;
    }
  }
  return { sealed, unreadable };
}
