import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { ResolvedAddress } from '../../../shared/domain/host-resolver';
import type { AllowedNetworks } from '../../../shared/domain/allowed-networks';
import { isForbiddenAddress, isLiteralForbiddenHost, literalAddress, validateEndpointUrl } from '../domain/endpoint-address';
import { type SendInput, type SendResult, WebhookSender } from '../domain/webhook-sender';

export type { SendInput, SendResult };

export type { ResolvedAddress };

export interface WebhookSenderOptions {
  /** WEBHOOK_ALLOWED_NETWORKS (CONTRACT §2): the ranges besides public addresses that may be reached, by every endpoint alike */
  allowedNetworks: AllowedNetworks;
  /** For the whole send: DNS, connect, request and response. CONTRACT §9: 10 s. */
  timeoutMs?: number;
  /** Resolves a host name to every address; `dns.lookup(host, { all: true })` unless replaced in tests. */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
}

const DEFAULT_TIMEOUT_MS = 10_000;
/** Keep-alive pools kept at most (one per endpoint origin and vetted address); the oldest unused is closed beyond. */
const MAX_POOLS = 256;
/** An idle kept-alive connection is closed after this (receivers commonly close theirs after 5 s). */
const IDLE_SOCKET_MS = 4_000;
/** What a receiver may make us read; the rest of a larger body is cut off with the connection. */
export const MAX_RESPONSE_BYTES = 64 * 1024;

const TIMED_OUT = Symbol('timeout');

/**
 * Delivers one signed webhook (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature).
 *
 * CONTRACT §9: hosts on loopback, private or link-local addresses are refused "again, on the resolved
 * address, at each delivery", unless WEBHOOK_ALLOWED_NETWORKS lists their range (never link-local ones). The host is resolved here, every resolved address is vetted (one bad
 * address refuses the lot), and the socket is then pinned to a vetted address through a custom `lookup`,
 * so a DNS answer that changes between check and connect (DNS rebinding) cannot redirect it. The Host
 * header and TLS SNI stay the URL's host name, so certificates are verified against the name.
 *
 * No redirects are followed (a 3xx is a failure: following one would escape the address check), only 2xx
 * is success, and the whole send is bounded by `timeoutMs`. Never throws.
 *
 * CONTRACT §9, keeping pace: connections are kept alive and reused, one pool per endpoint origin and
 * vetted address (a pool's sockets all lead to the address it was made for, so reuse never skips the
 * check; a new DNS answer gets a new pool). A send that ends early (timeout, oversized answer, error)
 * destroys its socket instead of returning it.
 */
export class HttpWebhookSender extends WebhookSender {
  private readonly timeoutMs: number;
  private readonly resolve: (hostname: string) => Promise<ResolvedAddress[]>;
  /** Keep-alive pools by origin and vetted address, least recently used first (Map order). */
  private readonly pools = new Map<string, http.Agent>();

  constructor(private readonly options: WebhookSenderOptions) {
    super();
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.resolve = options.resolve ?? ((hostname) => dnsLookup(hostname, { all: true }));
  }

  async send(input: SendInput): Promise<SendResult> {
    const started = Date.now();
    const deadline = started + this.timeoutMs;
    const done = (r: Omit<SendResult, 'durationMs'>): SendResult => ({ ...r, durationMs: Date.now() - started });
    try {
      const checked = validateEndpointUrl(input.url);
      if (!checked.ok) return done({ ok: false, error: 'invalid_url' });
      const url = checked.url;

      // Signed before anything touches the network, so that a bad secret costs no connection.
      let signature: string;
      try {
        if (Number.isNaN(input.timestamp.getTime())) return done({ ok: false, error: 'invalid_timestamp' });
        signature = new Webhook(input.secret).sign(input.msgId, input.timestamp, input.body);
        // CONTRACT §9, §21: for 24 h after a rotation, `v1,<new> v1,<old>` (Standard Webhooks' space-separated list), newest first
        for (const previous of input.previousSecrets ?? []) signature += ` ${new Webhook(previous).sign(input.msgId, input.timestamp, input.body)}`;
      } catch {
        return done({ ok: false, error: 'signing_failed' }); // the library's message is not passed on
      }

      if (isLiteralForbiddenHost(url, this.options.allowedNetworks)) return done({ ok: false, error: 'forbidden_address' });
      const target = await this.vettedAddress(url, deadline);
      if (target === TIMED_OUT) return done({ ok: false, error: 'timeout' });
      if (typeof target === 'string') return done({ ok: false, error: target });

      // the address that answered (or failed to): a status code is shown only while it would be allowed (CONTRACT §9)
      return done({ ...(await this.post(url, target, input, signature, deadline)), address: target.address });
    } catch {
      return done({ ok: false, error: 'send_failed' });
    }
  }

  /** The address to connect to, or why there is none. */
  private async vettedAddress(url: URL, deadline: number): Promise<ResolvedAddress | string | typeof TIMED_OUT> {
    const literal = literalAddress(url);
    let addresses: ResolvedAddress[];
    if (literal) {
      addresses = [{ address: literal, family: isIP(literal) }];
    } else {
      let timer: NodeJS.Timeout | undefined;
      try {
        // getaddrinfo cannot be cancelled; we only stop waiting for it.
        const timeout = new Promise<typeof TIMED_OUT>((resolve) => (timer = setTimeout(() => resolve(TIMED_OUT), deadline - Date.now())));
        const answer = await Promise.race([this.resolve(url.hostname), timeout]);
        if (answer === TIMED_OUT) return TIMED_OUT;
        addresses = answer;
      } catch {
        return 'dns_failure';
      } finally {
        clearTimeout(timer);
      }
    }
    if (!Array.isArray(addresses) || addresses.length === 0) return 'dns_failure';
    if (addresses.some((a) => isForbiddenAddress(a.address, this.options.allowedNetworks))) return 'forbidden_address';
    const first = addresses[0];
    return { address: first.address, family: first.family === 6 || isIP(first.address) === 6 ? 6 : 4 };
  }

  /** The keep-alive pool of this origin and vetted address. */
  private pool(url: URL, target: ResolvedAddress, lookup: LookupFunction): http.Agent {
    const key = `${url.protocol}//${url.host}|${target.address}`;
    let agent = this.pools.get(key);
    if (agent) {
      this.pools.delete(key); // most recently used last
    } else {
      const options = { keepAlive: true, scheduling: 'lifo' as const, timeout: IDLE_SOCKET_MS, lookup };
      agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
      if (this.pools.size >= MAX_POOLS) {
        const [oldest, pool] = this.pools.entries().next().value as [string, http.Agent];
        this.pools.delete(oldest);
        pool.destroy();
      }
    }
    this.pools.set(key, agent);
    return agent;
  }

  /** Closes every kept-alive connection (shutdown, tests). */
  close(): void {
    for (const pool of this.pools.values()) pool.destroy();
    this.pools.clear();
  }

  private post(url: URL, target: ResolvedAddress, input: SendInput, signature: string, deadline: number): Promise<Omit<SendResult, 'durationMs'>> {
    // Whatever name the socket asks for, it gets the vetted address (Node calls lookup with `all: true`
    // when it races address families, and without it otherwise).
    const pinned = ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
      if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
      else callback(null, target.address, target.family);
    }) as unknown as LookupFunction;
    const client = url.protocol === 'https:' ? https : http;
    const agent = this.pool(url, target, pinned);

    return new Promise((resolve) => {
      let answered: Omit<SendResult, 'durationMs'> | undefined;
      let settled = false;
      /** `reuse`: the answer was read to its end, the connection goes back to the pool. */
      const finish = (result: Omit<SendResult, 'durationMs'>, reuse = false) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (!reuse) req.destroy(); // also drops whatever of the response body is left unread
        resolve(result);
      };
      // The status line decides the outcome; after it the body is drained, up to the limit and the deadline.
      const timer = setTimeout(() => finish(answered ?? { ok: false, error: 'timeout' }), Math.max(0, deadline - Date.now()));

      const req = client.request(
        url,
        {
          method: 'POST',
          agent,
          lookup: pinned,
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
          const status = res.statusCode ?? 0;
          answered = status >= 200 && status < 300 ? { ok: true, status } : { ok: false, status, error: `http_${status}` };
          let read = 0;
          res.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read >= MAX_RESPONSE_BYTES) finish(answered!);
          });
          res.on('end', () => finish(answered!, true));
          res.on('close', () => finish(answered!));
          res.on('error', () => finish(answered!));
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) => finish(answered ?? { ok: false, error: errorCode(err) }));
      req.end(input.body);
    });
  }
}

/** A socket or TLS error code (`ECONNREFUSED`, `CERT_HAS_EXPIRED`); never the message, which may quote the URL. */
function errorCode(err: NodeJS.ErrnoException): string {
  return typeof err?.code === 'string' && /^[A-Z0-9_]{1,64}$/.test(err.code) ? err.code : 'request_failed';
}
