import type { DataSource } from 'typeorm';
import { SecretBox, STORED_SECRET_COLUMNS } from './secret-box';
import './facts'; // the owner of its table, secrets_key_fingerprints (src/shared/module-facts.ts)

/** The one line an instance (or `npm run migrate`) stops with when its keys do not fit the database. */
export class SecretsKeyMismatchError extends Error {}

const REMEDY = 'every instance of a deployment needs the same SECRETS_KEY';

/**
 * CONTRACT §8 "Keys across instances", run after the migrations and before the sealing pass, i.e.
 * before the instance listens. The database records per key version the fingerprint of its key
 * (secrets_key_fingerprints); this instance's keys must match every recorded version whose secrets are
 * still stored, and every version a stored secret names must be listed. Since every generated key is
 * labelled v1, the label alone proves nothing: two different generated keys differ in fingerprint.
 *
 * - a recorded version with stored secrets that SECRETS_KEY does not list, or whose key has another
 *   fingerprint: refused;
 * - a version stored secrets name but not recorded (a database sealed before fingerprints existed):
 *   its key must open one of those secrets, then it is recorded — or refused;
 * - the current (sealing) key is recorded before it seals anything: two instances starting at once
 *   with different keys race on the primary key, and the loser refuses.
 */
export async function checkSecretsKeys(dataSource: DataSource, box: SecretBox): Promise<void> {
  const inUse = await sampleSecretsByVersion(dataSource);
  const recorded = new Map<number, string>(
    (await dataSource.query<Array<{ version: number; fingerprint: string }>>(`SELECT version, fingerprint FROM secrets_key_fingerprints`)).map((r) => [
      Number(r.version),
      r.fingerprint,
    ]),
  );
  for (const [version, fingerprint] of recorded) {
    if (box.fingerprintOf(version) === null) {
      if (inUse.has(version)) throw missing(version);
      continue; // every secret of that version was resealed under a newer key: it may go
    }
    if (box.fingerprintOf(version) !== fingerprint) throw different(version);
  }
  for (const [version, sample] of inUse) {
    if (recorded.has(version)) continue;
    if (box.fingerprintOf(version) === null) throw missing(version);
    try {
      box.open(sample.value, sample.context);
    } catch {
      throw different(version);
    }
    await record(dataSource, box, version);
  }
  await record(dataSource, box, box.current.version);
}

async function record(dataSource: DataSource, box: SecretBox, version: number): Promise<void> {
  const fingerprint = box.fingerprintOf(version)!;
  const rows: Array<{ fingerprint: string }> = await dataSource.query(
    `WITH ins AS (
       INSERT INTO secrets_key_fingerprints (version, fingerprint) VALUES ($1, $2)
       ON CONFLICT (version) DO NOTHING RETURNING fingerprint)
     SELECT fingerprint FROM ins UNION ALL SELECT fingerprint FROM secrets_key_fingerprints WHERE version = $1`,
    [version, fingerprint],
  );
  // inserted now, or recorded before (also by an instance that started at the same moment)
  if (rows.some((r) => r.fingerprint !== fingerprint)) throw different(version);
}

/** Per key version named by stored secrets, one of them (to open). */
async function sampleSecretsByVersion(dataSource: DataSource): Promise<Map<number, { value: string; context: string }>> {
  const found = new Map<number, { value: string; context: string }>();
  for (const { table, column, context } of STORED_SECRET_COLUMNS) {
    const rows: Array<{ value: string }> = await dataSource.query(
      `SELECT DISTINCT ON (substring(${column} from '^enc:v([0-9]+):')) ${column} AS value
         FROM ${table} WHERE ${column} LIKE 'enc:v%'
        ORDER BY substring(${column} from '^enc:v([0-9]+):')`,
    );
    for (const { value } of rows) {
      const version = SecretBox.versionOf(value);
      if (version !== null && !found.has(version)) found.set(version, { value, context });
    }
  }
  return found;
}

function missing(version: number): SecretsKeyMismatchError {
  return new SecretsKeyMismatchError(
    `SECRETS_KEY lists no key of version v${version}, which sealed secrets stored in this database; ${REMEDY} (list v${version} too)`,
  );
}

function different(version: number): SecretsKeyMismatchError {
  return new SecretsKeyMismatchError(
    `SECRETS_KEY's key v${version} is not the key v${version} that sealed the secrets of this database (its fingerprint differs: another instance's or DATA_DIR's generated key?); ${REMEDY}`,
  );
}
