/**
 * Prometheus metrics (prom-client), one registry per service instance. Features do not import
 * this: they take plain observer callbacks (a request answered, a render done, a webhook attempt
 * recorded), and the composition root points those at `Metrics`. Gauges that describe current
 * state (render queue, workers, webhook backlog) are read from their owners at scrape time.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** What the scrape reads from the render pool. */
export interface PoolGauges {
  workers: number;
  queued: number;
  running: number;
  restarts: number;
}

export interface MetricSources {
  pool(): PoolGauges;
  /** Waiting webhook rows of every workspace, and the creation time of the oldest. */
  webhookBacklog(): Promise<{ pending: number; oldestCreatedAt: string | null }>;
}

export interface RequestObservation {
  method: string;
  /** The route's pattern (`/v1/templates/:id`), never the raw URL: bounded label values. */
  route: string;
  statusCode: number;
  seconds: number;
}

export interface RenderObservation {
  format: string;
  /** `hit`: an identical earlier render answered for free; `miss`: rendered now. */
  cache: 'hit' | 'miss';
  seconds: number;
  creditsCharged: number;
}

export type WebhookAttemptOutcome = 'delivered' | 'retry' | 'failed' | 'lease_lost';

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Histogram<'method' | 'route' | 'status'>;
  private readonly renders: Histogram<'format' | 'cache'>;
  private readonly credits: Counter;
  private readonly webhookAttempts: Counter<'outcome'>;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'platen_' });
    this.requests = new Histogram({
      name: 'platen_http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern and status, with their latency',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.renders = new Histogram({
      name: 'platen_render_duration_seconds',
      help: 'Successful renders by format and cache (hit: an identical render replayed for free)',
      labelNames: ['format', 'cache'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.credits = new Counter({
      name: 'platen_credits_charged_total',
      help: 'Credits charged for successful renders (refunded failures are not counted)',
      registers,
    });
    this.webhookAttempts = new Counter({
      name: 'platen_webhook_attempts_total',
      help: 'Webhook delivery attempts by outcome (delivered, retry, failed: given up, lease_lost)',
      labelNames: ['outcome'],
      registers,
    });
    for (const outcome of ['delivered', 'retry', 'failed', 'lease_lost'] as const)
      this.webhookAttempts.inc({ outcome }, 0);
    this.poolGauges(sources, registers);
    this.webhookGauges(sources, registers);
  }

  observeRequest(request: RequestObservation): void {
    this.requests.observe(
      { method: request.method, route: request.route, status: String(request.statusCode) },
      request.seconds,
    );
  }

  observeRender(render: RenderObservation): void {
    this.renders.observe({ format: render.format, cache: render.cache }, render.seconds);
    if (render.creditsCharged > 0) this.credits.inc(render.creditsCharged);
  }

  observeWebhookAttempt(outcome: WebhookAttemptOutcome): void {
    this.webhookAttempts.inc({ outcome });
  }

  /** The text exposition format, and its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  private poolGauges(sources: MetricSources, registers: Registry[]): void {
    const gauge = (name: string, help: string, read: (pool: PoolGauges) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read(sources.pool()));
        },
      });
    gauge('platen_render_queue_depth', 'Renders waiting for a render process', (p) => p.queued);
    gauge('platen_render_workers', 'Render processes alive', (p) => p.workers);
    gauge('platen_render_workers_busy', 'Render processes rendering now', (p) => p.running);
    gauge('platen_render_worker_utilisation', 'Busy render processes / render processes (0-1)', (p) =>
      p.workers > 0 ? p.running / p.workers : 0,
    );
    let restartsSeen = 0;
    new Counter({
      name: 'platen_render_worker_restarts_total',
      help: 'Render processes replaced since start (crash, timeout, memory, recycling)',
      registers,
      collect() {
        const restarts = sources.pool().restarts;
        if (restarts > restartsSeen) this.inc(restarts - restartsSeen);
        restartsSeen = Math.max(restartsSeen, restarts);
      },
    });
  }

  private webhookGauges(sources: MetricSources, registers: Registry[]): void {
    let latest: Promise<{ pending: number; oldestCreatedAt: string | null }> | null = null;
    // One query per scrape for both gauges: the first collect starts it, the second reuses it.
    const backlog = () => {
      latest ??= sources.webhookBacklog().finally(() => setImmediate(() => (latest = null)));
      return latest;
    };
    new Gauge({
      name: 'platen_webhook_outbox_pending',
      help: 'Webhook messages waiting for delivery (every instance shares the outbox)',
      registers,
      async collect() {
        this.set((await backlog()).pending);
      },
    });
    new Gauge({
      name: 'platen_webhook_outbox_oldest_age_seconds',
      help: 'Age of the oldest waiting webhook message (0 when none waits)',
      registers,
      async collect() {
        const { oldestCreatedAt } = await backlog();
        this.set(oldestCreatedAt ? Math.max(0, (Date.now() - Date.parse(oldestCreatedAt)) / 1000) : 0);
      },
    });
  }
}
