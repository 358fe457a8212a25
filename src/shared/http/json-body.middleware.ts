import { TextDecoder } from 'node:util';
import { Injectable, type NestMiddleware } from '@nestjs/common';
import { raw } from 'express';
import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '../domain/errors';
import { NO_BYTES, readIdentityBody } from '../performance/identity-body-reader';

/** 256 KiB: the seed's body limit (seed §8); exactly this many bytes is allowed. */
export const MAX_BODY_BYTES = 262_144;

const readRaw = raw({ type: () => true, limit: MAX_BODY_BYTES, inflate: true });
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

function isJson(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const [mediaType, ...params] = contentType.split(';').map((p) => p.trim().toLowerCase());
  if (mediaType !== 'application/json') return false;
  return params.every((p) => p === '' || p === 'charset=utf-8' || p === 'charset="utf-8"');
}

/** A body with a Content-Encoding: body-parser's `raw()` inflates it (gzip, deflate, br) or refuses its encoding. */
function readEncodedBody(req: Request, res: Response): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    readRaw(req, res, (err?: unknown) => {
      if (err) return reject(err);
      resolve(Buffer.isBuffer(req.body) ? req.body : NO_BYTES);
    });
  });
}

function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';
}

/**
 * Parses a JSON object body, in CONTRACT §3's order: media type (415), size (413), syntax and
 * top-level shape (400). It is bound only to known POST routes, so routing comes first (step 0): an
 * unknown path is 404 whatever its body.
 */
@Injectable()
export class JsonBodyMiddleware implements NestMiddleware {
  /** The console accepts a bodiless POST as `{}` (its calls mostly take no fields). */
  protected readonly emptyIsObject: boolean = false;

  async use(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (req.method !== 'POST' && req.method !== 'PUT' && req.method !== 'PATCH') return next();
    if (!isJson(req.headers['content-type'])) {
      if (this.emptyIsObject && !req.headers['content-type'] && !hasBody(req)) {
        req.body = {};
        return next();
      }
      throw new DomainError('unsupported_media_type', 'Send the body as Content-Type: application/json');
    }
    const read = req.headers['content-encoding'] === undefined ? readIdentityBody(req, MAX_BODY_BYTES) : readEncodedBody(req, res);
    const buffer = await read.catch((err: { type?: string }) => {
      if (err?.type === 'entity.too.large') {
        throw new DomainError('payload_too_large', `The body must be at most ${MAX_BODY_BYTES} bytes`);
      }
      if (err?.type === 'encoding.unsupported') {
        throw new DomainError('unsupported_media_type', 'The content encoding is not supported');
      }
      throw new DomainError('invalid_input', 'The body could not be read');
    });
    let parsed: unknown;
    try {
      parsed = JSON.parse(utf8.decode(buffer));
    } catch {
      throw new DomainError('invalid_input', 'The body is not valid JSON');
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new DomainError('invalid_input', 'The body must be a JSON object');
    }
    req.body = parsed;
    next();
  }
}

@Injectable()
export class ConsoleJsonBodyMiddleware extends JsonBodyMiddleware {
  protected override readonly emptyIsObject = true;
}
