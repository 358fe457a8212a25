import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { ServiceUnavailableError } from '../domain/errors';

/**
 * Secrets at rest (CONTRACT §8): AES-256-GCM (authenticated encryption) under a versioned key, so
 * that the key can be rotated while rows sealed under an older version still open.
 *
 * SECRETS_KEY holds one or more comma-separated keys, `v<N>:<32 bytes in base64 or base64url>` (an
 * entry without `v<N>:` is version 1). The FIRST key seals; every listed key opens values of its
 * version. A sealed value reads `enc:v<N>:<iv>:<ciphertext>:<tag>` (base64url parts). The column it
 * belongs to is bound in as additional authenticated data, so a value copied into another column
 * (or another secret's place) fails to open instead of being used.
 */
export interface SecretKey {
  version: number;
  key: Buffer;
}

const ENTRY = /^(?:v([1-9]\d{0,5}):)?([A-Za-z0-9+/_-]{42,44}={0,2})$/;
const SEALED = /^enc:v([1-9]\d{0,5}):([A-Za-z0-9_-]{16}):([A-Za-z0-9_-]*):([A-Za-z0-9_-]{22})$/;

function parseEntries(spec: string): SecretKey[] | string {
  const entries = spec.split(',').map((e) => e.trim());
  const keys: SecretKey[] = [];
  for (const entry of entries) {
    const m = ENTRY.exec(entry);
    if (!m) return 'must be comma-separated keys of the form v<N>:<base64 of 32 bytes>';
    const key = Buffer.from(m[2].replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (key.length !== 32) return 'keys must be 32 bytes (base64 or base64url)';
    const version = m[1] ? Number(m[1]) : 1;
    if (keys.some((k) => k.version === version)) return `lists key version v${version} twice`;
    keys.push({ version, key });
  }
  return keys;
}

/** Why a SECRETS_KEY value is unusable (never echoing it), or null when it is fine. */
export function secretsKeyProblem(spec: string): string | null {
  const parsed = parseEntries(spec);
  return typeof parsed === 'string' ? parsed : null;
}

/** A fresh key entry for a new DATA_DIR or a rotation: `v<version>:<base64url of 32 random bytes>`. */
export function generateSecretsKeyEntry(version = 1): string {
  return `v${version}:${randomBytes(32).toString('base64url')}`;
}

export class SecretBox {
  private readonly byVersion: Map<number, Buffer>;
  readonly current: SecretKey;

  constructor(keys: SecretKey[]) {
    if (keys.length === 0) throw new Error('SecretBox needs at least one key');
    this.current = keys[0];
    this.byVersion = new Map(keys.map((k) => [k.version, k.key]));
  }

  static fromSpec(spec: string): SecretBox {
    const parsed = parseEntries(spec);
    if (typeof parsed === 'string') throw new Error(`SECRETS_KEY ${parsed}`);
    return new SecretBox(parsed);
  }

  static isSealed(value: string): boolean {
    return value.startsWith('enc:v');
  }

  /** The key version a sealed value was written under, or null for a plaintext value. */
  static versionOf(value: string): number | null {
    const m = SEALED.exec(value);
    return m ? Number(m[1]) : null;
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    cipher.setAAD(Buffer.from(`${context}:v${this.current.version}`, 'utf8'));
    const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `enc:v${this.current.version}:${iv.toString('base64url')}:${ct.toString('base64url')}:${cipher.getAuthTag().toString('base64url')}`;
  }

  /** The plaintext of a sealed value; throws on a wrong key, a tampered value or another context. */
  open(sealed: string, context: string): string {
    const m = SEALED.exec(sealed);
    if (!m) throw new Error(`not a sealed value (${context})`);
    const version = Number(m[1]);
    const key = this.byVersion.get(version);
    if (!key) throw new Error(`no key of version v${version} in SECRETS_KEY (${context})`);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(m[2], 'base64url'));
    decipher.setAAD(Buffer.from(`${context}:v${version}`, 'utf8'));
    decipher.setAuthTag(Buffer.from(m[4], 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(m[3], 'base64url')), decipher.final()]).toString('utf8');
  }

  /**
   * A tamper-evident tag for a value the service hands out and takes back (e.g. a feed cursor):
   * `v<N>.<base64url of HMAC-SHA-256, first 128 bits>` under a key derived from the current key for `context`, so the
   * tag says nothing of the key and a tag of one context is no tag of another.
   */
  tag(message: string, context: string): string {
    return `v${this.current.version}.${this.macOf(this.current.version, this.current.key, message, context).toString('base64url')}`;
  }

  /** Whether `tag` is tag(message, context) under any listed key version (a rotation keeps old tags valid). */
  verifyTag(message: string, context: string, tag: string): boolean {
    const m = /^v([1-9]\d{0,5})\.([A-Za-z0-9_-]{22})$/.exec(tag);
    if (!m) return false;
    const version = Number(m[1]);
    const key = this.byVersion.get(version);
    if (!key) return false;
    const given = Buffer.from(m[2], 'base64url');
    const expected = this.macOf(version, key, message, context);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /**
   * A short opaque token the service hands out and takes back (e.g. a list's cursor): `plaintext` encrypted
   * (AES-256-GCM under a key derived from the current key for `context`) with `binding` as additional
   * authenticated data — `v<N>.<base64url of iv, ciphertext and tag>`. Nothing of the plaintext can be read
   * from it, and it opens only for the same context and binding. The iv is synthetic (an HMAC of binding and
   * plaintext, as SIV does), so the same plaintext and binding give the same token, and no two different
   * messages ever share an iv under one key.
   */
  sealToken(plaintext: Buffer, context: string, binding: string): string {
    const { version, key } = this.current;
    const encKey = this.derived(key, `token:${context}`, version);
    const iv = createHmac('sha256', encKey).update(binding, 'utf8').update('\0').update(plaintext).digest().subarray(0, 12);
    const cipher = createCipheriv('aes-256-gcm', encKey, iv);
    cipher.setAAD(Buffer.from(binding, 'utf8'));
    const ct = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return `v${version}.${Buffer.concat([iv, ct, cipher.getAuthTag()]).toString('base64url')}`;
  }

  /** The plaintext of sealToken(…, context, binding) under any listed key version, or null (not one, changed, another context or binding). */
  openToken(token: string, context: string, binding: string): Buffer | null {
    const m = /^v([1-9]\d{0,5})\.([A-Za-z0-9_-]{38,400})$/.exec(token);
    if (!m) return null;
    const key = this.byVersion.get(Number(m[1]));
    if (!key) return null;
    const bytes = Buffer.from(m[2], 'base64url');
    // one spelling per token: trailing bits that decode to the same bytes are a changed token
    if (bytes.length < 28 || bytes.toString('base64url') !== m[2]) return null;
    const decipher = createDecipheriv('aes-256-gcm', this.derived(key, `token:${context}`, Number(m[1])), bytes.subarray(0, 12));
    decipher.setAAD(Buffer.from(binding, 'utf8'));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    try {
      return Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]);
    } catch {
      return null;
    }
  }

  /**
   * The MAC (HMAC-SHA-256) of `message` under each listed key, the current key's first: what a value the
   * service makes carries to show it made it (e.g. a client secret, CONTRACT §20), checked without a look-up.
   */
  macs(message: string, context: string): Buffer[] {
    return [...this.byVersion]
      .sort(([a], [b]) => (a === this.current.version ? -1 : b === this.current.version ? 1 : 0))
      .map(([version, key]) => this.macOf(version, key, message, context));
  }

  private derived(key: Buffer, purpose: string, version: number): Buffer {
    return createHmac('sha256', key).update(`${purpose}:v${version}`, 'utf8').digest();
  }

  private macOf(version: number, key: Buffer, message: string, context: string): Buffer {
    const macKey = this.derived(key, `mac:${context}`, version);
    return createHmac('sha256', macKey).update(message, 'utf8').digest().subarray(0, 16);
  }

  /**
   * The fingerprint of this box's key of `version` (null when it lists none): an HMAC-SHA256 of a fixed
   * label under the key, which tells two keys apart and reveals nothing of either (CONTRACT §8).
   */
  fingerprintOf(version: number): string | null {
    const key = this.byVersion.get(version);
    return key ? createHmac('sha256', key).update(FINGERPRINT_LABEL).digest('base64url') : null;
  }

  /**
   * A stored secret's plaintext for the call that needs it (openAny). One that no listed key opens is
   * never a 500 (CONTRACT §8): 503 `service_unavailable`, and an error log line naming the key version,
   * at most once a minute per version and process.
   */
  openStored(value: string, context: string): string {
    try {
      return this.openAny(value, context);
    } catch (err) {
      const version = SecretBox.versionOf(value);
      const now = Date.now();
      const last = unopenedLoggedAt.get(version) ?? -Infinity;
      if (now - last >= 60_000) {
        unopenedLoggedAt.set(version, now);
        new Logger('SecretBox').error(
          `a stored secret (${context}) sealed under SECRETS_KEY v${version ?? '?'} opens with no key of this instance: ${(err as Error).message}; every instance needs the same SECRETS_KEY`,
        );
      }
      throw new StoredSecretUnavailableError(version);
    }
  }

  /** Plaintext (a row written before encryption) is sealed; a value of an older key is resealed. */
  needsReseal(value: string): boolean {
    return SecretBox.versionOf(value) !== this.current.version;
  }

  /** Opens a value whatever its state: sealed under any listed key, or a not yet migrated plaintext. */
  openAny(value: string, context: string): string {
    return SecretBox.isSealed(value) ? this.open(value, context) : value;
  }
}

const FINGERPRINT_LABEL = 'partner-api SECRETS_KEY fingerprint 1';
const unopenedLoggedAt = new Map<number | null, number>();

/** 503: a stored secret that no key of this instance opens (CONTRACT §8). */
export class StoredSecretUnavailableError extends ServiceUnavailableError {
  constructor(readonly version: number | null) {
    super();
  }
}

/** Column contexts (bound into each sealed value). */
export const SECRET_CONTEXT = {
  totp: 'users.totp_secret',
  webhook: 'webhook_endpoints.secret',
  developerTotp: 'developers.totp_secret',
} as const;

/** Tag contexts (SecretBox.tag): what a tag vouches for. */
export const TAG_CONTEXT = {
  eventsCursor: 'events-feed.cursor',
  journalEntriesCursor: 'journal-entries.cursor',
  clientSecret: 'oauth-clients.secret',
} as const;

/** Every column that holds a sealed secret, with its context. */
export const STORED_SECRET_COLUMNS = [
  { table: 'users', column: 'totp_secret', context: SECRET_CONTEXT.totp },
  { table: 'webhook_endpoints', column: 'secret', context: SECRET_CONTEXT.webhook },
  // the secret a rotation replaced (CONTRACT §9), copied sealed as it was: the same context
  { table: 'webhook_endpoints', column: 'previous_secret', context: SECRET_CONTEXT.webhook },
  // the secret before a first rotation, kept by a second within 24 h (CONTRACT §21)
  { table: 'webhook_endpoints', column: 'older_secret', context: SECRET_CONTEXT.webhook },
  { table: 'developers', column: 'totp_secret', context: SECRET_CONTEXT.developerTotp },
] as const;
