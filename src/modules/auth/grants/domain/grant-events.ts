/**
 * CONTRACT §18, grant events: what an app's production endpoints and events feed are told about its
 * grants, besides `operation.completed` (§9, §14). Bodies as in §9: exactly `{"type","timestamp","data"}`,
 * fixed when the event is made, so every delivery and the feed carry the same bytes.
 */

/** CONTRACT §18: `grant.expiring` comes this long before a grant expires (at once for a shorter grant). */
export const EXPIRING_NOTICE_MS = 14 * 86_400_000;

/** Why a grant stopped being in force (`grant.revoked`'s `reason`). */
export const GRANT_END_REASONS = ['revoked', 'superseded', 'expired'] as const;
export type GrantEndReason = (typeof GRANT_END_REASONS)[number];

export type GrantEventType = 'grant.revoked' | 'grant.expiring';

/** The grant an event is about. Grants are production's only (CONTRACT §8). */
export interface GrantRef {
  organizationId: string;
  id: string;
  appId: string;
}

/** An event for the outbox (environment production), with the exact body every delivery sends. */
export interface GrantEvent {
  /** the webhook-id of every delivery, and the feed's id */
  id: string;
  organizationId: string;
  appId: string;
  type: GrantEventType;
  body: string;
  createdAt: Date;
}

const iso = (d: Date): string => d.toISOString();

/** `grant.revoked` (`data` `{"grant_id","organization_id","reason","at"}`): `at` is when the grant stopped being in force. */
export function grantRevokedEvent(id: string, grant: GrantRef, reason: GrantEndReason, at: Date, now: Date): GrantEvent {
  const data = { grant_id: grant.id, organization_id: grant.organizationId, reason, at: iso(at) };
  return event(id, grant, 'grant.revoked', data, now);
}

/** `grant.expiring` (`data` `{"grant_id","organization_id","expires_at"}`). */
export function grantExpiringEvent(id: string, grant: GrantRef, expiresAt: Date, now: Date): GrantEvent {
  const data = { grant_id: grant.id, organization_id: grant.organizationId, expires_at: iso(expiresAt) };
  return event(id, grant, 'grant.expiring', data, now);
}

/** CONTRACT §18: a grant that ends within the notice period is told it is expiring as soon as it is made. */
export function expiringAtOnce(now: Date, expiresAt: Date): boolean {
  return expiresAt.getTime() - now.getTime() <= EXPIRING_NOTICE_MS;
}

function event(id: string, grant: GrantRef, type: GrantEventType, data: object, now: Date): GrantEvent {
  return {
    id,
    organizationId: grant.organizationId,
    appId: grant.appId,
    type,
    body: JSON.stringify({ type, timestamp: iso(now), data }),
    createdAt: now,
  };
}
