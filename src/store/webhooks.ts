/**
 * Webhooks: subscriptions (soft-deleted, secret kept for signing), the durable outbox of events and
 * the log of delivery attempts. `writeEvent` runs inside the caller's transaction, so an event
 * commits or rolls back with the change it reports. Rows are claimed for delivery under a lease
 * (`locked_until`): on PostgreSQL with `FOR UPDATE SKIP LOCKED`, on SQLite (one process per data
 * dir) with a conditional update; an attempt is recorded only by the holder of the current lease.
 */
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import { newId, randomBase62 } from '../core/ids.ts';
import type { DialectName } from './db.ts';
import type { Database, WebhookDeliveriesTable, WebhooksTable } from './schema.ts';

export interface WebhookRecord {
  id: string;
  workspaceId: string;
  url: string;
  events: string[];
  createdAt: string;
  updatedAt: string;
}

export interface WebhookWithSecret extends WebhookRecord {
  secret: string;
}

/** One outbox row leased to this process, with what delivering it needs. */
export interface ClaimedMessage {
  seq: number;
  messageId: string;
  webhookId: string;
  eventType: string;
  /** The exact body to send. */
  payload: string;
  /**
   * Attempts started before this one. Counted at the claim, so an attempt cut short by a crash
   * still counts: the next one is logged as attempt 2, showing that one went unrecorded.
   */
  attempts: number;
  createdAt: string;
  url: string;
  secret: string;
  /** The lease value; recording the attempt requires it to be unchanged. */
  lease: string;
}

export interface DeliveryRecord {
  id: string;
  messageId: string;
  eventType: string;
  attempt: number;
  statusCode: number | null;
  ok: boolean;
  latencyMs: number;
  error: string | null;
  createdAt: string;
}

/** What happens to the outbox row after an attempt. */
export type AttemptOutcome = { kind: 'delivered' } | { kind: 'retry'; at: string } | { kind: 'failed' };

export interface AttemptInput {
  message: ClaimedMessage;
  attempt: number;
  statusCode: number | null;
  ok: boolean;
  latencyMs: number;
  error: string | null;
  outcome: AttemptOutcome;
}

export interface ClaimRequest {
  now: Date;
  /** Rows to claim at most. */
  limit: number;
  leaseMs: number;
  /** At most this many rows of one webhook in flight in this process. */
  perWebhook: number;
  /** Rows of each webhook this process is delivering right now. */
  busy: ReadonlyMap<string, number>;
}

export type OutboxStatus = 'pending' | 'delivered' | 'failed' | 'cancelled';

function toRecord(row: WebhooksTable): WebhookRecord {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const withSecret = (row: WebhooksTable): WebhookWithSecret => ({ ...toRecord(row), secret: row.secret });

function toDelivery(row: Selectable<WebhookDeliveriesTable>): DeliveryRecord {
  return {
    id: row.id,
    messageId: row.message_id,
    eventType: row.event_type,
    attempt: Number(row.attempt),
    statusCode: row.status_code === null ? null : Number(row.status_code),
    ok: Boolean(row.ok),
    latencyMs: Number(row.latency_ms),
    error: row.error,
    createdAt: row.created_at,
  };
}

export class WebhookRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  async create(input: {
    workspaceId: string;
    url: string;
    events: string[];
    secret: string;
  }): Promise<WebhookWithSecret> {
    const now = new Date().toISOString();
    const row: WebhooksTable = {
      id: newId('webhook'),
      workspace_id: input.workspaceId,
      url: input.url,
      events: JSON.stringify(input.events),
      secret: input.secret,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    };
    await this.db.insertInto('webhooks').values(row).execute();
    return withSecret(row);
  }

  /** A live (not deleted) webhook of any workspace. */
  async get(id: string): Promise<WebhookWithSecret | null> {
    const row = await this.db
      .selectFrom('webhooks')
      .selectAll()
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row ? withSecret(row) : null;
  }

  async listByWorkspace(workspaceId: string): Promise<WebhookRecord[]> {
    const rows = await this.db
      .selectFrom('webhooks')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('deleted_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(toRecord);
  }

  async update(id: string, patch: { url?: string; events?: string[] }): Promise<WebhookWithSecret | null> {
    const set: Partial<WebhooksTable> = { updated_at: new Date().toISOString() };
    if (patch.url !== undefined) set.url = patch.url;
    if (patch.events !== undefined) set.events = JSON.stringify(patch.events);
    await this.db
      .updateTable('webhooks')
      .set(set)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .execute();
    return this.get(id);
  }

  async rotateSecret(id: string, secret: string): Promise<WebhookWithSecret | null> {
    await this.db
      .updateTable('webhooks')
      .set({ secret, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .execute();
    return this.get(id);
  }

  /** Marks the webhook deleted and cancels what it still had to deliver; false when not live. */
  async softDelete(id: string): Promise<boolean> {
    const now = new Date().toISOString();
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('webhooks')
        .set({ deleted_at: now, updated_at: now })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await trx
        .updateTable('webhook_outbox')
        .set({ status: 'cancelled', finished_at: now, locked_until: null })
        .where('webhook_id', '=', id)
        .where('status', '=', 'pending')
        .execute();
      return true;
    });
  }

  /**
   * Inside the caller's transaction: one outbox row per live webhook of the workspace that lists
   * `type`, each due now with the same body. Returns how many rows it wrote.
   */
  async writeEvent(
    trx: Transaction<Database>,
    event: { workspaceId: string; type: string; payload: string },
  ): Promise<number> {
    const hooks = await trx
      .selectFrom('webhooks')
      .select(['id', 'events'])
      .where('workspace_id', '=', event.workspaceId)
      .where('deleted_at', 'is', null)
      .execute();
    const targets = hooks.filter((h) => (JSON.parse(h.events) as string[]).includes(event.type));
    if (targets.length === 0) return 0;
    const now = new Date().toISOString();
    await trx
      .insertInto('webhook_outbox')
      .values(
        targets.map((hook) => ({
          id: `msg_${randomBase62(22)}`,
          webhook_id: hook.id,
          event_type: event.type,
          payload: event.payload,
          status: 'pending',
          attempts: 0,
          next_attempt_at: now,
          locked_until: null,
          created_at: now,
          finished_at: null,
        })),
      )
      .execute();
    return targets.length;
  }

  /**
   * Leases up to `limit` due rows, oldest due first, at most `perWebhook` per webhook counting
   * those already in flight here, so one slow receiver cannot take every slot.
   */
  async claimDue(request: ClaimRequest): Promise<ClaimedMessage[]> {
    if (request.limit <= 0) return [];
    const now = request.now.toISOString();
    const lease = new Date(request.now.getTime() + request.leaseMs).toISOString();
    return this.db.transaction().execute(async (trx) => {
      // Candidates: the first few due rows of each webhook (a window, so no webhook's backlog
      // hides the others'), then trimmed here by what this process already has in flight.
      const candidates = await sql<{ seq: number; webhook_id: string }>`
        select seq, webhook_id from (
          select seq, webhook_id, next_attempt_at,
            row_number() over (partition by webhook_id order by next_attempt_at, seq) as rn
          from webhook_outbox
          where status = 'pending' and next_attempt_at <= ${now}
            and (locked_until is null or locked_until <= ${now})
        ) due
        where rn <= ${request.perWebhook}
        order by next_attempt_at, seq
        limit ${request.limit * 4}
      `.execute(trx);
      const taken = new Map(request.busy);
      const chosen: number[] = [];
      for (const { seq, webhook_id } of candidates.rows) {
        const count = taken.get(webhook_id) ?? 0;
        if (count >= request.perWebhook) continue;
        taken.set(webhook_id, count + 1);
        chosen.push(Number(seq));
        if (chosen.length >= request.limit) break;
      }
      if (chosen.length === 0) return [];
      const seqs = await this.lease(trx, chosen, now, lease);
      if (seqs.length === 0) return [];
      const rows = await trx
        .selectFrom('webhook_outbox as o')
        .innerJoin('webhooks as w', 'w.id', 'o.webhook_id')
        .select([
          'o.seq',
          'o.id',
          'o.webhook_id',
          'o.event_type',
          'o.payload',
          'o.attempts',
          'o.created_at',
          'w.url',
          'w.secret',
        ])
        .where('o.seq', 'in', seqs)
        .orderBy('o.seq')
        .execute();
      return rows.map((r) => ({
        seq: Number(r.seq),
        messageId: r.id,
        webhookId: r.webhook_id,
        eventType: r.event_type,
        payload: r.payload,
        // The claim has already counted this attempt.
        attempts: Number(r.attempts) - 1,
        createdAt: r.created_at,
        url: r.url,
        secret: r.secret,
        lease,
      }));
    });
  }

  /** Sets the lease on those of `seqs` still free and counts the attempt; returns the ones it got. */
  private async lease(trx: Transaction<Database>, seqs: number[], now: string, lease: string) {
    if (this.dialect === 'postgres') {
      // Rows another instance is claiming right now are skipped, not waited for.
      const locked = await trx
        .selectFrom('webhook_outbox')
        .select('seq')
        .where('seq', 'in', seqs)
        .where('status', '=', 'pending')
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
        .forUpdate()
        .skipLocked()
        .execute();
      const got = locked.map((r) => Number(r.seq));
      if (got.length > 0) {
        await trx
          .updateTable('webhook_outbox')
          .set({ locked_until: lease, attempts: sql<number>`attempts + 1` })
          .where('seq', 'in', got)
          .execute();
      }
      return got;
    }
    const updated = await trx
      .updateTable('webhook_outbox')
      .set({ locked_until: lease, attempts: sql<number>`attempts + 1` })
      .where('seq', 'in', seqs)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
      .returning('seq')
      .execute();
    return updated.map((r) => Number(r.seq));
  }

  /**
   * Logs the attempt and moves the outbox row on, in one transaction. The row changes only while
   * this process still holds its lease; returns whether it did.
   */
  async recordAttempt(input: AttemptInput): Promise<boolean> {
    const now = new Date().toISOString();
    const { message, outcome } = input;
    return this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('webhook_deliveries')
        .values({
          id: `dlv_${randomBase62(22)}`,
          webhook_id: message.webhookId,
          message_id: message.messageId,
          event_type: message.eventType,
          attempt: input.attempt,
          status_code: input.statusCode,
          ok: input.ok ? 1 : 0,
          latency_ms: Math.max(0, Math.round(input.latencyMs)),
          error: input.error === null ? null : input.error.slice(0, 500),
          created_at: now,
        })
        .execute();
      const next =
        outcome.kind === 'retry'
          ? { next_attempt_at: outcome.at, attempts: input.attempt }
          : { status: outcome.kind, finished_at: now, attempts: input.attempt };
      const result = await trx
        .updateTable('webhook_outbox')
        .set({ ...next, locked_until: null })
        .where('seq', '=', message.seq)
        .where('status', '=', 'pending')
        .where('locked_until', '=', message.lease)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    });
  }

  /**
   * Frees every lease. Only for SQLite at start: the data-dir lock makes this the one process, so
   * any lease left is a crashed process's.
   */
  async releaseLeases(): Promise<number> {
    const result = await this.db
      .updateTable('webhook_outbox')
      .set({ locked_until: null })
      .where('status', '=', 'pending')
      .where('locked_until', 'is not', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /**
   * Queues a message of the webhook again, due now, as the same message (same `webhook-id`, so a
   * receiver that already has it can tell). 'busy' while it is still pending or in flight.
   */
  async redeliver(webhookId: string, messageId: string): Promise<'queued' | 'busy' | 'missing'> {
    const row = await this.db
      .selectFrom('webhook_outbox')
      .select('status')
      .where('id', '=', messageId)
      .where('webhook_id', '=', webhookId)
      .executeTakeFirst();
    if (!row) return 'missing';
    const result = await this.db
      .updateTable('webhook_outbox')
      .set({
        status: 'pending',
        next_attempt_at: new Date().toISOString(),
        locked_until: null,
        finished_at: null,
      })
      .where('id', '=', messageId)
      .where('webhook_id', '=', webhookId)
      .where('status', '!=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0 ? 'queued' : 'busy';
  }

  /** The attempts log of a webhook, newest first. */
  async deliveries(webhookId: string, limit: number): Promise<DeliveryRecord[]> {
    const rows = await this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('webhook_id', '=', webhookId)
      .orderBy('seq', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toDelivery);
  }

  /** Outbox rows of a webhook by status (operators and tests look at the backlog). */
  async outboxCounts(webhookId: string): Promise<Record<OutboxStatus, number>> {
    const rows = await this.db
      .selectFrom('webhook_outbox')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('webhook_id', '=', webhookId)
      .groupBy('status')
      .execute();
    const counts: Record<OutboxStatus, number> = { pending: 0, delivered: 0, failed: 0, cancelled: 0 };
    for (const row of rows) counts[row.status as OutboxStatus] = Number(row.n);
    return counts;
  }

  /** Every webhook's waiting rows together: how many, and when the oldest was written (metrics). */
  async backlog(): Promise<{ pending: number; oldestCreatedAt: string | null }> {
    const row = await this.db
      .selectFrom('webhook_outbox')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('oldest')])
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return {
      pending: Number(row?.n ?? 0),
      oldestCreatedAt: (row?.oldest as string | null | undefined) ?? null,
    };
  }
}
