/** CONTRACT §8: the scopes of the partner API, one per operation. */
export const SCOPES = ['journal:prepare', 'journal:post', 'products:create', 'operations:read', 'journal:read'] as const;
export type Scope = (typeof SCOPES)[number];

export const isScope = (v: unknown): v is Scope => typeof v === 'string' && (SCOPES as readonly string[]).includes(v);
