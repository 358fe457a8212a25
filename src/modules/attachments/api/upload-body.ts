import { finished } from 'node:stream';
import type { Request, Response } from 'express';
import { DomainError, ServiceUnavailableError } from '../../../shared/domain/errors';
import { AttachmentTooLargeError } from '../domain/attachment';

/**
 * CONTRACT §17: an instance holds at most this many uploads' worth of ATTACHMENT_MAX_BYTES in memory at
 * once; an upload beyond that share is refused with 503 and Retry-After rather than grow the process.
 * An upload counts the bytes it has received (CONTRACT §20: not its declared Content-Length, which costs
 * nothing to send) until its write has finished.
 */
export const UPLOAD_SHARE_IN_MAX_BYTES = 4;

/** CONTRACT §20: an upload receiving fewer bytes than this in any window of UPLOAD_RATE_WINDOW_MS is cut off (408). */
export const UPLOAD_MIN_BYTES_PER_WINDOW = 64 * 1024;
export const UPLOAD_RATE_WINDOW_MS = 10_000;
/** The window is looked at in this many steps (every second). */
const RATE_WINDOW_STEPS = 10;

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

/** CONTRACT §20: too slow a sender holds its connection and memory: cut off, its bytes dropped. */
export class UploadTooSlowError extends DomainError {
  constructor() {
    super('request_timeout', `The upload sent less than ${UPLOAD_MIN_BYTES_PER_WINDOW / 1024} KiB in ${UPLOAD_RATE_WINDOW_MS / 1000} s; nothing was stored`);
  }
}

/**
 * Reads the request body as it streams in, never more than `maxBytes` of it: a Content-Length over the
 * limit is refused before a byte is read, a body the moment it passes it (413, and the connection is
 * closed after the answer, so the rest is never read into memory). Each piece takes its bytes of the
 * budget as it arrives (503 when they do not fit); fewer than UPLOAD_MIN_BYTES_PER_WINDOW in the last
 * UPLOAD_RATE_WINDOW_MS is 408. A refused upload's bytes are dropped and its budget given back at once.
 */
export function receiveUpload(req: Request, res: Response, maxBytes: number, budget: UploadBudget): Promise<ReceivedUpload> {
  const declared = req.headers['content-length'] === undefined ? null : Number(req.headers['content-length']);
  const closing = <E extends Error>(err: E): E => {
    res.setHeader('Connection', 'close');
    return err;
  };
  if (declared !== null && declared > maxBytes) return Promise.reject(closing(new AttachmentTooLargeError(maxBytes)));
  let taken = 0;
  const release = () => {
    budget.give(taken);
    taken = 0;
  };
  return new Promise<ReceivedUpload>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    // bytes received in each step of the rate window, the current step last
    const steps: number[] = [0];
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      cleanup();
      chunks.length = 0;
      release();
      // stop keeping what still comes: the answer goes out with Connection: close, the rest is discarded
      req.unpipe();
      req.resume();
      reject(err);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      steps[steps.length - 1] += chunk.length;
      if (received > maxBytes) return fail(closing(new AttachmentTooLargeError(maxBytes)));
      if (!budget.take(chunk.length))
        return fail(closing(new ServiceUnavailableError('This instance is receiving as many uploads as it may hold; retry later')));
      taken += chunk.length;
      chunks.push(chunk);
    };
    const pace = setInterval(() => {
      if (steps.length === RATE_WINDOW_STEPS && steps.reduce((a, b) => a + b, 0) < UPLOAD_MIN_BYTES_PER_WINDOW) {
        return fail(closing(new UploadTooSlowError()));
      }
      if (steps.length === RATE_WINDOW_STEPS) steps.shift();
      steps.push(0);
    }, UPLOAD_RATE_WINDOW_MS / RATE_WINDOW_STEPS);
    let stopFinished = () => undefined as void;
    const cleanup = () => {
      clearInterval(pace);
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
      const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received);
      chunks.length = 0;
      resolve({ bytes, release });
    });
  });
}
