/**
 * Preflight in a render process (docs/preflight.md): the job's document is checked instead of
 * drawn, once per row of modifications, with the job's fonts and assets, so what is reported is
 * what that render would do. Rows are checked in order until the job's deadline; the answer says
 * how many were, and the pool's own time and memory limits bound the job as any render's.
 */
import { applyModifications, pageAtTime, stillTimeMs } from '../../design/index.ts';
import { fontCatalogFor } from '../backends/fonts.ts';
import type { LoadedImage } from '../backends/images.ts';
import { RenderError } from '../errors.ts';
import { checkJob } from '../job.ts';
import type { RenderJob } from '../types.ts';
import { checkPage } from './check-page.ts';
import { coverageFor } from './coverage.ts';
import { finding, type PreflightReport } from './findings.ts';

export type { PreflightCode, PreflightFinding, PreflightReport, PreflightSeverity } from './findings.ts';
export { PREFLIGHT_CODES, SEVERITY } from './findings.ts';

/** What a preflight job carries besides its RenderJob: the rows and until when to check them. */
export interface PreflightJob {
  rows: Record<string, string>[];
  /** Epoch milliseconds after which no further row is started. */
  until: number;
}

export interface PreflightAnswer {
  reports: PreflightReport[];
  /** Rows checked, from the first: fewer than asked when the deadline came first. */
  checked: number;
}

const MAX_MODIFICATION_FINDINGS = 20;

export async function preflightInProcess(job: RenderJob, preflight: PreflightJob): Promise<PreflightAnswer> {
  const fonts = fontCatalogFor(job.workspaceId, job.fonts);
  const covered = coverageFor(job.workspaceId, job.fonts);
  // Images are loaded once for every row that names them.
  const loadedImages = new Map<string, LoadedImage>();
  const source = {
    assets: job.assets,
    allowPrivateUrls: job.allowPrivateUrls ?? false,
    loadedImages,
  };
  const reports: PreflightReport[] = [];
  for (const row of preflight.rows) {
    if (reports.length > 0 && Date.now() > preflight.until) break;
    const modified = applyModifications(job.document, row);
    if (!modified.ok) {
      reports.push({
        findings: modified.issues.slice(0, MAX_MODIFICATION_FINDINGS).map((issue) =>
          finding(
            'invalid-modification',
            { pageId: null, elementId: null },
            `${issue.path}: ${issue.message}`,
            {
              path: issue.path,
            },
          ),
        ),
      });
      continue;
    }
    let checked: ReturnType<typeof checkJob>;
    try {
      checked = checkJob({ ...job, document: modified.document });
    } catch (error) {
      if (!(error instanceof RenderError)) throw error;
      reports.push({
        findings: [
          finding('render-failed', { pageId: error.details.pageId ?? null, elementId: null }, error.message, {
            reason: error.details.reason,
          }),
        ],
      });
      continue;
    }
    const findings = [];
    for (const page of checked.pages) {
      const timed = pageAtTime(page, job.timeMs ?? stillTimeMs(page)).page;
      findings.push(
        ...(await checkPage({
          page: timed,
          fonts,
          covered,
          output: { format: job.format, scale: checked.scale },
          source,
        })),
      );
    }
    reports.push({ findings });
  }
  return { reports, checked: reports.length };
}
