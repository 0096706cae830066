/**
 * The view's style, inlined by main.ts (the page is one document: no stylesheet to fetch). The
 * host's theme variables (MCP Apps' standard CSS custom properties) win when it sends them.
 */
export const STYLES = `
:root { color-scheme: light dark; }
* { box-sizing: border-box; }
body {
  margin: 0;
  font-family: var(--font-sans, system-ui, -apple-system, "Segoe UI", sans-serif);
  font-size: 14px;
  color: var(--color-text-primary, CanvasText);
  background: var(--color-background-primary, Canvas);
}
main { padding: 12px; display: grid; gap: 12px; }
header { display: flex; align-items: center; justify-content: space-between; gap: 8px; flex-wrap: wrap; }
h1 { font-size: 16px; margin: 0; }
.layout { display: grid; gap: 12px; grid-template-columns: minmax(0, 3fr) minmax(180px, 2fr); align-items: start; }
@media (max-width: 560px) { .layout { grid-template-columns: 1fr; } }
figure { margin: 0; display: grid; gap: 4px; }
figure img {
  max-width: 100%; max-height: 480px; object-fit: contain; justify-self: start;
  border: 1px solid var(--color-border-primary, color-mix(in srgb, CanvasText 15%, transparent));
  border-radius: 6px; background: repeating-conic-gradient(#8881 0 25%, transparent 0 50%) 0 0 / 16px 16px;
}
figcaption, .status { color: var(--color-text-secondary, GrayText); font-size: 12px; margin: 0; }
fieldset { border: 0; padding: 0; margin: 0; display: grid; gap: 8px; }
legend { font-weight: 600; margin-bottom: 4px; padding: 0; }
.field { display: grid; gap: 2px; }
.field-visibility { grid-template-columns: auto 1fr; align-items: center; }
.field-visibility label { order: 2; }
label { font-size: 12px; font-family: var(--font-mono, ui-monospace, monospace); }
input[type="text"] {
  font: inherit; padding: 6px 8px; border-radius: 6px; width: 100%;
  border: 1px solid var(--color-border-primary, color-mix(in srgb, CanvasText 25%, transparent));
  background: var(--color-background-secondary, Field); color: inherit;
}
input[type="color"] { width: 48px; height: 28px; padding: 0; border: 0; background: none; }
.actions { display: flex; gap: 8px; flex-wrap: wrap; margin-top: 12px; }
button {
  font: inherit; padding: 6px 12px; border-radius: 6px; cursor: pointer;
  border: 1px solid var(--color-border-primary, color-mix(in srgb, CanvasText 25%, transparent));
  background: var(--color-background-secondary, ButtonFace); color: inherit;
}
button.primary { background: #2557d6; border-color: #2557d6; color: #fff; }
button:disabled { opacity: 0.6; cursor: default; }
.error {
  margin: 0; padding: 8px 10px; border-radius: 6px; font-size: 13px;
  color: var(--color-text-danger, #a4161a);
  background: var(--color-background-danger, color-mix(in srgb, #e5383b 12%, transparent));
}
.error:empty { display: none; }
`;
