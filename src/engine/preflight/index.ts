/**
 * Preflight in a render process (docs/preflight.md): the job's document is checked instead of
 * drawn, once per row of modifications, with the job's fonts and assets, so what is reported is
 * what that render would do. Rows are checked in order until the job's deadline (a row still
 * waiting then is left too); the answer says how many were, and the pool's own time and memory
 * limits bound the job as any render's.
 */
import { applyModifications, pageAtTime, stillTimeMs } from '../../design/index.ts';
import { fontCatalogFor } from '../backends/fonts.ts';
import type { SourceContext } from '../backends/image-sources.ts';
import type { LoadedImage } from '../backends/images.ts';
import { RenderError } from '../errors.ts';
import { checkJob } from '../job.ts';
import { pageImageSources } from '../layout/index.ts';
import type { RenderJob } from '../types.ts';
import { checkPage } from './check-page.ts';
import { coverageFor } from './coverage.ts';
import { finding, type PreflightReport } from './findings.ts';
import { ImageLoads } from './image-loads.ts';

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
/** Rows whose images are fetched ahead of the row being checked. */
const PREFETCH_ROWS = 16;

interface RowContext {
  job: RenderJob;
  fonts: ReturnType<typeof fontCatalogFor>;
  covered: ReturnType<typeof coverageFor>;
  source: SourceContext;
  loads: ImageLoads;
}

export async function preflightInProcess(job: RenderJob, preflight: PreflightJob): Promise<PreflightAnswer> {
  // Images are loaded once for every row that names them.
  const source: SourceContext = {
    assets: job.assets,
    allowPrivateUrls: job.allowPrivateUrls ?? false,
    loadedImages: new Map<string, LoadedImage>(),
  };
  const context: RowContext = {
    job,
    fonts: fontCatalogFor(job.workspaceId, job.fonts),
    covered: coverageFor(job.workspaceId, job.fonts),
    source,
    loads: new ImageLoads(source),
  };
  const pages = new Set(job.pageIds);
  const sourcesOf = (row: Record<string, string>): string[] => {
    const modified = applyModifications(job.document, row);
    if (!modified.ok) return [];
    return modified.document.pages.filter((page) => pages.has(page.id)).flatMap(pageImageSources);
  };
  const reports: PreflightReport[] = [];
  for (const [index, row] of preflight.rows.entries()) {
    const left = preflight.until - Date.now();
    if (left <= 0) break;
    const ahead = preflight.rows[index + PREFETCH_ROWS];
    context.loads.prefetch(
      index === 0 ? preflight.rows.slice(0, PREFETCH_ROWS).flatMap(sourcesOf) : ahead ? sourcesOf(ahead) : [],
    );
    // A row still waiting (on a slow image) when the time is up is left unchecked, like the rest.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), left);
    });
    const report = await Promise.race([checkRow(context, row), late]).finally(() => clearTimeout(timer));
    if (!report) break;
    reports.push(report);
  }
  return { reports, checked: reports.length };
}

async function checkRow(context: RowContext, row: Record<string, string>): Promise<PreflightReport> {
  const { job } = context;
  const modified = applyModifications(job.document, row);
  if (!modified.ok)
    return {
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
    };
  let checked: ReturnType<typeof checkJob>;
  try {
    checked = checkJob({ ...job, document: modified.document });
  } catch (error) {
    if (!(error instanceof RenderError)) throw error;
    return {
      findings: [
        finding('render-failed', { pageId: error.details.pageId ?? null, elementId: null }, error.message, {
          reason: error.details.reason,
        }),
      ],
    };
  }
  const findings = [];
  for (const page of checked.pages) {
    const timed = pageAtTime(page, job.timeMs ?? stillTimeMs(page)).page;
    findings.push(
      ...(await checkPage({
        page: timed,
        fonts: context.fonts,
        covered: context.covered,
        output: { format: job.format, scale: checked.scale },
        source: context.source,
        loads: context.loads,
      })),
    );
  }
  return { findings };
}
