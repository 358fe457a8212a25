import type { ServerResponse } from 'node:http';
import { Counter, Histogram, Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { ServiceMetrics } from './service-metrics';

/**
 * The completion hook counts requests in its own series and hands them to prom-client when scraped
 * (request-series.ts); what is exposed must be what prom-client shows when fed call by call.
 */
describe('ServiceMetrics: requests counted per series, exposed as prom-client exposes them', () => {
  const LABELS = ['listener', 'method', 'route', 'status'] as const;
  const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

  /** The same metrics, fed the prom-client way: one inc and one observe per request (what the hook did before). */
  const reference = () => {
    const registry = new Registry();
    const registers = [registry];
    return {
      registry,
      requests: new Counter({
        name: 'partner_http_requests_total',
        help: 'HTTP requests answered, by listener, method, route template and status',
        labelNames: LABELS,
        registers,
      }),
      duration: new Histogram({
        name: 'partner_http_request_duration_seconds',
        help: 'Time from the request reaching the application to the response being sent',
        labelNames: LABELS,
        buckets: BUCKETS,
        registers,
      }),
      replays: new Counter({
        name: 'partner_idempotency_replays_total',
        help: 'Writes answered from a stored idempotency record (replayed: true)',
        labelNames: ['route'],
        registers,
      }),
      conflicts: new Counter({
        name: 'partner_idempotency_conflicts_total',
        help: 'Writes refused with an idempotency conflict (409), by problem code',
        labelNames: ['route', 'code'],
        registers,
      }),
      limited: new Counter({
        name: 'partner_rate_limit_rejections_total',
        help: 'Requests refused by a rate limit (429 rate_limited)',
        labelNames: ['listener', 'route'],
        registers,
      }),
    };
  };

  const prepare = { path: '/api/partner/sandbox/v1/journal/prepare' };
  const products = { path: '/api/partner/sandbox/v1/products' };
  interface Call {
    listener: 'partner' | 'console';
    method: string;
    route?: { path: string };
    baseUrl?: string;
    status: number;
    /** seconds as a multiple of 2^-10: exact in binary, so sums do not depend on their order */
    k: number;
    replayed?: boolean;
    code?: string;
  }
  const calls: Call[] = [];
  for (let i = 0; i < 300; i++) {
    calls.push({ listener: 'partner', method: 'POST', route: prepare, status: i % 7 === 0 ? 400 : 200, k: (i * 37) % 3000 });
    calls.push({ listener: 'partner', method: 'POST', route: products, status: 201, k: (i * 13) % 90, replayed: i % 2 === 0 });
  }
  calls.push({ listener: 'partner', method: 'GET', status: 404, k: 1 });
  calls.push({ listener: 'partner', method: 'POST', route: products, status: 409, k: 3, code: 'idempotency_key_reused' });
  calls.push({ listener: 'partner', method: 'POST', route: prepare, status: 429, k: 2, code: 'rate_limited' });
  calls.push({ listener: 'console', method: 'GET', route: { path: '/x/:id' }, baseUrl: '/base', status: 200, k: 20_000 });
  calls.push({ listener: 'console', method: 'GET', route: { path: '/x/:id' }, baseUrl: '/base', status: 200, k: 5 });

  const names = [
    'partner_http_requests_total',
    'partner_http_request_duration_seconds',
    'partner_idempotency_replays_total',
    'partner_idempotency_conflicts_total',
    'partner_rate_limit_rejections_total',
  ];

  it('exposes the same text as prom-client fed one call at a time, over two scrapes', async () => {
    const metrics = new ServiceMetrics({ isInitialized: false, driver: {} } as unknown as DataSource);
    const hooks = { partner: metrics.completion('partner'), console: metrics.completion('console') };
    const ref = reference();
    const feed = (part: Call[]) => {
      for (const c of part) {
        const seconds = c.k / 1024;
        const req = { method: c.method, route: c.route, baseUrl: c.baseUrl ?? '' };
        const res = { statusCode: c.status, locals: { replayed: c.replayed, problemCode: c.code } } as unknown as ServerResponse;
        hooks[c.listener](req as never, res, seconds * 1000);
        const route = c.route ? `${c.baseUrl ?? ''}${c.route.path}` : '(unmatched)';
        const labels = { listener: c.listener, method: c.method, route, status: String(c.status) };
        ref.requests.inc(labels);
        ref.duration.observe(labels, seconds);
        if (c.replayed) ref.replays.inc({ route });
        if (c.code === 'idempotency_key_reused') ref.conflicts.inc({ route, code: c.code });
        if (c.code === 'rate_limited') ref.limited.inc({ listener: c.listener, route });
      }
    };
    const expose = async (registry: Registry) => Promise.all(names.map((n) => registry.getSingleMetricAsString(n)));

    feed(calls.slice(0, 250));
    const first = await expose(metrics.registry);
    expect(first).toEqual(await expose(ref.registry));
    expect(first[0]).toContain('partner_http_requests_total{listener="partner",method="POST",route="/api/partner/sandbox/v1/journal/prepare",status="200"}');
    feed(calls.slice(250));
    const second = await expose(metrics.registry);
    expect(second).toEqual(await expose(ref.registry));
    expect(second[1]).toContain('partner_http_request_duration_seconds_bucket{le="+Inf",listener="console",method="GET",route="/base/x/:id",status="200"} 2');
    // a scrape with nothing new changes nothing
    expect(await expose(metrics.registry)).toEqual(second);
  });
});
