import { finished } from 'node:stream';
import type { Request, Response } from 'express';
import { DomainError, ServiceUnavailableError } from '../../../shared/domain/errors';
import { AttachmentTooLargeError } from '../domain/attachment';

/**
 * CONTRACT §17: an instance holds at most this many uploads' worth of ATTACHMENT_MAX_BYTES in memory at
 * once; an upload beyond that share is refused with 503 and Retry-After rather than grow the process.
 * An upload counts its Content-Length at once (or, sent chunked, each chunk as it arrives) until its write
 * has finished.
 */
export const UPLOAD_SHARE_IN_MAX_BYTES = 4;

/** The instance's budget of upload bytes in flight (per process: it bounds this process's memory). */
export class UploadBudget {
  private inFlight = 0;

  constructor(readonly limitBytes: number) {}

  /** Takes `bytes` of the budget, or returns false (nothing taken) when they do not fit. */
  take(bytes: number): boolean {
    if (this.inFlight + bytes > this.limitBytes) return false;
    this.inFlight += bytes;
    return true;
  }

  give(bytes: number): void {
    this.inFlight -= bytes;
  }

  get bytesInFlight(): number {
    return this.inFlight;
  }
}

/** An upload read whole, and its part of the budget, given back by `release()` once its write is over. */
export interface ReceivedUpload {
  bytes: Buffer;
  release(): void;
}

/** The client went away before its body was complete: nothing is stored (and the answer reaches no one). */
export class UploadAbortedError extends DomainError {
  constructor() {
    super('invalid_input', 'The connection closed before the whole file was received');
  }
}

/**
 * Reads the request body as it streams in, never more than `maxBytes` of it: a Content-Length over the
 * limit is refused before a byte is read, a chunked body the moment it passes it (413, and the connection
 * is closed after the answer, so the rest is never read into memory); the budget is taken first (503).
 */
export function receiveUpload(req: Request, res: Response, maxBytes: number, budget: UploadBudget): Promise<ReceivedUpload> {
  const declared = req.headers['content-length'] === undefined ? null : Number(req.headers['content-length']);
  const tooLarge = () => {
    res.setHeader('Connection', 'close');
    return new AttachmentTooLargeError(maxBytes);
  };
  if (declared !== null && declared > maxBytes) return Promise.reject(tooLarge());
  let taken = 0;
  const release = () => {
    budget.give(taken);
    taken = 0;
  };
  if (declared !== null && declared > 0) {
    if (!budget.take(declared)) return Promise.reject(busy(res));
    taken = declared;
  }
  return new Promise<ReceivedUpload>((resolve, reject) => {
    // a declared length is received into one buffer of that size (each chunk copied in and let go), so the
    // upload is held once, not as chunks and then again as their concatenation; a chunked body is collected
    const whole = declared !== null && declared > 0 ? Buffer.allocUnsafe(declared) : null;
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      cleanup();
      chunks.length = 0;
      release();
      // stop reading: the answer goes out with Connection: close, and Node discards what still comes
      req.unpipe();
      reject(err);
    };
    const onData = (chunk: Buffer) => {
      if (whole) {
        // Node's parser never delivers more than Content-Length
        chunk.copy(whole, received);
        received += chunk.length;
        return;
      }
      received += chunk.length;
      if (received > maxBytes) return fail(tooLarge());
      if (!budget.take(chunk.length)) return fail(busy(res));
      taken += chunk.length;
      chunks.push(chunk);
    };
    let stopFinished = () => undefined as void;
    const cleanup = () => {
      req.off('data', onData);
      stopFinished();
    };
    req.on('data', onData);
    // the whole body, or the client went away before it (also before this was called): nothing is stored
    stopFinished = finished(req, { writable: false }, (err) => {
      if (err) return fail(new UploadAbortedError());
      if (settled) return;
      settled = true;
      cleanup();
      const bytes = whole ? whole.subarray(0, received) : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received);
      chunks.length = 0;
      resolve({ bytes, release });
    });
  });
}

function busy(res: Response): ServiceUnavailableError {
  res.setHeader('Connection', 'close');
  return new ServiceUnavailableError('This instance is receiving as many uploads as it may hold; retry later');
}
