import type { DataSource } from 'typeorm';
import { type SecretBox, STORED_SECRET_COLUMNS } from './secret-box';

/**
 * The data half of the secrets-at-rest migration (CONTRACT §8), run at every start right after the
 * schema migrations and the key check (secrets-key-check.ts), and by `npm run migrate`, because it
 * needs SECRETS_KEY, which a migration file does not have. Every stored secret is OPENED — its label
 * alone does not say which key sealed it, since every generated key is v1 — and one that is plaintext
 * (written before encryption) or sealed under an older key version is sealed under the current key;
 * one that no listed key opens is counted (with its version) and left. Each row is replaced by
 * compare-and-set, so instances starting together cannot overwrite each other's work.
 */
export async function sealStoredSecrets(dataSource: DataSource, box: SecretBox): Promise<{ sealed: number; unreadable: number; unreadableVersions: string[] }> {
  let sealed = 0;
  let unreadable = 0;
  const unreadableVersions = new Set<string>();
  for (const { table, column, context } of STORED_SECRET_COLUMNS) {
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const rows: Array<{ id: string; value: string }> = await dataSource.query(
        `SELECT id, ${column} AS value FROM ${table} WHERE ${column} IS NOT NULL AND id > $1 ORDER BY id LIMIT 500`,
        [after],
      );
      if (rows.length === 0) break;
      for (const r of rows) {
        let plaintext: string;
        try {
          plaintext = box.openAny(r.value, context);
        } catch {
          unreadable++; // sealed under a key SECRETS_KEY does not list: left as it is
          unreadableVersions.add(/^enc:(v\d+):/.exec(r.value)?.[1] ?? '?');
          continue;
        }
        if (!box.needsReseal(r.value)) continue;
        const next = box.seal(plaintext, context);
        await dataSource.query(`UPDATE ${table} SET ${column} = $1 WHERE id = $2 AND ${column} = $3`, [next, r.id, r.value]);
        sealed++;
      }
      after = rows[rows.length - 1].id;
      if (rows.length < 500) break;
    }
  }
  return { sealed, unreadable, unreadableVersions: [...unreadableVersions].sort() };
}
