// Performance trick 7 of docs/adr/0013 (gain, removal): reads an unencoded request body by hand instead of body-parser's raw().
// Held by identity-body-reader.spec.ts (limit, pieces, a client gone mid-body) and test/e2e/transport.e2e-spec.ts.
import type { Request } from 'express';

/** The failure's `type`, as body-parser names it, so that the middleware maps both readers' failures alike. */
type ReadFailure = Error & { type: 'entity.too.large' | 'request.aborted' };
const failure = (type: ReadFailure['type']): ReadFailure => Object.assign(new Error(type), { type });
export const NO_BYTES = Buffer.alloc(0);

/**
 * The body of a request sent without Content-Encoding, read straight off the request stream, as the yardstick
 * baseline reads it, where body-parser's `raw()` (json-body.middleware.ts, which still reads every encoded body
 * with it) adds its type, charset and encoding checks, raw-body's stream handling and on-finished around the same
 * read. As body-parser does, a body over `limit` bytes (declared, or sent) is read off to its end before it is
 * refused, so that the connection can carry the answer; a request whose stream was torn down is refused.
 */
export function readIdentityBody(req: Request, limit: number): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    if (req.readableEnded) return resolve(NO_BYTES);
    if (req.destroyed) return reject(failure('request.aborted'));
    const declared = req.headers['content-length'];
    let over = declared !== undefined && Number(declared) > limit;
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) over = true;
      if (!over) chunks.push(chunk);
    });
    req.on('end', () => (over ? reject(failure('entity.too.large')) : resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size))));
    // a client gone mid-body: Node ends the request with an error ('aborted'); a promise settles once, so an error
    // after the end changes nothing (no listener is removed: each costs more than it saves on a finished request)
    req.on('error', () => reject(failure('request.aborted')));
  });
}
