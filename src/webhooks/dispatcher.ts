/**
 * Delivers the outbox, in the background of every instance: claims due rows under a lease,
 * POSTs each through the SSRF guard (every attempt is vetted again) with a deadline, records the
 * attempt (status, latency, error) and moves the row on: delivered, retried later with backoff, or
 * failed after the retry window. Up to `concurrency` rows travel at once, at most `perWebhook` of
 * one webhook, so a slow or dead receiver cannot hold up the others. Nothing here runs in a
 * request. Delivery is at least once: a crash between the POST and its record sends it again.
 */

import { SpanStatusCode } from '@opentelemetry/api';
import type { Logger } from 'pino';
import { inSpan, SpanKind } from '../core/tracing.ts';
import { type FetchPolicy, FetchRefused, guardedFetch } from '../outbound/index.ts';
import type { Store } from '../store/index.ts';
import type { AttemptOutcome, ClaimedMessage } from '../store/webhooks.ts';
import { afterFailure, type BackoffPolicy, DEFAULT_BACKOFF } from './backoff.ts';
import { signedHeaders } from './signing.ts';

export interface DispatcherOptions {
  store: Store;
  logger: Logger;
  /** The delivery policy (webhookPolicy): its timeoutMs bounds each attempt. */
  policy: FetchPolicy;
  /** SQLite: this is the only process, so leases left at start are a crashed process's. */
  singleInstance: boolean;
  /** Rows delivered at once (default 8). */
  concurrency?: number;
  /** Rows of one webhook delivered at once (default 2). */
  perWebhook?: number;
  /** How often to look for due rows when nothing wakes the dispatcher (default 1 s). */
  pollMs?: number;
  /**
   * How long a claimed row stays ours (PLATEN_WEBHOOK_LEASE_MS; default: the attempt deadline plus
   * 30 s). With several instances, a crashed one's rows wait this long before another sends them.
   */
  leaseMs?: number;
  /** How long stop() waits for attempts in flight (default 5 s); their leases expire otherwise. */
  stopGraceMs?: number;
  backoff?: BackoffPolicy;
  random?: () => number;
  /** Told of each attempt's outcome (metrics); `lease_lost`: another instance took the row meanwhile. */
  onAttempt?: (outcome: 'delivered' | 'retry' | 'failed' | 'lease_lost') => void;
}

interface AttemptResult {
  statusCode: number | null;
  ok: boolean;
  error: string | null;
}

export class WebhookDispatcher {
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  private tick: Promise<void> | null = null;
  private again = false;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly busy = new Map<string, number>();
  private readonly concurrency: number;
  private readonly perWebhook: number;
  private readonly pollMs: number;
  private readonly leaseMs: number;

  constructor(private readonly options: DispatcherOptions) {
    this.concurrency = options.concurrency ?? 8;
    this.perWebhook = options.perWebhook ?? 2;
    this.pollMs = options.pollMs ?? 1_000;
    this.leaseMs = options.leaseMs ?? options.policy.timeoutMs + 30_000;
  }

  /** Starts the loop; everything left pending (by a restart or a crash) is picked up. */
  async start(): Promise<void> {
    if (this.running) return;
    if (this.options.singleInstance) {
      const released = await this.options.store.webhooks.releaseLeases();
      if (released) this.options.logger.info({ released }, 'webhook deliveries interrupted by a stop resume');
    }
    this.running = true;
    this.wake();
  }

  /** Stops claiming; waits for attempts in flight, at most `graceMs` (default: stopGraceMs). */
  async stop(graceMs = this.options.stopGraceMs ?? 5_000): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.tick;
    const grace = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([Promise.allSettled([...this.inFlight]), grace]);
  }

  /** Looks for due rows now (after a change wrote events, or a slot came free). */
  wake(): void {
    if (!this.running) return;
    if (this.tick) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.tick = this.claimLoop().finally(() => {
      this.tick = null;
      if (!this.running) return;
      this.timer = setTimeout(() => this.wake(), this.pollMs);
      this.timer.unref();
    });
  }

  /** How many attempts are travelling now. */
  get active(): number {
    return this.inFlight.size;
  }

  private async claimLoop(): Promise<void> {
    try {
      do {
        this.again = false;
        const free = this.concurrency - this.inFlight.size;
        if (free <= 0) return;
        const claimed = await this.options.store.webhooks.claimDue({
          now: new Date(),
          limit: free,
          leaseMs: this.leaseMs,
          perWebhook: this.perWebhook,
          busy: this.busy,
        });
        for (const message of claimed) this.launch(message);
      } while (this.again && this.running);
    } catch (err) {
      if (this.running) this.options.logger.warn({ err }, 'could not claim webhook deliveries');
    }
  }

  private launch(message: ClaimedMessage): void {
    this.busy.set(message.webhookId, (this.busy.get(message.webhookId) ?? 0) + 1);
    const attempt = this.deliver(message)
      .catch((err: unknown) => {
        if (this.running)
          this.options.logger.warn({ err, messageId: message.messageId }, 'webhook attempt failed');
      })
      .finally(() => {
        this.inFlight.delete(attempt);
        const left = (this.busy.get(message.webhookId) ?? 1) - 1;
        if (left > 0) this.busy.set(message.webhookId, left);
        else this.busy.delete(message.webhookId);
        this.wake();
      });
    this.inFlight.add(attempt);
  }

  private async deliver(message: ClaimedMessage): Promise<void> {
    const attempt = message.attempts + 1;
    const started = performance.now();
    const attributes = {
      'platen.webhook.id': message.webhookId,
      'platen.webhook.message_id': message.messageId,
      'platen.webhook.attempt': attempt,
    };
    const result = await inSpan(
      'webhook.deliver',
      attributes,
      async (span) => {
        const answer = await this.post(message);
        if (answer.statusCode !== null) span.setAttribute('http.response.status_code', answer.statusCode);
        if (!answer.ok) span.setStatus({ code: SpanStatusCode.ERROR, message: answer.error ?? 'failed' });
        return answer;
      },
      SpanKind.CLIENT,
    );
    const latencyMs = performance.now() - started;
    let outcome: AttemptOutcome = { kind: 'delivered' };
    if (!result.ok) {
      const next = afterFailure(
        attempt,
        new Date(message.createdAt),
        new Date(),
        this.options.random,
        this.options.backoff ?? DEFAULT_BACKOFF,
      );
      outcome = next.kind === 'retry' ? { kind: 'retry', at: next.at.toISOString() } : next;
    }
    const kept = await this.options.store.webhooks.recordAttempt({
      message,
      attempt,
      latencyMs,
      outcome,
      ...result,
    });
    this.options.onAttempt?.(kept ? outcome.kind : 'lease_lost');
    const log = { messageId: message.messageId, webhookId: message.webhookId, attempt, ...result };
    if (!kept) this.options.logger.warn(log, 'webhook lease lost before the attempt was recorded');
    else if (outcome.kind === 'failed') this.options.logger.warn(log, 'webhook delivery given up');
    else if (!result.ok) this.options.logger.info(log, 'webhook attempt failed; will retry');
    else this.options.logger.debug(log, 'webhook delivered');
  }

  private async post(message: ClaimedMessage): Promise<AttemptResult> {
    const timestamp = Math.floor(Date.now() / 1000);
    try {
      const response = await guardedFetch(message.url, this.options.policy, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Platen-Webhooks/1',
          ...signedHeaders(message.secret, message.messageId, timestamp, message.payload),
        },
        body: message.payload,
      });
      const ok = response.status >= 200 && response.status <= 299;
      return { statusCode: response.status, ok, error: ok ? null : `HTTP ${response.status}` };
    } catch (error) {
      if (!(error instanceof FetchRefused)) throw error;
      const text =
        error.reason === 'too-many-redirects'
          ? 'redirect: the receiver answered with a redirect, which webhooks do not follow'
          : `${error.reason}: ${error.message}`;
      return { statusCode: null, ok: false, error: text };
    }
  }
}
