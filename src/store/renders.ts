/**
 * Renders and their credits. `begin` claims a render identity, takes the credits and records the
 * render as pending in ONE transaction; `complete` records the files; `fail` refunds by a ledger
 * entry. So the ledger always explains the balance, and concurrent identical requests (in one
 * process or several sharing PostgreSQL) render and charge once. `complete` and `fail` of renders
 * finishing together share one synced commit (group-commit.ts).
 */
import type { Kysely, Selectable, Transaction } from 'kysely';
import { newId } from '../core/ids.ts';
import { type DialectName, transactionWithoutSync } from './db.ts';
import { GroupCommit } from './group-commit.ts';
import { prepareQuery } from './prepared.ts';
import type { Database, RendersTable } from './schema.ts';
import { changeCredits } from './workspaces.ts';

export type RenderStatus = 'pending' | 'done' | 'failed';

export interface RenderRecord {
  id: string;
  workspaceId: string;
  templateId: string;
  status: RenderStatus;
  format: string;
  fileCount: number;
  charged: number;
  /** The response as first returned (without the credits of any later call). */
  result: unknown;
  error: unknown;
  expired: boolean;
  createdAt: string;
  instanceId: string | null;
}

export type BeginOutcome =
  | { kind: 'claimed'; renderId: string; balanceAfter: number; createdAt: string }
  | { kind: 'existing'; job: RenderRecord }
  | { kind: 'unfunded' };

export interface BeginInput {
  workspaceId: string;
  templateId: string;
  identityHash: string;
  format: string;
  fileCount: number;
  actor: string;
  instanceId: string;
  /** A background render's job (JSON): accepted with its charge, run later from the queue. */
  job?: string;
}

/** Work done inside a render's completing transaction (it commits or rolls back with it). */
export type WithinTransaction = (trx: Transaction<Database>) => Promise<void>;

export interface OutputRow {
  id: string;
  position: number;
  fileKey: string;
  result: unknown;
}

/** A render that was refunded (as interrupted) before it could be recorded as done. */
export class RenderNoLongerPending extends Error {
  constructor(readonly renderId: string) {
    super(`Render ${renderId} is no longer pending`);
    this.name = 'RenderNoLongerPending';
  }
}

/** Thrown inside the transaction when another request claimed the identity first. */
class ClaimLost extends Error {}

/** Thrown inside the transaction to roll the attempt back (claim included) when the balance cannot pay. */
class Unfunded extends Error {}

/**
 * The columns a record is made of: not a background render's job (its whole modified document),
 * which a replay has no use for (render-queue.ts reads it).
 */
const RECORD_COLUMNS = [
  'id',
  'workspace_id',
  'template_id',
  'status',
  'format',
  'file_count',
  'charged',
  'result',
  'error',
  'expired',
  'created_at',
  'instance_id',
] as const satisfies readonly (keyof RendersTable)[];

const QUALIFIED_RECORD_COLUMNS = RECORD_COLUMNS.map((column) => `renders.${column}` as const);

function toRecord(row: Pick<Selectable<RendersTable>, (typeof RECORD_COLUMNS)[number]>): RenderRecord {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    templateId: row.template_id,
    status: row.status as RenderStatus,
    format: row.format,
    fileCount: Number(row.file_count),
    charged: Number(row.charged),
    result: row.result ? JSON.parse(row.result) : null,
    error: row.error ? JSON.parse(row.error) : null,
    expired: Boolean(row.expired),
    createdAt: row.created_at,
    instanceId: row.instance_id,
  };
}

export class RenderRepository {
  /**
   * Settlements and refunds: synced commits that renders finishing together share (one disk sync
   * for all of them, each answered only once it is on disk; see group-commit.ts).
   */
  private readonly settlements: GroupCommit;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {
    this.settlements = new GroupCommit(db);
  }

  async begin(input: BeginInput): Promise<BeginOutcome> {
    for (let attempt = 0; attempt < 20; attempt++) {
      try {
        // A render answered when it finishes: its claim is not waited for on disk, the commit
        // recording its result is (see db.ts). A background render is answered (202) on its claim
        // alone, so that claim is.
        const work = (trx: Transaction<Database>) => this.beginOnce(trx, input);
        return await (input.job === undefined
          ? transactionWithoutSync(this.db, this.dialect, work)
          : this.db.transaction().execute(work));
      } catch (error) {
        if (error instanceof Unfunded) return { kind: 'unfunded' };
        if (!(error instanceof ClaimLost)) throw error;
      }
    }
    throw new Error('Could not claim the render identity');
  }

  private async beginOnce(trx: Transaction<Database>, input: BeginInput): Promise<BeginOutcome> {
    const claim = await trx
      .selectFrom('render_claims')
      .select('render_id')
      .where('workspace_id', '=', input.workspaceId)
      .where('identity_hash', '=', input.identityHash)
      .executeTakeFirst();
    const previous = claim ? await this.getJob(claim.render_id, trx) : null;
    if (previous && !previous.expired && previous.status !== 'failed')
      return { kind: 'existing', job: previous };

    const renderId = newId('render');
    const createdAt = new Date().toISOString();
    // The claim comes first: a concurrent twin blocks on it (PostgreSQL) or is serialised (SQLite).
    if (claim) {
      const moved = await trx
        .updateTable('render_claims')
        .set({ render_id: renderId })
        .where('workspace_id', '=', input.workspaceId)
        .where('identity_hash', '=', input.identityHash)
        .where('render_id', '=', claim.render_id)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0) throw new ClaimLost();
    } else {
      const inserted = await trx
        .insertInto('render_claims')
        .values({ workspace_id: input.workspaceId, identity_hash: input.identityHash, render_id: renderId })
        .onConflict((oc) => oc.columns(['workspace_id', 'identity_hash']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) throw new ClaimLost();
    }
    await trx
      .insertInto('renders')
      .values({
        id: renderId,
        workspace_id: input.workspaceId,
        template_id: input.templateId,
        identity_hash: input.identityHash,
        status: 'pending',
        format: input.format,
        file_count: input.fileCount,
        result: null,
        error: null,
        file_keys: '[]',
        charged: input.fileCount,
        actor: input.actor,
        created_at: createdAt,
        finished_at: null,
        expired: 0,
        instance_id: input.instanceId,
        mode: input.job ? 'async' : 'sync',
        job: input.job ?? null,
      })
      .execute();
    const balanceAfter = await changeCredits(trx, {
      workspaceId: input.workspaceId,
      delta: -input.fileCount,
      reason: 'render',
      actor: input.actor,
      renderId,
    });
    if (balanceAfter === null) throw new Unfunded();
    return { kind: 'claimed', renderId, balanceAfter, createdAt };
  }

  /**
   * The finished, unexpired render of this identity with the workspace's balance now, if any: the
   * replay fast path, one query and no transaction.
   */
  // Every replay's lookup: built once (see prepared.ts).
  private readonly doneByIdentity = prepareQuery(
    () => this.db,
    ['workspaceId', 'identityHash'],
    (param) =>
      this.db
        .selectFrom('render_claims')
        .innerJoin('renders', 'renders.id', 'render_claims.render_id')
        .innerJoin('workspaces', 'workspaces.id', 'render_claims.workspace_id')
        .select(QUALIFIED_RECORD_COLUMNS)
        .select('workspaces.credit_balance')
        .where('render_claims.workspace_id', '=', param('workspaceId'))
        .where('render_claims.identity_hash', '=', param('identityHash'))
        .where('renders.status', '=', 'done')
        .where('renders.expired', '=', 0),
  );

  async findDone(
    workspaceId: string,
    identityHash: string,
  ): Promise<{ job: RenderRecord; balance: number } | null> {
    const [row] = await this.doneByIdentity({ workspaceId, identityHash });
    if (!row) return null;
    const { credit_balance, ...renderRow } = row;
    return { job: toRecord(renderRow), balance: Number(credit_balance) };
  }

  async getJob(
    id: string,
    db: Kysely<Database> | Transaction<Database> = this.db,
  ): Promise<RenderRecord | null> {
    const row = await db.selectFrom('renders').select(RECORD_COLUMNS).where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async complete(
    renderId: string,
    result: unknown,
    outputs: OutputRow[],
    workspaceId: string,
    within?: WithinTransaction,
  ): Promise<void> {
    const now = new Date().toISOString();
    await this.settlements.run(async (trx) => {
      for (const output of outputs) {
        await trx
          .insertInto('render_outputs')
          .values({
            id: output.id,
            render_id: renderId,
            workspace_id: workspaceId,
            position: output.position,
            file_key: output.fileKey,
            result: JSON.stringify(output.result),
            created_at: now,
          })
          .execute();
      }
      const updated = await trx
        .updateTable('renders')
        .set({
          status: 'done',
          result: JSON.stringify(result),
          file_keys: JSON.stringify(outputs.map((o) => o.fileKey)),
          finished_at: now,
        })
        .where('id', '=', renderId)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      // Refunded meanwhile (taken for an orphan): recording it as done would be a free render.
      if (Number(updated.numUpdatedRows) === 0) throw new RenderNoLongerPending(renderId);
      await within?.(trx);
    });
  }

  /** Marks a pending render failed and refunds its credits; a no-op when it is no longer pending. */
  async fail(
    renderId: string,
    error: unknown,
    reason = 'refund: render failed',
    within?: WithinTransaction,
  ): Promise<boolean> {
    return this.settlements.run(async (trx) => {
      const job = await this.getJob(renderId, trx);
      if (job?.status !== 'pending') return false;
      const updated = await trx
        .updateTable('renders')
        .set({ status: 'failed', error: JSON.stringify(error), finished_at: new Date().toISOString() })
        .where('id', '=', renderId)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return false;
      await changeCredits(trx, {
        workspaceId: job.workspaceId,
        delta: job.charged,
        reason,
        actor: 'system',
        renderId,
      });
      await within?.(trx);
      return true;
    });
  }

  async getOutput(
    id: string,
  ): Promise<{ renderId: string; workspaceId: string; result: unknown; expired: boolean } | null> {
    const row = await this.db
      .selectFrom('render_outputs')
      .innerJoin('renders', 'renders.id', 'render_outputs.render_id')
      .select([
        'render_outputs.render_id',
        'render_outputs.workspace_id',
        'render_outputs.result',
        'renders.expired',
      ])
      .where('render_outputs.id', '=', id)
      .executeTakeFirst();
    if (!row) return null;
    return {
      renderId: row.render_id,
      workspaceId: row.workspace_id,
      result: JSON.parse(row.result),
      expired: Boolean(row.expired),
    };
  }

  /** Pending renders whose instance is gone (no heartbeat since `staleBefore`), or any when `all`. */
  async orphans(staleBefore: string, liveInstanceId: string): Promise<RenderRecord[]> {
    const rows = await this.db
      .selectFrom('renders')
      .leftJoin('platen_instances', 'platen_instances.id', 'renders.instance_id')
      .select(QUALIFIED_RECORD_COLUMNS)
      .where('renders.status', '=', 'pending')
      // Background renders are not orphans: the queue runs them again when their lease ends.
      .where('renders.mode', '=', 'sync')
      .where((eb) =>
        eb.and([
          eb.or([eb('renders.instance_id', 'is', null), eb('renders.instance_id', '!=', liveInstanceId)]),
          eb.or([
            eb('platen_instances.heartbeat_at', 'is', null),
            eb('platen_instances.heartbeat_at', '<', staleBefore),
          ]),
        ]),
      )
      .execute();
    return rows.map(toRecord);
  }

  async heartbeat(instanceId: string): Promise<void> {
    const now = new Date().toISOString();
    await this.db
      .insertInto('platen_instances')
      .values({ id: instanceId, heartbeat_at: now })
      .onConflict((oc) => oc.column('id').doUpdateSet({ heartbeat_at: now }))
      .execute();
  }

  async forgetInstance(instanceId: string): Promise<void> {
    await this.db.deleteFrom('platen_instances').where('id', '=', instanceId).execute();
  }

  /** Done renders created before `before` whose files are still kept. */
  async expirable(before: string, limit: number): Promise<{ id: string; fileKeys: string[] }[]> {
    const rows = await this.db
      .selectFrom('renders')
      .select(['id', 'file_keys'])
      .where('status', '=', 'done')
      .where('expired', '=', 0)
      .where('created_at', '<', before)
      .limit(limit)
      .execute();
    return rows.map((r) => ({ id: r.id, fileKeys: JSON.parse(r.file_keys) as string[] }));
  }

  /**
   * Which of `fileKeys` an unexpired render output records (the others belong to no render: written
   * before a crash, or left behind by retention). At most 500 keys per call.
   */
  async referencedFileKeys(fileKeys: readonly string[]): Promise<Set<string>> {
    if (fileKeys.length === 0) return new Set();
    if (fileKeys.length > 500) throw new Error('referencedFileKeys takes at most 500 keys');
    const rows = await this.db
      .selectFrom('render_outputs')
      .innerJoin('renders', 'renders.id', 'render_outputs.render_id')
      .select('render_outputs.file_key')
      .where('render_outputs.file_key', 'in', [...fileKeys])
      .where('renders.expired', '=', 0)
      .execute();
    return new Set(rows.map((r) => r.file_key));
  }

  async markExpired(id: string): Promise<void> {
    await this.db.updateTable('renders').set({ expired: 1 }).where('id', '=', id).execute();
  }
}
