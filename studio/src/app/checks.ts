/**
 * The studio's live warnings (docs/preflight.md): after the design opens and after each save, the
 * saved draft is preflighted by the service, a moment after the last save so a burst of edits asks
 * once; an answer older than a later request is dropped. Findings go to the editor (marks on the
 * elements) and to the shell's checks list. A refusal (the rate limit, say) keeps the last findings.
 */
import type { Api, PreflightReport } from '../api.ts';

export type Finding = PreflightReport['findings'][number];

/** Quiet time after a save before the draft is checked. */
export const CHECK_DELAY_MS = 600;

export class DraftChecks {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private asked = 0;

  constructor(
    private readonly api: Pick<Api, 'preflight'>,
    private readonly templateId: string,
    private readonly onFindings: (findings: Finding[]) => void,
  ) {}

  /** The draft was saved (or opened): check it soon. */
  saved(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.check(), CHECK_DELAY_MS);
  }

  private async check(): Promise<void> {
    this.timer = null;
    const ask = ++this.asked;
    try {
      const report = await this.api.preflight(this.templateId);
      if (ask === this.asked) this.onFindings(report.findings);
    } catch {
      // Checks are advice: a refusal or a network failure leaves the last ones shown.
    }
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.asked += 1;
  }
}
