import { hash, verify } from '@node-rs/argon2';

/** CONTRACT §10: an owner's password is 12–128 characters (code points). */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 128;

/**
 * argon2id (the library's default algorithm) with OWASP's 2024 minimum: 19 MiB, 2 passes, 1 lane.
 * The result is a PHC string holding its own salt and parameters, so they can be raised later.
 */
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** A hash of nothing anyone knows, so that an unknown email costs the same time as a known one. */
let decoy: Promise<string> | null = null;

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (stored === null) {
    decoy ??= hashPassword('decoy password never used by anyone');
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
