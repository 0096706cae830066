/**
 * Bulk renders: one template, many rows of variables, each row a background render with the render
 * route's rules (a credit per file, identical rows free). The whole batch is priced before anything
 * is accepted: one that cannot be paid in full is refused with 402 and charges nothing. The check
 * and a hold of the price are one atomic step (store `createFunded`), which counts what the
 * workspace's other batches still hold: of two concurrent batches the balance pays only one of,
 * one is refused whole, rather than both accepted with rows failing. A bad row
 * fails that row, not the batch. The batch completes (and fires `batch.completed`) once no row is
 * pending; a cancel refunds the rows it charged that have not rendered yet.
 */
import type { Transaction } from 'kysely';
import { assertSameWorkspace, type Principal } from '../auth/index.ts';
import { AppError, validationFailed } from '../core/errors.ts';
import type { CreditService } from '../credits/service.ts';
import { fromZodIssues, referencedVariables } from '../design/index.ts';
import type { PreflightService } from '../preflight/index.ts';
import {
  atBase,
  type BackgroundRenders,
  type RenderFormat,
  type RenderRequest,
  type RenderResult,
  type RenderService,
  renderRequestSchema,
  selectPages,
} from '../renders/index.ts';
import type { BatchRecord, BatchRowState } from '../store/batches.ts';
import type { Store } from '../store/index.ts';
import type { Database } from '../store/schema.ts';
import type { TemplateService } from '../templates/index.ts';
import { rowsFromCsv } from './csv.ts';

export const MAX_ROWS = 1000;
const ACCEPT_LANES = 4;
/**
 * How long a batch's hold counts at most: its rows are accepted well within it (1000 rows take
 * seconds); it only matters when the instance accepting them died, whose hold then lapses.
 */
const HOLD_MS = 10 * 60 * 1000;

/** A stable lane for an identity: the same identity, the same lane. */
function laneOf(identity: string): number {
  let hash = 0;
  for (let i = 0; i < identity.length; i++) hash = (hash * 31 + identity.charCodeAt(i)) >>> 0;
  return hash % ACCEPT_LANES;
}

export interface BatchInput {
  format: RenderFormat;
  rows: Array<Record<string, string>>;
  scale?: number;
  quality?: number;
  fps?: number;
  dither?: boolean;
  timeMs?: number;
  pageId?: string;
  allPages?: boolean;
  /** A published version for every row (`latest` is resolved once, when the batch is made). */
  version?: number | 'latest';
  /**
   * Preflight every row first (docs/preflight.md) and fail, uncharged, each row with an error
   * finding (`PREFLIGHT_FAILED`, the findings in its details); the others render.
   */
  preflight?: boolean;
}

/** The render options a batch gives every row, as the render route takes them. */
const OPTIONS = ['scale', 'quality', 'fps', 'dither', 'timeMs', 'pageId', 'allPages', 'version'] as const;

export interface BatchView {
  id: string;
  templateId: string;
  format: string;
  status: BatchRecord['status'];
  total: number;
  progress: { done: number; failed: number; pending: number };
  createdAt: string;
  finishedAt: string | null;
  rows: Array<{
    row: number;
    status: BatchRowState['status'];
    renderId: string | null;
    url?: string | null;
    urls?: Array<string | null>;
    error?: unknown;
  }>;
}

export type BatchEventSink = (trx: Transaction<Database>, batch: Omit<BatchView, 'rows'>) => Promise<void>;

export class BatchService {
  constructor(
    private readonly deps: {
      store: Store;
      renders: RenderService;
      background: BackgroundRenders;
      credits: CreditService;
      templates: TemplateService;
      preflight: PreflightService;
      baseUrl: string;
      events?: BatchEventSink;
    },
  ) {}

  async create(principal: Principal, templateId: string, input: BatchInput): Promise<BatchView> {
    if (input.rows.length === 0 || input.rows.length > MAX_ROWS)
      throw validationFailed([{ path: 'rows', message: `between 1 and ${MAX_ROWS} rows` }]);
    const { renders, store } = this.deps;
    // The template itself (missing, another workspace's) refuses the batch, as for one render, and
    // so does a version it does not have. `latest` becomes a number now: every row renders the
    // same version, whatever is published while the batch runs.
    await this.deps.templates.get(principal, templateId);
    const version =
      input.version === undefined
        ? undefined
        : await this.deps.templates.versionNumber(templateId, input.version);
    const options = Object.fromEntries(
      OPTIONS.filter((name) => input[name] !== undefined).map((name) => [name, input[name]]),
    );
    const requests = input.rows.map((modifications) =>
      renderRequestSchema.safeParse({
        format: input.format,
        modifications,
        ...options,
        ...(version !== undefined ? { version } : {}),
      }),
    );
    // The price first: each new identity once; identical earlier renders and repeated rows are free.
    // A row that cannot be planned (a bad value, an unknown page) fails alone, as does one that
    // preflight finds an error in, when asked.
    const identities = new Set<string>();
    const identityOfRow = new Map<number, string>();
    const rowErrors = input.preflight
      ? await this.preflightRows(principal, templateId, input, version)
      : new Map<number, { code: string; details: unknown }>();
    let price = 0;
    for (const [index, request] of requests.entries()) {
      if (rowErrors.has(index)) continue;
      if (!request.success) {
        rowErrors.set(index, { code: 'VALIDATION_FAILED', details: fromZodIssues(request.error.issues) });
        continue;
      }
      const prepared = await renders.prepare(principal, templateId, request.data).catch((error: unknown) => {
        if (!(error instanceof AppError)) throw error;
        rowErrors.set(index, { code: error.code, details: error.details ?? null });
        return null;
      });
      if (prepared?.kind === 'plan') identityOfRow.set(index, prepared.plan.identity);
      if (!prepared || prepared.kind === 'identical' || identities.has(prepared.plan.identity)) continue;
      identities.add(prepared.plan.identity);
      price += prepared.plan.fileCount;
    }
    // The check and the hold in one step: a concurrent batch sees this one's price as taken.
    const admitted = await store.batches.createFunded({
      workspaceId: principal.workspaceId,
      templateId,
      format: input.format,
      total: requests.length,
      price,
      holdUntil: new Date(Date.now() + HOLD_MS),
    });
    if (admitted.kind === 'missing') throw new AppError('NOT_FOUND', 'The workspace was not found.');
    if (admitted.kind === 'unfunded')
      throw new AppError('INSUFFICIENT_CREDITS', 'The workspace cannot pay for the whole batch.', {
        required: price,
        balance: admitted.balance,
        ...(admitted.held > 0 ? { heldByOtherBatches: admitted.held } : {}),
      });
    const { batch } = admitted;
    try {
      // Accepted in a few lanes at once (a database round trip each is most of a row's cost); rows
      // of one identity share a lane, so the first of them is charged and the others find it identical.
      const lanes: number[][] = Array.from({ length: ACCEPT_LANES }, () => []);
      for (const [index, request] of requests.entries()) {
        const failed = rowErrors.get(index);
        if (failed || !request.success) {
          await store.batches.setRow(batch.id, index + 1, {
            error: failed ?? { code: 'VALIDATION_FAILED', details: null },
          });
          continue;
        }
        lanes[laneOf(identityOfRow.get(index) ?? String(index))]?.push(index);
      }
      const accepted = await Promise.allSettled(
        lanes.map(async (indexes) => {
          for (const index of indexes) {
            const request = requests[index];
            if (request?.success)
              await this.acceptRow(principal, templateId, batch.id, index + 1, request.data);
          }
        }),
      );
      const failure = accepted.find((outcome) => outcome.status === 'rejected');
      if (failure) throw failure.reason;
    } finally {
      await store.batches.releaseHold(batch.id);
    }
    await this.settle(batch.id);
    return this.get(principal, batch.id);
  }

  /**
   * Rows whose preflight finds an error, each with those findings. The rows render the template as
   * the batch pins it, on the pages the render would draw; a row whose page does not exist is left
   * to fail as a render would.
   */
  private async preflightRows(
    principal: Principal,
    templateId: string,
    input: BatchInput,
    version: number | undefined,
  ): Promise<Map<number, { code: string; details: unknown }>> {
    const meta = await this.deps.templates.renderMeta(principal, templateId, version);
    const draft = await this.deps.templates.draftOf(meta);
    const { document } = draft;
    const failed = new Map<number, { code: string; details: unknown }>();
    // The pages the rows' renders draw, chosen as the render route chooses them.
    let wanted: string[];
    try {
      wanted = selectPages(
        draft,
        { format: input.format, pageId: input.pageId, allPages: input.allPages },
        null,
      ).pageIds;
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return failed;
      throw error;
    }
    const reports = await this.deps.preflight.checkRows(principal, document, wanted, input.rows, {
      format: input.format,
      ...(input.scale !== undefined ? { scale: input.scale } : {}),
      ...(input.timeMs !== undefined ? { timeMs: input.timeMs } : {}),
    });
    reports.forEach((report, index) => {
      const errors = report.findings.filter((found) => found.severity === 'error');
      if (errors.length > 0) failed.set(index, { code: 'PREFLIGHT_FAILED', details: { findings: errors } });
    });
    return failed;
  }

  /** One row's background render, or its own failure (a refused charge, say). */
  private async acceptRow(
    principal: Principal,
    templateId: string,
    batchId: string,
    row: number,
    request: RenderRequest,
  ): Promise<void> {
    const { store, background } = this.deps;
    try {
      const accepted = await background.accept(principal, templateId, request);
      const charged = accepted.credits?.charged ?? 0;
      // After the charge: until then the hold still counts these credits as taken.
      await store.batches.spendHold(batchId, charged);
      await store.batches.setRow(batchId, row, { renderId: accepted.id, charged: charged > 0 });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      await store.batches.setRow(batchId, row, {
        error: { code: error.code, details: error.details ?? null },
      });
    }
  }

  /** A batch from CSV: the header names variables of the template; see csv.ts for what is refused. */
  async createFromCsv(
    principal: Principal,
    templateId: string,
    csv: string,
    options: Omit<BatchInput, 'rows'>,
  ): Promise<BatchView> {
    // The columns are the variables of what the rows will render: the draft, or the pinned version.
    const meta = await this.deps.templates.renderMeta(principal, templateId, options.version);
    const { document } = await this.deps.templates.draftOf(meta);
    const known = new Set([...referencedVariables(document), ...Object.keys(document.variables ?? {})]);
    return this.create(principal, templateId, { ...options, rows: rowsFromCsv(csv, known, MAX_ROWS) });
  }

  async get(principal: Principal, batchId: string): Promise<BatchView> {
    const batch = await this.owned(principal, batchId);
    return this.view(batch, await this.deps.store.batches.rows(batch.id));
  }

  /** Cancels a running batch: rows it charged that have not rendered are refunded. */
  async cancel(principal: Principal, batchId: string): Promise<BatchView> {
    const batch = await this.owned(principal, batchId);
    const { store, credits } = this.deps;
    if (batch.status !== 'running') throw new AppError('CONFLICT', `The batch is ${batch.status}.`);
    for (const renderId of await store.batches.ownPendingRenders(batch.id))
      await credits.refund(renderId, { code: 'CANCELLED', details: null }, 'refund: batch cancelled');
    // Read before the transaction: on SQLite it holds the one connection, a read outside it would wait.
    const rows = await store.batches.rows(batch.id);
    const summary = this.summary(
      { ...batch, status: 'cancelled', finishedAt: new Date().toISOString() },
      rows,
    );
    const moved = await store.batches.cancel(batch.id, async (trx) => {
      await this.deps.events?.(trx, summary);
    });
    if (!moved) throw new AppError('CONFLICT', 'The batch is no longer running.');
    return this.get(principal, batch.id);
  }

  /** Completes the batches a finished render belongs to, when it was their last pending row. */
  async renderFinished(renderId: string): Promise<void> {
    for (const batchId of await this.deps.store.batches.ofRender(renderId)) await this.settle(batchId);
  }

  /** The sweep for completions a crash interrupted: running batches with no pending row. */
  async sweep(): Promise<void> {
    for (const batchId of await this.deps.store.batches.running(100)) await this.settle(batchId);
    await this.deps.store.batches.dropExpiredHolds(new Date());
  }

  private async settle(batchId: string): Promise<void> {
    const { store } = this.deps;
    const batch = await store.batches.get(batchId);
    if (batch?.status !== 'running') return;
    // Counted in the database first (cheap for every finished row); the rows are read only for the
    // completion's event, in its transaction, where no row moves any more.
    await store.batches.completeIfDone(batchId, async (trx) => {
      const rows = await store.batches.rows(batchId, trx);
      const summary = this.summary(
        { ...batch, status: 'completed', finishedAt: new Date().toISOString() },
        rows,
      );
      await this.deps.events?.(trx, summary);
    });
  }

  private async owned(principal: Principal, batchId: string): Promise<BatchRecord> {
    const batch = await this.deps.store.batches.get(batchId);
    if (!batch) throw new AppError('NOT_FOUND', 'The batch was not found.');
    assertSameWorkspace(principal, batch.workspaceId);
    return batch;
  }

  private summary(batch: BatchRecord, rows: BatchRowState[]): Omit<BatchView, 'rows'> {
    const count = (status: BatchRowState['status']) => rows.filter((r) => r.status === status).length;
    return {
      id: batch.id,
      templateId: batch.templateId,
      format: batch.format,
      status: batch.status,
      total: batch.total,
      progress: {
        done: count('done'),
        failed: count('failed'),
        pending: batch.total - count('done') - count('failed'),
      },
      createdAt: batch.createdAt,
      finishedAt: batch.finishedAt,
    };
  }

  /** A done row's file: `url`, or `urls` (page order) when a raster render made one file per page. */
  private filesOf(result: unknown): { url: string | null } | { urls: Array<string | null> } {
    const stored = result as RenderResult | { pages: RenderResult[] };
    if ('pages' in stored) return { urls: stored.pages.map((page) => this.urlOf(page)) };
    return { url: this.urlOf(stored) };
  }

  private urlOf(result: RenderResult): string | null {
    return atBase(result, this.deps.baseUrl).url ?? null;
  }

  private view(batch: BatchRecord, rows: BatchRowState[]): BatchView {
    return {
      ...this.summary(batch, rows),
      rows: rows.map((r) => ({
        row: r.row,
        status: r.status,
        renderId: r.renderId,
        ...(r.status === 'done' && r.result ? this.filesOf(r.result) : {}),
        ...(r.status === 'failed' ? { error: r.error } : {}),
      })),
    };
  }
}
