import { Logger } from '@nestjs/common';
import { generateSecretsKeyEntry, SecretBox, secretsKeyProblem, StoredSecretUnavailableError } from './secret-box';

const K1 = `v1:${Buffer.alloc(32, 1).toString('base64url')}`;
const K2 = `v2:${Buffer.alloc(32, 2).toString('base64')}`;

describe('SecretBox (CONTRACT §8 secrets at rest)', () => {
  it('seals to a versioned value that holds nothing of the plaintext and opens it again', () => {
    const box = SecretBox.fromSpec(K1);
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 'users.totp_secret');
    expect(sealed).toMatch(/^enc:v1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+:[A-Za-z0-9_-]{22}$/);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.open(sealed, 'users.totp_secret')).toBe('JBSWY3DPEHPK3PXP');
    expect(box.seal('JBSWY3DPEHPK3PXP', 'users.totp_secret')).not.toBe(sealed); // fresh IV each time
  });

  it('refuses a tampered value, another context and a wrong key', () => {
    const box = SecretBox.fromSpec(K1);
    const sealed = box.seal('whsec_abc', 'webhook_endpoints.secret');
    const parts = sealed.split(':');
    const ct = Buffer.from(parts[3], 'base64url');
    ct[0] ^= 1;
    parts[3] = ct.toString('base64url');
    expect(() => box.open(parts.join(':'), 'webhook_endpoints.secret')).toThrow();
    expect(() => box.open(sealed, 'users.totp_secret')).toThrow();
    const other = SecretBox.fromSpec(`v1:${Buffer.alloc(32, 9).toString('base64url')}`);
    expect(() => other.open(sealed, 'webhook_endpoints.secret')).toThrow();
  });

  it('rotates: the first key seals, older listed versions still open, and old values need resealing', () => {
    const old = SecretBox.fromSpec(K1).seal('secret-1', 'c');
    const rotated = SecretBox.fromSpec(`${K2},${K1}`);
    expect(rotated.open(old, 'c')).toBe('secret-1');
    expect(rotated.needsReseal(old)).toBe(true);
    const fresh = rotated.seal('secret-1', 'c');
    expect(fresh.startsWith('enc:v2:')).toBe(true);
    expect(rotated.needsReseal(fresh)).toBe(false);
    expect(() => SecretBox.fromSpec(K2).open(old, 'c')).toThrow(/v1/);
  });

  it('treats a not yet migrated plaintext as needing a seal', () => {
    const box = SecretBox.fromSpec(K1);
    expect(box.needsReseal('JBSWY3DPEHPK3PXP')).toBe(true);
    expect(box.openAny('JBSWY3DPEHPK3PXP', 'c')).toBe('JBSWY3DPEHPK3PXP');
  });

  it('validates SECRETS_KEY specs', () => {
    expect(secretsKeyProblem(K1)).toBeNull();
    expect(secretsKeyProblem(`${K2},${K1}`)).toBeNull();
    expect(secretsKeyProblem(Buffer.alloc(32, 3).toString('base64'))).toBeNull(); // no version: v1
    expect(secretsKeyProblem(generateSecretsKeyEntry(3))).toBeNull();
    expect(secretsKeyProblem(`${K1},${K1}`)).toMatch(/twice/);
    expect(secretsKeyProblem('v1:short')).not.toBeNull();
  });

  it('tags a value so that a changed value, another context, another key or a changed tag fails; a rotation keeps old tags', () => {
    const box = SecretBox.fromSpec(K1);
    const tag = box.tag('sandbox|org|app|7:uuid', 'events-feed.cursor');
    expect(tag).toMatch(/^v1\.[A-Za-z0-9_-]{22}$/);
    expect(tag).toBe(box.tag('sandbox|org|app|7:uuid', 'events-feed.cursor')); // a MAC, not a seal: deterministic
    expect(box.verifyTag('sandbox|org|app|7:uuid', 'events-feed.cursor', tag)).toBe(true);
    expect(box.verifyTag('sandbox|org|app|8:uuid', 'events-feed.cursor', tag)).toBe(false);
    expect(box.verifyTag('sandbox|org|app|7:uuid', 'another.context', tag)).toBe(false);
    expect(box.verifyTag('sandbox|org|app|7:uuid', 'events-feed.cursor', `${tag.slice(0, -1)}${tag.endsWith('A') ? 'B' : 'A'}`)).toBe(false);
    expect(box.verifyTag('sandbox|org|app|7:uuid', 'events-feed.cursor', 'v1.short')).toBe(false);
    expect(SecretBox.fromSpec(`v1:${Buffer.alloc(32, 9).toString('base64url')}`).verifyTag('sandbox|org|app|7:uuid', 'events-feed.cursor', tag)).toBe(false);
    const rotated = SecretBox.fromSpec(`${K2},${K1}`);
    expect(rotated.verifyTag('sandbox|org|app|7:uuid', 'events-feed.cursor', tag)).toBe(true);
    expect(rotated.tag('sandbox|org|app|7:uuid', 'events-feed.cursor')).toMatch(/^v2\./);
    expect(SecretBox.fromSpec(K2).verifyTag('sandbox|org|app|7:uuid', 'events-feed.cursor', tag)).toBe(false);
  });

  it('fingerprints each key version: two generated v1 keys differ, the same key agrees, the key is not in it', () => {
    const a = generateSecretsKeyEntry(1);
    const b = generateSecretsKeyEntry(1);
    const fa = SecretBox.fromSpec(a).fingerprintOf(1)!;
    expect(fa).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(SecretBox.fromSpec(`${K2},${a}`).fingerprintOf(1)).toBe(fa);
    expect(SecretBox.fromSpec(b).fingerprintOf(1)).not.toBe(fa);
    expect(fa).not.toContain(a.slice(3, 20));
    expect(SecretBox.fromSpec(a).fingerprintOf(2)).toBeNull();
  });

  it('a stored secret no key opens is a 503 with the key version logged at error at most once a minute', () => {
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_000_000_000);
    try {
      const sealed = SecretBox.fromSpec(`v7:${Buffer.alloc(32, 5).toString('base64url')}`).seal('JBSWY3DPEHPK3PXP', 'users.totp_secret');
      const other = SecretBox.fromSpec(`v7:${Buffer.alloc(32, 6).toString('base64url')}`);
      let thrown: unknown;
      try {
        other.openStored(sealed, 'users.totp_secret');
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(StoredSecretUnavailableError);
      expect((thrown as StoredSecretUnavailableError).headers).toEqual({ 'Retry-After': '5' });
      expect((thrown as StoredSecretUnavailableError).code).toBe('service_unavailable');
      expect(error).toHaveBeenCalledTimes(1);
      expect(String(error.mock.calls[0][0])).toContain('SECRETS_KEY v7');
      now.mockReturnValue(1_000_059_000);
      expect(() => other.openStored(sealed, 'users.totp_secret')).toThrow(StoredSecretUnavailableError);
      expect(error).toHaveBeenCalledTimes(1);
      now.mockReturnValue(1_000_060_000);
      expect(() => other.openStored(sealed, 'users.totp_secret')).toThrow(StoredSecretUnavailableError);
      expect(error).toHaveBeenCalledTimes(2);
      expect(other.openStored('JBSWY3DPEHPK3PXP', 'users.totp_secret')).toBe('JBSWY3DPEHPK3PXP');
    } finally {
      error.mockRestore();
      now.mockRestore();
    }
  });
});
