import type { Response } from 'express';
import type { StoredAttachment } from '../domain/attachment';

/** Until the client has taken what is written (`drain`) or its connection is gone (`close`). */
function drainedOrClosed(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}

/**
 * Writes an attachment's bytes piece by piece, reading the next piece only once the client has taken the
 * last (CONTRACT §17: never held whole). A client that goes away, or stops reading and is cut off
 * (server-limits.ts, CONTRACT §20), ends the reads at once: the pieces' iterator is closed. A read that
 * fails after the headers went out is thrown on: the problem filter then destroys the connection (§20).
 */
export async function sendAttachmentBytes(res: Response, stored: StoredAttachment): Promise<void> {
  for await (const chunk of stored.chunks()) {
    if (res.destroyed) return;
    if (!res.write(chunk)) await drainedOrClosed(res);
    if (res.destroyed) return;
  }
  res.end();
}
