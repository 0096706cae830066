/**
 * Small line icons drawn with SVG, so they look the same everywhere (emoji and symbol fonts vary,
 * and the editor may load no font beyond the bundled ones). Decorative: the buttons carrying them
 * have their own accessible names.
 */
import type { JSX } from 'preact';

const PATHS = {
  eye: 'M1.5 8s2.5-5 6.5-5 6.5 5 6.5 5-2.5 5-6.5 5S1.5 8 1.5 8Z M8 10a2 2 0 1 0 0-4 2 2 0 0 0 0 4Z',
  eyeOff:
    'M2 2l12 12 M6.5 3.2A6.6 6.6 0 0 1 8 3c4 0 6.5 5 6.5 5a11 11 0 0 1-1.9 2.4 M4.2 4.7C2.5 6 1.5 8 1.5 8s2.5 5 6.5 5a6 6 0 0 0 3-.8',
  lock: 'M4 7h8v7H4Z M5.5 7V5a2.5 2.5 0 0 1 5 0v2',
  unlock: 'M4 7h8v7H4Z M5.5 7V5a2.5 2.5 0 0 1 4.8-1',
  trash: 'M2.5 4h11 M6 4V2.5h4V4 M4 4l.7 9.5h6.6L12 4 M6.8 6.5v5 M9.2 6.5v5',
  copy: 'M5.5 5.5h8v8h-8Z M3 10.5H2.5v-8h8V3',
  image: 'M2 3h12v10H2Z M2 11l3.5-3.5 3 3 2-2L14 12 M10.5 6.5a1 1 0 1 0 0-.01',
  undo: 'M5 3 2 6l3 3 M2 6h7a4 4 0 0 1 0 8H6',
  redo: 'M11 3l3 3-3 3 M14 6H7a4 4 0 0 0 0 8h3',
  up: 'M8 13V3 M4 7l4-4 4 4',
  down: 'M8 3v10 M4 9l4 4 4-4',
  rect: 'M2.5 3.5h11v9h-11Z',
  ellipse: 'M8 3c3.3 0 5.5 2.2 5.5 5S11.3 13 8 13 2.5 10.8 2.5 8 4.7 3 8 3Z',
  line: 'M2.5 13.5l11-11',
  qr: 'M2 2h5v5H2Z M9 2h5v5H9Z M2 9h5v5H2Z M9 9h2v2H9Z M12 12h2v2h-2Z M4 4h1v1H4Z M11 4h1v1h-1Z M4 11h1v1H4Z',
  text: 'M3 3.5h10 M8 3.5V13 M6 13h4',
  barcode: 'M2 3v10 M4 3v10 M5.5 3v10 M8 3v10 M10 3v10 M11 3v10 M14 3v10',
  group:
    'M1.5 1.5h3 M1.5 1.5v3 M14.5 1.5h-3 M14.5 1.5v3 M1.5 14.5h3 M1.5 14.5v-3 M14.5 14.5h-3 M14.5 14.5v-3 M4 4h5v5H4Z M7 7h5v5H7Z',
  ungroup: 'M2.5 2.5h5v5h-5Z M8.5 8.5h5v5h-5Z',
  play: 'M4.5 2.5v11l9-5.5Z',
  pause: 'M4.5 2.5v11 M11.5 2.5v11',
  stepBack: 'M3.5 3v10 M13 3 6 8l7 5Z',
  stepForward: 'M12.5 3v10 M3 3l7 5-7 5Z',
  video: 'M1.5 4h9v8h-9Z M10.5 7l4-2.5v7l-4-2.5',
  keyframe: 'M8 2.5 13.5 8 8 13.5 2.5 8Z',
  plus: 'M8 3v10 M3 8h10',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name }: { name: IconName }): JSX.Element {
  return (
    <svg class="pe-svg-icon" width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path
        d={PATHS[name]}
        fill="none"
        stroke="currentColor"
        stroke-width="1.4"
        stroke-linecap="round"
        stroke-linejoin="round"
      />
    </svg>
  );
}
