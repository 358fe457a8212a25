import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * CONTRACT §8 "Keys across instances": per SECRETS_KEY version, the fingerprint of the key that seals
 * (or sealed) this database's secrets — an HMAC of a fixed label under the key, never the key. An
 * instance whose key of a recorded version has another fingerprint refuses to start
 * (src/shared/crypto/secrets-key-check.ts). Infrastructure's own table, like schema_migrations.
 */
export class SecretsKeyFingerprints1766100000000 implements MigrationInterface {
  name = 'SecretsKeyFingerprints1766100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE secrets_key_fingerprints (
      version int PRIMARY KEY,
      fingerprint text NOT NULL,
      recorded_at timestamptz NOT NULL DEFAULT now()
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS secrets_key_fingerprints`);
  }
}
