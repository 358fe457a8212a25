import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { isForbiddenAddress, isLocalName, literalAddress } from '../domain/endpoint-address';

export interface SendInput {
  url: string;
  secret: string;
  msgId: string;
  timestamp: Date;
  body: string;
}

export interface SendResult {
  ok: boolean;
  status?: number;
  error?: string;
  durationMs: number;
}

const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * Delivers one signed webhook (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature).
 * The host is resolved here, at delivery time, and every resolved address is vetted unless private
 * networks are allowed; the connection is then pinned to the vetted address, so a DNS answer that
 * changes between check and connect cannot redirect it. No redirects are followed; 10 s in total.
 * Never throws: failures come back as `ok: false` with a short error that holds no secret.
 */
export class WebhookSender {
  constructor(private readonly options: { allowPrivateNetworks: boolean; timeoutMs?: number }) {}

  async send(input: SendInput): Promise<SendResult> {
    const started = Date.now();
    const done = (r: Omit<SendResult, 'durationMs'>): SendResult => ({ ...r, durationMs: Date.now() - started });
    let url: URL;
    try {
      url = new URL(input.url);
    } catch {
      return done({ ok: false, error: 'invalid_url' });
    }
    let address: { address: string; family: number };
    try {
      const literal = literalAddress(url);
      const addresses = literal ? [{ address: literal, family: literal.includes(':') ? 6 : 4 }] : await lookup(url.hostname, { all: true });
      if (addresses.length === 0) return done({ ok: false, error: 'dns_no_address' });
      if (!this.options.allowPrivateNetworks && (isLocalName(url) || addresses.some((a) => isForbiddenAddress(a.address)))) {
        return done({ ok: false, error: 'forbidden_address' });
      }
      address = addresses[0];
    } catch {
      return done({ ok: false, error: 'dns_failure' });
    }

    let signature: string;
    try {
      signature = new Webhook(input.secret).sign(input.msgId, input.timestamp, input.body);
    } catch {
      return done({ ok: false, error: 'signing_failed' });
    }
    const pinned: LookupFunction = (_host, options, callback) => {
      if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: unknown[]) => void)(null, [address]);
      else callback(null, address.address, address.family);
    };
    const client = url.protocol === 'https:' ? https : http;
    const timeoutMs = this.options.timeoutMs ?? 10_000;

    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const finish = (r: Omit<SendResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(done(r));
      };
      const req = client.request(
        url,
        {
          method: 'POST',
          lookup: pinned,
          agent: false,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(input.body),
            'user-agent': 'partner-api-webhooks/1',
            'webhook-id': input.msgId,
            'webhook-timestamp': String(Math.floor(input.timestamp.getTime() / 1000)),
            'webhook-signature': signature,
          },
        },
        (res) => {
          let seen = 0;
          res.on('data', (chunk: Buffer) => {
            seen += chunk.length;
            if (seen > MAX_RESPONSE_BYTES) res.destroy();
          });
          const status = res.statusCode ?? 0;
          const result = { ok: status >= 200 && status < 300, status, ...(status >= 200 && status < 300 ? {} : { error: `http_${status}` }) };
          res.on('end', () => finish(result));
          res.on('close', () => finish(result));
          res.on('error', () => finish(result));
        },
      );
      const timer = setTimeout(() => {
        finish({ ok: false, error: 'timeout' });
        req.destroy();
      }, timeoutMs);
      req.on('error', (err: NodeJS.ErrnoException) => finish({ ok: false, error: err.code ?? 'request_failed' }));
      req.end(input.body);
    });
  }
}
