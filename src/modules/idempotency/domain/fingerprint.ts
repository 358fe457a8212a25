import { hash } from 'node:crypto';
import canonicalize from 'canonicalize';

/**
 * CONTRACT §6: SHA-256 over the RFC 8785 canonical JSON of the normalized input plus the operation
 * name, so key order and spelled-out defaults do not change it.
 */
export function requestFingerprint(operation: string, normalizedInput: unknown): string {
  const canonical = canonicalize({ operation, input: normalizedInput });
  if (canonical === undefined) throw new Error('input cannot be canonicalized');
  return hash('sha256', canonical, 'hex');
}
