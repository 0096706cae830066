/**
 * Keyboard shortcuts as a pure mapping from a key event to a command name, so the table is
 * unit-tested and the component only dispatches. Ctrl and Cmd are the same modifier (Mac and
 * others). Keys typed into a field are left to the field, except the few that never type text.
 */

export type Command =
  | { kind: 'undo' }
  | { kind: 'redo' }
  | { kind: 'delete' }
  | { kind: 'duplicate' }
  | { kind: 'copy' }
  | { kind: 'paste' }
  | { kind: 'select-all' }
  | { kind: 'deselect' }
  | { kind: 'nudge'; dx: number; dy: number }
  | { kind: 'zoom-in' }
  | { kind: 'zoom-out' }
  | { kind: 'zoom-reset' }
  | { kind: 'edit-text' }
  | { kind: 'group' }
  | { kind: 'ungroup' };

export interface KeyInput {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

const ARROWS: Record<string, [number, number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

/** The command for a key press, or null. `inField`: the focus is in an input, textarea or select. */
export function commandFor(event: KeyInput, inField: boolean): Command | null {
  const mod = event.ctrlKey || event.metaKey;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  // Zoom never types text, so it works from a field too; the browser's own page zoom is kept out.
  if (mod && (key === '=' || key === '+')) return { kind: 'zoom-in' };
  if (mod && (key === '-' || key === '_')) return { kind: 'zoom-out' };
  if (mod && key === '0') return { kind: 'zoom-reset' };
  if (inField) return null;
  if (mod && key === 'z') return event.shiftKey ? { kind: 'redo' } : { kind: 'undo' };
  if (mod && key === 'y') return { kind: 'redo' };
  if (mod && key === 'd') return { kind: 'duplicate' };
  if (mod && key === 'c') return { kind: 'copy' };
  if (mod && key === 'v') return { kind: 'paste' };
  if (mod && key === 'a') return { kind: 'select-all' };
  if (mod && key === 'g') return event.shiftKey ? { kind: 'ungroup' } : { kind: 'group' };
  if (mod || event.altKey) return null;
  if (key === 'Delete' || key === 'Backspace') return { kind: 'delete' };
  if (key === 'Escape') return { kind: 'deselect' };
  if (key === 'Enter') return { kind: 'edit-text' };
  const arrow = ARROWS[key];
  if (arrow) {
    const step = event.shiftKey ? 10 : 1;
    return { kind: 'nudge', dx: arrow[0] * step, dy: arrow[1] * step };
  }
  return null;
}
