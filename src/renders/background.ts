/**
 * Background renders (`async: true`): accepted and charged at once, exactly as a render the caller
 * waits for would be (the same identity, so identical renders and idempotency keys behave the same,
 * and an identical earlier render answers for free), then run from the queue by any instance's
 * worker (queue-worker.ts). The job stored with the render holds the document as modified when it
 * was accepted, so a render run again after a crash renders what was charged. The outcome, done or
 * failed (and refunded), is recorded with its `render.completed` / `render.failed` webhook event in
 * one transaction, and `GET /v1/renders/{id}` shows it.
 */
import {
  type Actor,
  actorLabel,
  assertSameWorkspace,
  isScope,
  type Principal,
  requirePrincipal,
} from '../auth/index.ts';
import { AppError } from '../core/errors.ts';
import type { CreditService } from '../credits/service.ts';
import type { Store } from '../store/index.ts';
import type { QueuedRender } from '../store/render-queue.ts';
import type { RenderRecord } from '../store/renders.ts';
import { atBase } from './results.ts';
import type { RenderJobView, RenderRequest, RenderResponse, RenderResult } from './schemas.ts';
import type { Plan } from './selection.ts';
import type { RenderOutcomeSink, RenderService } from './service.ts';

interface StoredJob {
  principal: { workspaceId: string; scopes: string[]; actor: Actor };
  plan: Plan;
}

export interface BackgroundRenderFacts {
  id: string;
  workspaceId: string;
  templateId: string;
  format: string;
  createdAt: string;
}

export interface BackgroundRendersDeps {
  service: RenderService;
  store: Store;
  credits: CreditService;
  instanceId: string;
  baseUrl: string;
  /** Where a background render's outcome goes (its webhook events), inside the recording transaction. */
  outcome?: (render: BackgroundRenderFacts) => RenderOutcomeSink;
  /** Queues an accepted (charged, stored) render to run (queue.ts). */
  enqueue?: (renderId: string) => void;
  /** After a background render finished either way (a batch may be complete now). */
  finished?: (renderId: string) => Promise<void>;
}

export class BackgroundRenders {
  constructor(private readonly deps: BackgroundRendersDeps) {}

  /** Accepts a render to run in the background: its id and state, charged as the render route would. */
  async accept(principal: Principal, templateId: string, request: RenderRequest): Promise<RenderJobView> {
    const { service, credits } = this.deps;
    const prepared = await service.prepare(principal, templateId, request);
    if (prepared.kind === 'identical')
      return this.view(prepared.job, { charged: 0, balanceAfter: prepared.balance });
    const { plan } = prepared;
    const job: StoredJob = {
      principal: {
        workspaceId: principal.workspaceId,
        scopes: [...principal.scopes],
        actor: principal.actor,
      },
      plan,
    };
    const outcome = await credits.charge({
      workspaceId: principal.workspaceId,
      templateId: plan.templateId,
      identityHash: plan.identity,
      format: plan.format,
      fileCount: plan.fileCount,
      actor: actorLabel(principal.actor),
      instanceId: this.deps.instanceId,
      job: JSON.stringify(job),
    });
    if (outcome.kind === 'identical')
      return this.view(outcome.render, {
        charged: 0,
        balanceAfter: await credits.balance(principal.workspaceId),
      });
    this.deps.enqueue?.(outcome.renderId);
    return {
      id: outcome.renderId,
      status: 'pending',
      templateId: plan.templateId,
      format: plan.format,
      createdAt: outcome.createdAt,
      credits: { charged: plan.fileCount, balanceAfter: outcome.balanceAfter },
    };
  }

  /** Runs one render the queue worker claimed; its failure is recorded (and refunded), not thrown. */
  async run(queued: QueuedRender): Promise<void> {
    const job = JSON.parse(queued.job) as StoredJob;
    const principal: Principal = {
      workspaceId: job.principal.workspaceId,
      scopes: new Set(job.principal.scopes.filter(isScope)),
      actor: job.principal.actor,
      // The queue runs it, not a request: no address.
      address: null,
    };
    const balanceAfter = await this.deps.store.renderQueue.balanceAfterCharge(queued.id);
    const facts = {
      id: queued.id,
      workspaceId: queued.workspaceId,
      templateId: job.plan.templateId,
      format: job.plan.format,
      createdAt: queued.createdAt,
    };
    await this.deps.service
      .execute(
        principal,
        job.plan,
        queued.id,
        balanceAfter,
        queued.createdAt,
        this.deps.outcome?.(facts),
        true,
      )
      .catch(() => {});
    await this.deps.finished?.(queued.id);
  }

  /**
   * `GET /v1/renders/{id}` for every entry point: the result as first answered (free), or, for a
   * background render with no file yet, its state (pending, or failed with its error).
   */
  async lookup(principal: Principal, renderId: string): Promise<RenderResult | RenderJobView> {
    try {
      return await this.deps.service.get(principal, renderId);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'NOT_FOUND') throw error;
      return this.status(principal, renderId);
    }
  }

  /** A render's state by its id, for the principal's workspace (pending, failed, or done). */
  async status(principal: Principal, renderId: string): Promise<RenderJobView> {
    const job = await this.deps.store.renders.getJob(renderId);
    if (!job) throw new AppError('NOT_FOUND', 'The render was not found.');
    assertSameWorkspace(requirePrincipal(principal), job.workspaceId);
    return this.view(job);
  }

  private async view(
    job: RenderRecord,
    credits?: { charged: number; balanceAfter: number },
  ): Promise<RenderJobView> {
    const base = {
      id: job.id,
      status: job.status as RenderJobView['status'],
      templateId: job.templateId,
      format: job.format as RenderJobView['format'],
      createdAt: job.createdAt,
      ...(credits ? { credits } : {}),
    };
    if (job.status === 'failed') return { ...base, error: job.error as { code: string; details?: unknown } };
    if (job.status !== 'done') return base;
    const stored = job.result as RenderResponse;
    const result =
      'pages' in stored
        ? { pages: stored.pages.map((page) => atBase(page, this.deps.baseUrl)) }
        : atBase(stored, this.deps.baseUrl);
    return { ...base, result };
  }
}
