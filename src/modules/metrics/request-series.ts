import type { Counter, Histogram } from 'prom-client';

type RequestLabels = { listener: string; method: string; route: string; status: string };

/** prom-client's own per-series entry of a histogram (what `observe` adds to): one per label set. */
interface HistogramEntry {
  labels: object;
  bucketValues: Record<number, number>;
  sum: number;
  count: number;
}

/** One series: a listener, method, route template and status. */
export interface Series {
  readonly method: string;
  readonly status: number;
  readonly labels: RequestLabels;
  readonly route: string;
  readonly entry: HistogramEntry;
  /** not yet handed to prom-client: */
  count: number;
  sum: number;
  readonly buckets: Float64Array;
  replays: number;
}

/**
 * The request counter, the duration histogram and the replay counter of one listener, counted per request
 * without prom-client's per-call work (a labels object, its validation and a hash string built twice per
 * request) and handed to prom-client when it is scraped (its `collect`). The
 * series of a request is found by its route (the Express route object, not a string) and then its method
 * and status in a short array. prom-client stays the definition of what is exposed: its histogram's own
 * entry for the series (made by its `zero`) receives the counts, so names, labels, buckets and format are
 * its own (the unit test compares the exposition with prom-client fed call by call).
 */
export class RequestSeries {
  private readonly byRoute = new Map<object | string, Series[]>();
  private readonly all: Series[] = [];
  private readonly bounds: number[];

  constructor(
    private readonly listener: string,
    private readonly requests: Counter<'listener' | 'method' | 'route' | 'status'>,
    private readonly duration: Histogram<'listener' | 'method' | 'route' | 'status'>,
    private readonly replays: Counter<'route'>,
    bounds: readonly number[],
  ) {
    this.bounds = [...bounds];
  }

  /** The series of a route (its Express route object, or the label itself), method and status, once counted. */
  find(routeKey: object | string, method: string, status: number): Series | undefined {
    const list = this.byRoute.get(routeKey);
    if (!list) return undefined;
    for (let i = 0; i < list.length; i++) {
      if (list[i].status === status && list[i].method === method) return list[i];
    }
    return undefined;
  }

  /** A new series (the first request of its route, method and status). */
  add(routeKey: object | string, route: string, method: string, status: number): Series {
    let list = this.byRoute.get(routeKey);
    if (!list) this.byRoute.set(routeKey, (list = []));
    // two keys may name one label (a route object and its label string): they share prom-client's entry
    const labels: RequestLabels = { listener: this.listener, method, route, status: String(status) };
    const existing = this.all.find((x) => x.route === route && x.method === method && x.status === status);
    const entry = existing?.entry ?? this.entryOf(labels);
    const s: Series = { method, status, labels, route, entry, count: 0, sum: 0, buckets: new Float64Array(this.bounds.length), replays: 0 };
    list.push(s);
    this.all.push(s);
    return s;
  }

  /** Counts one answered request of the series. */
  count(s: Series, seconds: number, replayed: boolean): void {
    s.count++;
    s.sum += seconds;
    const bounds = this.bounds;
    let b = 0;
    while (b < bounds.length && seconds > bounds[b]) b++;
    if (b < bounds.length) s.buckets[b]++;
    if (replayed) s.replays++;
  }

  /** Hands what was counted since the last call to prom-client (run by its `collect` when scraped). */
  flush(): void {
    for (const s of this.all) {
      if (s.count === 0) continue;
      this.requests.inc(s.labels, s.count);
      const e = s.entry;
      e.count += s.count;
      e.sum += s.sum;
      for (let b = 0; b < this.bounds.length; b++) {
        e.bucketValues[this.bounds[b]] += s.buckets[b];
        s.buckets[b] = 0;
      }
      if (s.replays > 0) this.replays.inc({ route: s.route }, s.replays);
      s.count = 0;
      s.sum = 0;
      s.replays = 0;
    }
  }

  /** prom-client's entry for these labels, made empty by its own `zero`. */
  private entryOf(labels: RequestLabels): HistogramEntry {
    this.duration.zero(labels);
    const map = (this.duration as unknown as { hashMap: Record<string, HistogramEntry> }).hashMap;
    const entry = Object.values(map).find((e) => e.labels === labels);
    if (!entry || typeof entry.bucketValues !== 'object' || typeof entry.sum !== 'number') {
      throw new Error('prom-client histogram entry not found: its internals changed (request-series.ts)');
    }
    return entry;
  }
}
