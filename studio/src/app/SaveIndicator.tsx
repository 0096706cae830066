/** The autosave state, announced politely to screen readers. */
import type { SaveState } from './autosave.ts';

const LABELS: Record<SaveState['kind'], string> = {
  saved: 'Saved',
  saving: 'Saving…',
  offline: 'Offline — retrying',
  conflict: 'Conflict',
  error: 'Not saved',
};

export function SaveIndicator({ state }: { state: SaveState }) {
  const title = state.kind === 'error' ? state.message : undefined;
  return (
    <span class={`save-state save-${state.kind}`} role="status" aria-live="polite" title={title}>
      <span class="dot" aria-hidden="true" />
      {LABELS[state.kind]}
    </span>
  );
}
