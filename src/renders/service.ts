/**
 * The render operation: select pages, apply modifications, and either replay an identical earlier
 * render for free or charge, render in the pool, store the files and record the result. A failed
 * render is refunded. Shared by the machine API, the embed routes and MCP: visibility comes from
 * the template service, credits from the credit service, for whichever principal asks.
 */

import { rm } from 'node:fs/promises';
import type { Transaction } from 'kysely';
import {
  actorLabel,
  assertSameWorkspace,
  assetScopeOf,
  ownsOrShared,
  type Principal,
  tenancyOf,
} from '../auth/index.ts';
import { AppError } from '../core/errors.ts';
import { isIdOf, newId, randomToken } from '../core/ids.ts';
import { inSpan } from '../core/tracing.ts';
import type { CreditService } from '../credits/service.ts';
import { applyModifications } from '../design/index.ts';
import {
  elementFailure,
  MIME_TYPES,
  pageBarcodeProblem,
  type RenderedFile,
  type RenderJob,
  type RenderPool,
  type StagedFile,
} from '../engine/index.ts';
import type { FileStore } from '../files/index.ts';
import type { Store } from '../store/index.ts';
import { RenderNoLongerPending, type RenderRecord } from '../store/renders.ts';
import type { Database } from '../store/schema.ts';
import type { TemplateRenderMeta } from '../store/templates.ts';
import type { TemplateService } from '../templates/index.ts';
import { checkRenderCost, checkSynchronousVideo } from './cost-check.ts';
import type { JobInputLoader } from './job-inputs.ts';
import { previewScale, withWatermark } from './preview.ts';
import { atBase, replayed } from './results.ts';
import {
  isVideoRenderFormat,
  type RenderFormat,
  type RenderRequest,
  type RenderResponse,
  type RenderResult,
} from './schemas.ts';
import { type Plan, type Selection, select } from './selection.ts';

const MAX_PIXELS = 50_000_000;
export const EXTENSIONS: Record<RenderFormat, string> = {
  png: 'png',
  jpeg: 'jpg',
  pdf: 'pdf',
  mp4: 'mp4',
  webm: 'webm',
  gif: 'gif',
};

/** The media type of each render format's file (the engine's table, for routes that stream files). */
export const RENDER_MIME_TYPES: Record<RenderFormat, string> = {
  png: MIME_TYPES.png,
  jpeg: MIME_TYPES.jpeg,
  pdf: MIME_TYPES.pdf,
  mp4: MIME_TYPES.mp4,
  webm: MIME_TYPES.webm,
  gif: MIME_TYPES.gif,
};

export interface RenderServiceDeps {
  store: Store;
  templates: TemplateService;
  credits: CreditService;
  files: FileStore;
  pool: RenderPool;
  inputs: JobInputLoader;
  baseUrl: string;
  instanceId: string;
  allowPrivateUrls: boolean;
  /** The render time limit (PLATEN_RENDER_TIMEOUT_MS): what a request may wait for a still. */
  timeoutMs: number;
  /** A video's time limit (PLATEN_VIDEO_TIMEOUT_MS); with timeoutMs it sizes what may render synchronously. */
  videoTimeoutMs: number;
  /** Told of every successful render (metrics): `hit` is an identical render replayed for free. */
  observe?: (render: {
    format: string;
    cache: 'hit' | 'miss';
    seconds: number;
    creditsCharged: number;
  }) => void;
}

/** Writes a background render's outcome (its webhook event) inside the transaction recording it. */
export interface RenderOutcomeSink {
  completed(trx: Transaction<Database>, response: RenderResponse): Promise<void>;
  failed(trx: Transaction<Database>, error: { code: string; details: unknown }): Promise<void>;
}

/** What `preview` draws: a still of one page, never charged. */
export interface PreviewRequest {
  format: 'png' | 'jpeg';
  modifications?: Record<string, string>;
  pageId?: string;
  version?: number | 'latest';
  timeMs?: number;
}

export interface Preview {
  bytes: Buffer;
  mimeType: string;
  width: number;
  height: number;
}

const PREVIEW_JPEG_QUALITY = 80;

/** What `estimate` answers: files and credits of the renders asked about, and the balance. */
export interface CreditEstimate {
  renders: number;
  files: number;
  /** Credits the renders would take now; identical ones are free. */
  credits: number;
  /** Renders that would be free: identical to one done, or to an earlier row. */
  identical: number;
  balance: number;
  enough: boolean;
}

/** An allowance beside credits (a signed URL's render cap): reserve throws when none is left. */
export interface RenderQuota {
  reserve(): Promise<void>;
  release(): Promise<void>;
}

export class RenderService {
  private readonly inflight = new Map<string, Promise<void>>();

  constructor(private readonly deps: RenderServiceDeps) {}

  /** `quota`: an extra allowance a charged render takes from (a signed URL's render cap). */
  async render(
    principal: Principal,
    templateId: string,
    request: RenderRequest,
    quota?: RenderQuota,
  ): Promise<RenderResponse> {
    const attributes = {
      'platen.workspace.id': principal.workspaceId,
      'platen.template.id': templateId,
      'platen.render.format': request.format,
    };
    return inSpan('render', attributes, async (span) => {
      const started = performance.now();
      const response = await this.renderOrReplay(principal, templateId, request, quota);
      const files = 'pages' in response ? response.pages : [response];
      const charged = files.reduce((sum, file) => sum + file.credits.charged, 0);
      const cache = charged > 0 ? 'miss' : 'hit';
      span.setAttributes({ 'platen.render.cache': cache, 'platen.render.files': files.length });
      this.deps.observe?.({
        format: request.format,
        cache,
        seconds: (performance.now() - started) / 1000,
        creditsCharged: charged,
      });
      return response;
    });
  }

  private async renderOrReplay(
    principal: Principal,
    templateId: string,
    request: RenderRequest,
    quota: RenderQuota | undefined,
  ): Promise<RenderResponse> {
    const prepared = await this.prepare(principal, templateId, request);
    // Fast path: an identical earlier render is answered without reading the document.
    if (prepared.kind === 'identical') return replayed(prepared.job, prepared.balance, this.deps.baseUrl);
    const { plan } = prepared;
    // The caller waits for this one (whatever `async` says: background renders go through
    // BackgroundRenders.accept): a video too long for that is refused before it is charged.
    if (isVideoRenderFormat(plan.format))
      checkSynchronousVideo(plan.document, plan, {
        timeoutMs: this.deps.timeoutMs,
        videoTimeoutMs: this.deps.videoTimeoutMs,
      });
    for (let attempt = 0; attempt < 5; attempt++) {
      // A quota is taken before the charge and given back unless a render is charged and succeeds.
      await quota?.reserve();
      let outcome: Awaited<ReturnType<CreditService['charge']>>;
      try {
        outcome = await this.deps.credits.charge({
          workspaceId: principal.workspaceId,
          templateId: plan.templateId,
          identityHash: plan.identity,
          format: plan.format,
          fileCount: plan.fileCount,
          actor: actorLabel(principal.actor),
          instanceId: this.deps.instanceId,
        });
        if (outcome.kind === 'charged')
          return await this.execute(
            principal,
            plan,
            outcome.renderId,
            outcome.balanceAfter,
            outcome.createdAt,
          );
      } catch (error) {
        await quota?.release();
        throw error;
      }
      await quota?.release();
      if (outcome.render.status === 'done') return this.replay(outcome.render);
      await this.waitFor(outcome.render.id);
    }
    throw new AppError('OVERLOADED', 'The identical render is still in progress; retry shortly.', undefined, {
      'retry-after': '1',
    });
  }

  /**
   * For background renders (background.ts): the earlier identical render when there is one (its id
   * and the free replay), else the plan to charge and run.
   */
  async prepare(
    principal: Principal,
    templateId: string,
    request: RenderRequest,
  ): Promise<{ kind: 'identical'; job: RenderRecord; balance: number } | { kind: 'plan'; plan: Plan }> {
    const meta = await this.deps.templates.renderMeta(principal, templateId, request.version);
    const tenancy = tenancyOf(principal);
    const assetScope = assetScopeOf(tenancy);
    const selection = select(meta, request, assetScope);
    const earlier = await this.deps.credits.findIdentical(principal.workspaceId, selection.identity);
    if (earlier) return { kind: 'identical', job: earlier.job, balance: earlier.balance };
    const visible = (asset: { ownerUserId: string | null; embedId: string | null }) =>
      ownsOrShared(tenancy, asset);
    return {
      kind: 'plan',
      plan: await this.plan(principal.workspaceId, meta, selection, request, assetScope, visible),
    };
  }

  /**
   * What renders would cost, charging nothing (docs/api.md#estimating-credits): one render per row
   * of modifications (a single render is one row), each the files its format and pages make, free
   * when an identical render is already done or an earlier row is identical. The template (and a
   * pinned version) is read once; the caller bounds the rows (MAX_ROWS).
   */
  async estimate(
    principal: Principal,
    templateId: string,
    request: RenderRequest,
    rows: Array<Record<string, string>>,
  ): Promise<CreditEstimate> {
    const meta = await this.deps.templates.renderMeta(principal, templateId, request.version);
    const assetScope = assetScopeOf(tenancyOf(principal));
    const seen = new Set<string>();
    let files = 0;
    let credits = 0;
    let identical = 0;
    for (const modifications of rows) {
      const selection = select(meta, { ...request, modifications }, assetScope);
      files += selection.fileCount;
      const free =
        seen.has(selection.identity) ||
        (await this.deps.credits.findIdentical(principal.workspaceId, selection.identity)) !== null;
      seen.add(selection.identity);
      if (free) identical += 1;
      else credits += selection.fileCount;
    }
    const balance = await this.deps.credits.balance(principal.workspaceId);
    return { renders: rows.length, files, credits, identical, balance, enough: balance >= credits };
  }

  /**
   * A free preview of one page (src/renders/preview.ts): the modifications applied and checked as
   * for a render, drawn at most PREVIEW_BOX pixels long with a watermark, in the render processes.
   * Nothing is charged, recorded or stored; the caller takes a token of the render rate limit.
   */
  async preview(principal: Principal, templateId: string, input: PreviewRequest): Promise<Preview> {
    const meta = await this.deps.templates.renderMeta(principal, templateId, input.version);
    const tenancy = tenancyOf(principal);
    const assetScope = assetScopeOf(tenancy);
    const visible = (asset: { ownerUserId: string | null; embedId: string | null }) =>
      ownsOrShared(tenancy, asset);
    const request: RenderRequest = {
      format: input.format,
      ...(input.modifications ? { modifications: input.modifications } : {}),
      ...(input.pageId ? { pageId: input.pageId } : {}),
      ...(input.timeMs !== undefined ? { timeMs: input.timeMs } : {}),
    };
    const selection = select(meta, request, assetScope);
    const plan = await this.plan(principal.workspaceId, meta, selection, request, assetScope, visible);
    const pageId = plan.pageIds[0] as string;
    const page = plan.document.pages.find((candidate) => candidate.id === pageId);
    if (!page)
      throw new AppError('NOT_FOUND', `The page ${JSON.stringify(pageId)} was not found in this template.`);
    const inputs = await this.deps.inputs.load(principal.workspaceId, plan.document, visible, {
      pageIds: [pageId],
      format: plan.format,
    });
    const [file] = await this.deps.pool.render({
      document: withWatermark(plan.document, pageId),
      pageIds: [pageId],
      format: plan.format,
      scale: previewScale(page.width, page.height),
      quality: plan.format === 'jpeg' ? PREVIEW_JPEG_QUALITY : undefined,
      ...(typeof plan.timeMs === 'number' ? { timeMs: plan.timeMs } : {}),
      workspaceId: principal.workspaceId,
      assets: inputs.assets,
      fonts: inputs.fonts,
      allowPrivateUrls: this.deps.allowPrivateUrls,
    });
    if (!file) throw new AppError('RENDER_FAILED', 'The preview produced no picture.');
    return {
      bytes: Buffer.from(file.bytes),
      mimeType: file.mimeType,
      width: Math.round(file.width),
      height: Math.round(file.height),
    };
  }

  /** The free answer of an identical earlier render, as the render route gives it. */
  async replay(job: RenderRecord): Promise<RenderResponse> {
    return replayed(job, await this.deps.credits.balance(job.workspaceId), this.deps.baseUrl);
  }

  /** The stored result of one rendered file, as first returned, with `credits.charged` 0. */
  async get(principal: Principal, outputId: string): Promise<RenderResult> {
    const output = isIdOf('render', outputId) ? await this.deps.store.renders.getOutput(outputId) : null;
    if (!output) throw new AppError('NOT_FOUND', 'The render was not found.');
    assertSameWorkspace(principal, output.workspaceId);
    const result = atBase(output.result as RenderResult, this.deps.baseUrl);
    const shown = { ...result, credits: { ...result.credits, charged: 0 } };
    return output.expired ? { ...shown, url: null, expired: true } : shown;
  }

  /**
   * The document with modifications applied and its cost checked, before anything is charged. The
   * selection made from the template's metadata stands unless the draft changed in between.
   */
  private async plan(
    workspaceId: string,
    meta: TemplateRenderMeta,
    selection: Selection,
    request: RenderRequest,
    assetScope: string | null,
    visible: (asset: { ownerUserId: string | null; embedId: string | null }) => boolean,
  ): Promise<Plan> {
    const draft = await this.deps.templates.draftOf(meta);
    const chosen =
      draft.documentHash === meta.documentHash
        ? selection
        : select(
            { ...draft, ...(meta.version !== undefined ? { version: meta.version } : {}) },
            request,
            assetScope,
          );
    const modified = applyModifications(draft.document, request.modifications ?? {});
    if (!modified.ok)
      throw new AppError('VALIDATION_FAILED', 'A modification is not valid.', modified.issues);
    for (const page of modified.document.pages) {
      if (chosen.pageIds.includes(page.id) && page.width * page.height * chosen.scale ** 2 > MAX_PIXELS) {
        throw new AppError('VALIDATION_FAILED', 'The render would exceed 50 megapixels.', [
          { path: 'scale', message: `Page ${page.id} at scale ${chosen.scale} exceeds 50 megapixels` },
        ]);
      }
    }
    checkRenderCost(modified.document, chosen);
    // A barcode value its format refuses (a wrong check digit, letters in an EAN) would fail the
    // render: fail it here, with the same RENDER_FAILED details, before any credit is charged.
    for (const page of modified.document.pages) {
      if (!chosen.pageIds.includes(page.id)) continue;
      const problem = pageBarcodeProblem(page);
      if (problem) throw elementFailure(page.id, problem.elementId, problem.reason);
    }
    // The video and audio assets it plays exist, are the principal's to use and of the right kind
    // (read from their records, not their files).
    await this.deps.inputs.checkMedia(workspaceId, modified.document, visible, {
      pageIds: chosen.pageIds,
      format: chosen.format,
    });
    return {
      templateId: draft.id,
      document: modified.document,
      ...chosen,
      ...(meta.version !== undefined ? { version: meta.version } : {}),
    };
  }

  /**
   * Renders a charged plan, stores its files and records it done, or refunds it. Public for
   * background renders (background.ts); `outcome` writes their webhook event in the same transaction.
   */
  async execute(
    principal: Principal,
    plan: Plan,
    renderId: string,
    balanceAfter: number,
    createdAt: string,
    outcome?: RenderOutcomeSink,
    /** Background renders (background.ts): claimed from the queue table, never refused by the pool's video lane. */
    claimed = false,
  ): Promise<RenderResponse> {
    let settle = () => {};
    this.inflight.set(
      renderId,
      new Promise<void>((resolve) => {
        settle = resolve;
      }),
    );
    const written: string[] = [];
    /** Staged files (RenderPool.renderStaged): adopt removes each, a failure before it must. */
    const staged: string[] = [];
    try {
      const tenancy = tenancyOf(principal);
      const inputs = await this.deps.inputs.load(
        principal.workspaceId,
        plan.document,
        (asset) => ownsOrShared(tenancy, asset),
        { pageIds: plan.pageIds, format: plan.format },
      );
      // A folder store gets the files from the render process as synced files to rename into place:
      // their bytes never cross the pipe or this process's memory (docs/performance.md).
      const stagingDir = this.deps.files.stagingDir;
      // Waiting for a render process and rendering in it: the part a trace most often asks about.
      const rendered = await inSpan<(RenderedFile | StagedFile)[]>(
        'render.process',
        { 'platen.render.pages': plan.pageIds.length },
        () => {
          const job: RenderJob = {
            document: plan.document,
            pageIds: plan.pageIds,
            format: plan.format,
            scale: plan.scale,
            quality: plan.quality || undefined,
            // Motion (absent from plans stored before it: those are stills at their default time).
            ...(plan.fps ? { fps: plan.fps } : {}),
            ...(typeof plan.dither === 'boolean' ? { dither: plan.dither } : {}),
            ...(typeof plan.timeMs === 'number' ? { timeMs: plan.timeMs } : {}),
            workspaceId: principal.workspaceId,
            assets: inputs.assets,
            fonts: inputs.fonts,
            allowPrivateUrls: this.deps.allowPrivateUrls,
            cacheKey: plan.templateId,
          };
          return stagingDir
            ? this.deps.pool.renderStaged(job, stagingDir, { claimed })
            : this.deps.pool.render(job, { claimed });
        },
      );
      staged.push(...rendered.flatMap((file) => ('path' in file ? [file.path] : [])));
      const outputs = [];
      for (const [position, file] of rendered.entries()) {
        // The first file carries the render's own id, so the ledger's renderId can be looked up.
        const id = position === 0 ? renderId : newId('render');
        const fileKey = `renders/${principal.workspaceId}/${randomToken(18)}/${id}.${EXTENSIONS[plan.format]}`;
        written.push(fileKey);
        const stored =
          'path' in file
            ? await this.deps.files.adopt(fileKey, file.path, file.mimeType)
            : await this.deps.files.put(fileKey, file.bytes, file.mimeType);
        const result: RenderResult = {
          id,
          templateId: plan.templateId,
          format: plan.format,
          url: `${this.deps.baseUrl}/files/${fileKey}`,
          byteSize: stored.byteSize,
          width: Math.round(file.width),
          height: Math.round(file.height),
          ...(file.durationMs !== undefined ? { durationMs: Math.round(file.durationMs) } : {}),
          ...(file.frames !== undefined ? { frames: file.frames } : {}),
          createdAt,
          credits: { charged: 1, balanceAfter },
          ...(plan.version !== undefined ? { version: plan.version } : {}),
        };
        outputs.push({ id, position, fileKey, result });
      }
      const response: RenderResponse =
        plan.allPages && (plan.format === 'png' || plan.format === 'jpeg')
          ? { pages: outputs.map((o) => o.result) }
          : (outputs[0]?.result as RenderResult);
      await this.deps.credits.settle(
        renderId,
        response,
        outputs,
        principal.workspaceId,
        outcome && ((trx) => outcome.completed(trx, response)),
      );
      return response;
    } catch (error) {
      const appError = toRenderAppError(error);
      const failure = { code: appError.code, details: appError.details ?? null };
      await this.deps.credits.refund(
        renderId,
        failure,
        undefined,
        outcome && ((trx) => outcome.failed(trx, failure)),
      );
      // Files of a render that is not recorded as done are nobody's: remove them.
      await Promise.all([
        ...written.map((key) => this.deps.files.delete(key).catch(() => {})),
        ...staged.map((path) => rm(path, { force: true }).catch(() => {})),
      ]);
      throw appError;
    } finally {
      this.inflight.delete(renderId);
      settle();
    }
  }

  /** Waits for a pending render: in this process by promise, in another by polling the database. */
  private async waitFor(renderId: string): Promise<void> {
    const local = this.inflight.get(renderId);
    if (local) return local;
    // Long enough for the slowest render (a video), which the one waited for may be.
    const deadline = Date.now() + Math.max(this.deps.timeoutMs, this.deps.videoTimeoutMs) + 10_000;
    while (Date.now() < deadline) {
      const job = await this.deps.store.renders.getJob(renderId);
      if (job?.status !== 'pending') return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

/** RenderError and PoolOverloaded are AppErrors already (RENDER_FAILED, OVERLOADED). */
function toRenderAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof RenderNoLongerPending) {
    return new AppError('OVERLOADED', 'The render was interrupted; retry it.', undefined, {
      'retry-after': '1',
    });
  }
  return new AppError('RENDER_FAILED', 'The render failed.', { reason: 'internal' });
}
