import type { Request } from 'express';

/** What the transport layer attaches to a request. */
export interface RequestWithContext extends Request {
  id: string;
  /** Set when the request came with an `Authorization` header (used for RFC 6750's error="…"). */
  tokenSent?: boolean;
}
