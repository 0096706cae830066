/**
 * Preflight (docs/preflight.md): what a render of a template would get wrong, before anyone pays
 * for it. The template (or a pinned version) is read as a render reads it, with the principal's
 * confinement and the embed's published-only rule (TemplateService.renderMeta), its assets and
 * fonts loaded as for a render, and the checks run in a render process (src/engine/preflight), so
 * they are bounded by the render time and memory limits and see exactly the fonts and images the
 * render would. Free: nothing is charged, recorded or stored.
 */
import { ownsOrShared, type Principal, tenancyOf } from '../auth/index.ts';
import { AppError } from '../core/errors.ts';
import { applyModifications, type DesignDocument } from '../design/index.ts';
import type { PreflightAnswer, PreflightFinding } from '../engine/preflight/index.ts';
import type { RenderedFile, RenderJob } from '../engine/types.ts';
import type { JobInputLoader } from '../renders/index.ts';
import type { TemplateService } from '../templates/index.ts';
import type { PreflightRequest, PreflightResult } from './schemas.ts';

export interface PreflightServiceDeps {
  templates: TemplateService;
  inputs: Pick<JobInputLoader, 'load'>;
  /** The render pool's `render`: the killable, time-bounded processes renders use. */
  render(job: RenderJob): Promise<RenderedFile[]>;
  allowPrivateUrls: boolean;
  /** The render time limit: the pool kills a job past it; rows stop being started before. */
  timeoutMs: number;
}

/** Findings listed in one answer at most; `counts` counts them all. */
export const MAX_LISTED_FINDINGS = 2000;
/** Of the render time limit, the share after which no further row is started. */
const ROW_BUDGET = 0.75;

function tooSlow(timeoutMs: number): PreflightFinding {
  return {
    code: 'render-failed',
    severity: 'error',
    pageId: null,
    elementId: null,
    message: `Checking this row took longer than the render time limit allows (${timeoutMs} ms): its render would too.`,
    details: { reason: 'timeout' },
  };
}

export class PreflightService {
  constructor(private readonly deps: PreflightServiceDeps) {}

  async preflight(
    principal: Principal,
    templateId: string,
    request: PreflightRequest,
  ): Promise<PreflightResult> {
    const meta = await this.deps.templates.renderMeta(principal, templateId, request.version);
    const { document } = await this.deps.templates.draftOf(meta);
    const pageIds = request.pageId ? [request.pageId] : document.pages.map((page) => page.id);
    if (request.pageId && !document.pages.some((page) => page.id === request.pageId))
      throw new AppError(
        'NOT_FOUND',
        `The page ${JSON.stringify(request.pageId)} was not found in this template.`,
      );
    const rows = request.rows ?? [request.modifications ?? {}];
    return this.check(principal, document, pageIds, rows, request, request.rows !== undefined);
  }

  /** For batches: the findings of each row, every row checked (several jobs when one cannot). */
  async checkRows(
    principal: Principal,
    document: DesignDocument,
    pageIds: string[],
    rows: Record<string, string>[],
    output: Pick<PreflightRequest, 'format' | 'scale' | 'timeMs'>,
  ): Promise<PreflightAnswer['reports']> {
    const reports: PreflightAnswer['reports'] = [];
    while (reports.length < rows.length) {
      const answer = await this.run(principal, document, pageIds, rows.slice(reports.length), output);
      reports.push(...answer.reports);
      // A row that alone outlasts the time (an image that never arrives) would outlast its render too.
      if (answer.checked === 0) reports.push({ findings: [tooSlow(this.deps.timeoutMs)] });
    }
    return reports;
  }

  private async check(
    principal: Principal,
    document: DesignDocument,
    pageIds: string[],
    rows: Record<string, string>[],
    output: Pick<PreflightRequest, 'format' | 'scale' | 'timeMs'>,
    numbered: boolean,
  ): Promise<PreflightResult> {
    const answer = await this.run(principal, document, pageIds, rows, output);
    const counts = { error: 0, warning: 0, info: 0 };
    const findings: PreflightResult['findings'] = [];
    const rowsWithErrors: number[] = [];
    answer.reports.forEach((report, row) => {
      for (const found of report.findings) {
        counts[found.severity] += 1;
        if (findings.length < MAX_LISTED_FINDINGS) findings.push(numbered ? { ...found, row } : found);
      }
      if (report.findings.some((found) => found.severity === 'error')) rowsWithErrors.push(row);
    });
    return {
      ok: counts.error === 0 && answer.checked === rows.length,
      counts,
      findings,
      rows: rows.length,
      checkedRows: answer.checked,
      complete: answer.checked === rows.length,
      rowsWithErrors,
    };
  }

  private async run(
    principal: Principal,
    document: DesignDocument,
    pageIds: string[],
    rows: Record<string, string>[],
    output: Pick<PreflightRequest, 'format' | 'scale' | 'timeMs'>,
  ): Promise<PreflightAnswer> {
    const tenancy = tenancyOf(principal);
    const visible = (asset: { ownerUserId: string | null; embedId: string | null }) =>
      ownsOrShared(tenancy, asset);
    // The assets any row may draw: the template's, and those its rows' values name. The loader
    // reads ids off a document, so it is given the rows' pages together (only read, never drawn).
    const pages = [...document.pages];
    for (const row of rows) {
      const modified = applyModifications(document, row);
      if (modified.ok) pages.push(...modified.document.pages);
    }
    const inputs = await this.deps.inputs.load(principal.workspaceId, { ...document, pages }, visible, {
      pageIds,
      format: output.format,
    });
    const [file] = await this.deps.render({
      document,
      pageIds,
      format: output.format,
      ...(output.scale !== undefined ? { scale: output.scale } : {}),
      ...(output.timeMs !== undefined ? { timeMs: output.timeMs } : {}),
      workspaceId: principal.workspaceId,
      assets: inputs.assets,
      fonts: inputs.fonts,
      allowPrivateUrls: this.deps.allowPrivateUrls,
      preflight: { rows, until: Date.now() + this.deps.timeoutMs * ROW_BUDGET },
    });
    if (!file) throw new AppError('RENDER_FAILED', 'The preflight answered nothing.', { reason: 'internal' });
    return JSON.parse(new TextDecoder().decode(file.bytes)) as PreflightAnswer;
  }
}
