/**
 * The checks button in the studio's top bar and its list (docs/preflight.md): the latest preflight
 * of the saved draft, errors first; each finding names its element and selects it on the page.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Finding } from './checks.ts';

const ORDER = { error: 0, warning: 1, info: 2 } as const;

function summary(findings: readonly Finding[]): string {
  const errors = findings.filter((f) => f.severity === 'error').length;
  const warnings = findings.filter((f) => f.severity === 'warning').length;
  if (errors + warnings === 0) return findings.length === 0 ? 'Checks: all clear' : 'Checks: notes only';
  const parts = [];
  if (errors > 0) parts.push(`${errors} ${errors === 1 ? 'error' : 'errors'}`);
  if (warnings > 0) parts.push(`${warnings} ${warnings === 1 ? 'warning' : 'warnings'}`);
  return `Checks: ${parts.join(', ')}`;
}

export function ChecksButton({
  findings,
  onReveal,
}: {
  findings: readonly Finding[] | null;
  onReveal(pageId: string, elementId: string): void;
}) {
  const [open, setOpen] = useState(false);
  if (findings === null) return null;
  const worst = findings.reduce<keyof typeof ORDER>(
    (acc, f) => (ORDER[f.severity] < ORDER[acc] ? f.severity : acc),
    'info',
  );
  const flagged = findings.some((f) => f.severity !== 'info');
  return (
    <>
      <button
        type="button"
        class={`checks-button${flagged ? ` is-${worst}` : ''}`}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        {summary(findings)}
      </button>
      {open && (
        <ChecksDialog
          findings={findings}
          onReveal={(pageId, elementId) => {
            setOpen(false);
            onReveal(pageId, elementId);
          }}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}

function ChecksDialog({
  findings,
  onReveal,
  onClose,
}: {
  findings: readonly Finding[];
  onReveal(pageId: string, elementId: string): void;
  onClose(): void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);
  const sorted = [...findings].sort((a, b) => ORDER[a.severity] - ORDER[b.severity]);
  return (
    <dialog ref={dialog} class="dialog checks" aria-labelledby="checks-title" onClose={onClose}>
      <h2 id="checks-title">Checks</h2>
      <p class="checks-note">What a render of the saved design would get wrong, checked after each save.</p>
      {sorted.length === 0 ? (
        <p>Nothing to fix: every text fits, every character has a font, images are sharp enough.</p>
      ) : (
        <ul class="checks-list">
          {sorted.map((f, index) => (
            <li key={`${f.code}-${f.elementId}-${index}`} class={`is-${f.severity}`}>
              <span class="checks-severity">{f.severity}</span>
              <span class="checks-message">{f.message}</span>
              {f.pageId && f.elementId && (
                <button
                  type="button"
                  onClick={() => onReveal(f.pageId as string, f.elementId as string)}
                  aria-label={`Select the element ${f.elementId}`}
                >
                  Select
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <div class="dialog-actions">
        <button type="button" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
    </dialog>
  );
}
