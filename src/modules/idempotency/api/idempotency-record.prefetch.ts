import type { AccessLookups } from '../../../shared/domain/caller-context';
import { isWellFormedIdempotencyKey } from '../domain/idempotency-key';

/**
 * For an idempotent write: the guard reads the record under a well-formed Idempotency-Key with the
 * token, so that a replay is answered from that one statement (IdempotencyService.execute).
 */
export function idempotencyRecordPrefetch(req: { headers: Record<string, string | string[] | undefined> }): Partial<AccessLookups> {
  const key = req.headers['idempotency-key'];
  return { idempotencyKey: isWellFormedIdempotencyKey(key) ? key : null };
}
