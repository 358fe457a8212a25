/**
 * CONTRACT §9 "Other events": `webhook.test` goes to one endpoint only and never into the events feed. It
 * belongs to no organization: its outbox row carries this nil uuid, which names no organization, so no
 * feed (read per organization) can list it and no fan-out (it is stored dispatched) sends it elsewhere.
 */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
export const NO_ORGANIZATION = '00000000-0000-0000-0000-000000000000';

/** CONTRACT §9 Rotate secret: the secret a rotation replaces still signs this long beside the new one. */
export const PREVIOUS_SECRET_SIGNS_HOURS = 24;

/** The body of a `webhook.test` event (the three members of every webhook body, CONTRACT §9). */
export function testEventBody(endpointId: string, createdAt: Date): string {
  return JSON.stringify({ type: WEBHOOK_TEST_EVENT, timestamp: createdAt.toISOString(), data: { endpoint_id: endpointId } });
}
