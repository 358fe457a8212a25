import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import type { PgPool } from '../../shared/database/pg-pool';
import type { ObservedLocals } from '../../shared/http/observed-locals';
import { WebhooksSql } from '../webhooks/sql';
import { RequestSeries } from './request-series';

export type Listener = 'partner' | 'console';

/** The duration histogram's buckets, in seconds. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const UNMATCHED = '(unmatched)';

/** What the completion hook reads of a finished request: the route Express matched, if any. */
type RoutedRequest = IncomingMessage & { route?: { path?: unknown }; baseUrl?: string };

/** Problem codes (CONTRACT §4) that count as idempotency conflicts. */
const IDEMPOTENCY_CONFLICTS = new Set(['idempotency_key_reused', 'idempotency_request_in_progress', 'idempotency_grant_changed']);

let processRegistry: Registry | null = null;

/** Process metrics (CPU, memory, event loop, GC) are collected once per process, whatever the apps. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * The route template Express matched (`/api/partner/v1/operations/:operationId`), never the raw path,
 * so that ids do not become label values; requests answered before routing matched anything (unknown
 * paths, transport rejections) share one label.
 */
export function routeLabel(req: Request | RoutedRequest): string {
  const route = (req as RoutedRequest).route;
  if (route && typeof route.path === 'string') return `${req.baseUrl ?? ''}${route.path}`;
  return UNMATCHED;
}

/** What the request log reports (RequestLogRecorder.droppedCalls): calls dropped since it started. */
export interface DroppedCallsSource {
  droppedCalls(): number;
}

/** What an instance holds of its per-instance shares (CONTRACT §20): read when scraped. */
export interface CapacitySource {
  /** requests holding a place under MAX_IN_FLIGHT_PER_TOKEN */
  requestsInFlight(): number;
  /** attachment reads running in the download share of the pool */
  downloadReads(): number;
  /** upload bytes received and held (the upload share) */
  uploadBytes(): number;
}

/** What a webhook dispatcher reports (WebhookDispatcher.finishedDeliveries): deliveries it finished since it started. */
export interface FinishedDeliveriesSource {
  finishedDeliveries(): { delivered: number; failed: number };
}

interface PoolLike {
  totalCount?: number;
  idleCount?: number;
  waitingCount?: number;
  inUseCount?: number;
}

/**
 * The service's Prometheus metrics, one registry per set of applications (tests build many in one
 * process). Request counters are filled by an Express middleware on each listener; the database pool
 * and the webhook backlog (pending rows only: bounded by the backlog, not by history) are read when
 * scraped, finished deliveries are counted by this instance's dispatcher.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'listener' | 'method' | 'route' | 'status'>;
  private readonly duration: Histogram<'listener' | 'method' | 'route' | 'status'>;
  private readonly replays: Counter<'route'>;
  private readonly conflicts: Counter<'route' | 'code'>;
  private readonly rateLimited: Counter<'listener' | 'route'>;
  private webhookDispatcher: FinishedDeliveriesSource | null = null;
  private requestLog: DroppedCallsSource | null = null;
  private capacity: CapacitySource | null = null;
  /** per listener: the requests counted since the last scrape (request-series.ts) */
  private readonly series: RequestSeries[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly pgPool: PgPool | null = null,
    private readonly options: { processMetrics?: boolean } = {},
  ) {
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'partner_http_requests_total',
      help: 'HTTP requests answered, by listener, method, route template and status',
      labelNames: ['listener', 'method', 'route', 'status'],
      registers,
      collect: () => this.flushSeries(),
    });
    this.duration = new Histogram({
      name: 'partner_http_request_duration_seconds',
      help: 'Time from the request reaching the application to the response being sent',
      labelNames: ['listener', 'method', 'route', 'status'],
      buckets: DURATION_BUCKETS,
      registers,
      collect: () => this.flushSeries(),
    });
    this.replays = new Counter({
      name: 'partner_idempotency_replays_total',
      help: 'Writes answered from a stored idempotency record (replayed: true)',
      labelNames: ['route'],
      registers,
      collect: () => this.flushSeries(),
    });
    this.conflicts = new Counter({
      name: 'partner_idempotency_conflicts_total',
      help: 'Writes refused with an idempotency conflict (409), by problem code',
      labelNames: ['route', 'code'],
      registers,
    });
    this.rateLimited = new Counter({
      name: 'partner_rate_limit_rejections_total',
      help: 'Requests refused by a rate limit (429 rate_limited)',
      labelNames: ['listener', 'route'],
      registers,
    });
    const pool = () => this.pool();
    new Gauge({
      name: 'partner_db_pool_connections',
      help: 'Database pool connections in use and idle (PGlite: its one session)',
      labelNames: ['state'],
      registers,
      collect() {
        const p = pool();
        const inUse = p.inUseCount ?? Math.max(0, (p.totalCount ?? 0) - (p.idleCount ?? 0));
        this.set({ state: 'in_use' }, inUse);
        this.set({ state: 'idle' }, p.idleCount ?? 0);
      },
    });
    new Gauge({
      name: 'partner_db_pool_waiting',
      help: 'Queries waiting for a database connection',
      registers,
      collect() {
        this.set(pool().waitingCount ?? 0);
      },
    });
    const query = (sql: string) => this.query(sql);
    new Gauge({
      name: 'partner_webhook_deliveries',
      help: 'Webhook deliveries pending (to be attempted or retried), in the database (all instances)',
      labelNames: ['outcome'],
      registers,
      async collect() {
        const rows = await query(WebhooksSql.pendingDeliveries);
        if (!rows) return;
        this.set({ outcome: 'pending' }, Number(rows[0].pending));
      },
    });
    const dispatcher = () => this.webhookDispatcher;
    const seen = { delivered: 0, failed: 0 };
    const finished = new Counter({
      name: 'partner_webhook_deliveries_finished_total',
      help: "Webhook deliveries this instance's dispatcher finished: delivered (2xx) or failed (gave up after the retry schedule)",
      labelNames: ['outcome'],
      registers,
      collect() {
        const now = dispatcher()?.finishedDeliveries();
        if (!now) return;
        for (const outcome of ['delivered', 'failed'] as const) {
          if (now[outcome] > seen[outcome]) this.inc({ outcome }, now[outcome] - seen[outcome]);
          seen[outcome] = now[outcome];
        }
      },
    });
    for (const outcome of ['delivered', 'failed']) finished.inc({ outcome }, 0);
    const requestLog = () => this.requestLog;
    let droppedSeen = 0;
    new Counter({
      name: 'partner_request_log_dropped_total',
      help: "Partner calls this instance did not put in the developer console's request log because its queue was full",
      registers,
      collect() {
        const now = requestLog()?.droppedCalls() ?? 0;
        if (now > droppedSeen) this.inc(now - droppedSeen);
        droppedSeen = now;
      },
    });
    const capacity = () => this.capacity;
    new Gauge({
      name: 'partner_capacity_in_use',
      help: "This instance's per-instance shares in use (CONTRACT §20): requests holding a per-token place, attachment reads in the download share, upload bytes held",
      labelNames: ['share'],
      registers,
      collect() {
        const c = capacity();
        if (!c) return;
        this.set({ share: 'requests_in_flight' }, c.requestsInFlight());
        this.set({ share: 'download_reads' }, c.downloadReads());
        this.set({ share: 'upload_bytes' }, c.uploadBytes());
      },
    });
    new Gauge({
      name: 'partner_webhook_queue_age_seconds',
      help: 'Age of the oldest event not yet delivered or given up (outbox or pending delivery); 0 when none',
      registers,
      async collect() {
        const rows = await query(WebhooksSql.queueAge);
        if (!rows) return;
        this.set(Math.max(0, Number(rows[0].age ?? 0)));
      },
    });
  }

  /** The request log whose dropped calls partner_request_log_dropped_total counts (the partner app's). */
  countRequestLogDropsOf(source: DroppedCallsSource): void {
    this.requestLog = source;
  }

  /** The shares partner_capacity_in_use reports (the partner app's). */
  countCapacityOf(source: CapacitySource): void {
    this.capacity = source;
  }

  /** The dispatcher whose finished deliveries partner_webhook_deliveries_finished_total counts (the partner app's). */
  countWebhookDeliveriesOf(dispatcher: FinishedDeliveriesSource): void {
    this.webhookDispatcher = dispatcher;
  }

  /**
   * Counts every answered request of one listener: the completion hook (shared/logging http-logger.ts), run
   * from the one `finish` listener of the request with its duration. Requests, durations and replays are
   * counted in RequestSeries and reach prom-client when scraped; conflicts and rate-limit refusals, rare, directly.
   */
  completion(listener: Listener) {
    const series = new RequestSeries(listener, this.requests, this.duration, this.replays, DURATION_BUCKETS);
    this.series.push(series);
    return (req: RoutedRequest, res: ServerResponse & { locals?: ObservedLocals }, durationMs: number): void => {
      const route = req.route;
      // a route object is the same for every request it matched: the label is made once per route (and base)
      const key: object | string = route && typeof route.path === 'string' && !req.baseUrl ? route : routeLabel(req);
      const locals = res.locals ?? {};
      const method = req.method ?? '';
      const s = series.find(key, method, res.statusCode) ?? series.add(key, routeLabel(req), method, res.statusCode);
      series.count(s, durationMs / 1000, locals.replayed === true);
      const code = locals.problemCode;
      if (code === undefined && res.statusCode !== 429) return;
      if (code && IDEMPOTENCY_CONFLICTS.has(code)) this.conflicts.inc({ route: routeLabel(req), code });
      if (code === 'rate_limited' || res.statusCode === 429) this.rateLimited.inc({ listener, route: routeLabel(req) });
    };
  }

  /** What was counted per request since the last scrape, into prom-client (the counters' and histogram's `collect`). */
  private flushSeries(): void {
    for (const s of this.series) s.flush();
  }

  /** The Prometheus text exposition (format 0.0.4). */
  async scrape(): Promise<{ contentType: string; body: string }> {
    const registry = this.options.processMetrics ? Registry.merge([processMetrics(), this.registry]) : this.registry;
    return { contentType: registry.contentType, body: await registry.metrics() };
  }

  handler() {
    return (_req: Request, res: Response): void => {
      this.scrape().then(
        ({ contentType, body }) => {
          res.setHeader('Cache-Control', 'no-store');
          res.type(contentType).send(body);
        },
        () => res.status(500).type('text/plain').send('metrics collection failed\n'),
      );
    };
  }

  private pool(): PoolLike {
    return this.pgPool?.driver ?? {};
  }

  /** A scrape must not fail because the database is down: the gauge keeps its last value. */
  private async query(sql: string): Promise<Array<Record<string, unknown>> | null> {
    if (!this.dataSource.isInitialized) return null;
    try {
      return await this.dataSource.query<Array<Record<string, unknown>>>(sql);
    } catch {
      return null;
    }
  }
}
