/**
 * Prometheus metrics (`GET /metrics`, prom-client), one registry per
 * application. The request path only bumps counters and histograms; every
 * gauge (lags, backlogs, queue depths) is computed when /metrics is scraped.
 * docs/operations.md lists every metric with its labels.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** HTTP durations in seconds: 1 ms to 10 s. */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** appends (and events) per group commit */
const BATCH_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];

export type GaugeSample = [labels: Record<string, string>, value: number];

export class Metrics {
  readonly registry = new Registry();
  private readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  /** label sets are few (method × route pattern × status): bounded by the routes the app has */
  private readonly httpChildren = new Map<string, { observe(value: number): void }>();
  private readonly appends: Counter;
  private readonly eventsAppended: Counter;
  private readonly commitAppends: Histogram;

  constructor(options: { defaultMetrics?: boolean } = {}) {
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern and status, in seconds',
      labelNames: ['method', 'route', 'status'],
      buckets: HTTP_BUCKETS,
      registers: [this.registry],
    });
    this.appends = new Counter({ name: 'svc_event_store_appends_total', help: 'appends acknowledged by the event store', registers: [this.registry] });
    this.eventsAppended = new Counter({ name: 'svc_event_store_events_appended_total', help: 'events written by acknowledged appends', registers: [this.registry] });
    this.commitAppends = new Histogram({
      name: 'svc_event_store_commit_appends',
      help: 'appends per event-store commit (group commit batch size; 1 per append on stores without group commit)',
      buckets: BATCH_BUCKETS,
      registers: [this.registry],
    });
  }

  observeHttp(method: string, route: string, status: number, seconds: number): void {
    // one bound child per label set: prom-client hashes a label object on every plain observe
    const key = `${method} ${status} ${route}`;
    let child = this.httpChildren.get(key);
    if (!child) {
      child = this.httpDuration.labels(method, route, String(status));
      this.httpChildren.set(key, child);
    }
    child.observe(seconds);
  }

  /** One commit of the event store: how many appends it acknowledged and how many events they wrote. */
  observeCommit(appends: number, events: number): void {
    if (appends === 0) return;
    this.appends.inc(appends);
    this.eventsAppended.inc(events);
    this.commitAppends.observe(appends);
  }

  /** A gauge whose samples are computed at scrape time. */
  gaugeOnScrape(name: string, help: string, labelNames: readonly string[], samples: () => Promise<GaugeSample[]> | GaugeSample[]): void {
    new Gauge({
      name,
      help,
      labelNames: [...labelNames],
      registers: [this.registry],
      async collect() {
        const values = await samples();
        this.reset();
        for (const [labels, value] of values) this.set(labels, value);
      },
    });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
