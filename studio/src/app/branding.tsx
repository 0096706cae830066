/**
 * The customer's brand from the public embed info: the accent colour becomes CSS variables, the
 * title the document title. The icon is shown when it is a data: URI; an https icon would be a
 * request to another host, which the studio's CSP forbids, so the title's initial stands in.
 */
import type { EmbedInfo } from '../api.ts';

export function applyBranding(info: EmbedInfo): void {
  const root = document.documentElement;
  if (/^#[0-9a-fA-F]{3,8}$/.test(info.brandAccentColor)) {
    root.style.setProperty('--accent', info.brandAccentColor);
    root.style.setProperty('--accent-ink', readableInk(info.brandAccentColor));
  }
  document.title = info.brandTitle;
}

/** Black or white, whichever reads better on the accent colour (WCAG relative luminance). */
function readableInk(hex: string): string {
  const digits = hex.slice(1);
  const full = digits.length <= 4 ? [...digits.slice(0, 3)].map((d) => d + d).join('') : digits.slice(0, 6);
  const channel = (i: number) => {
    const c = Number.parseInt(full.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
  return luminance > 0.179 ? '#111111' : '#ffffff';
}

export function BrandMark({ info }: { info: EmbedInfo }) {
  const icon = info.brandIconUrl.startsWith('data:image/') ? info.brandIconUrl : null;
  return (
    <div class="brand">
      {icon ? (
        <img class="brand-icon" src={icon} alt="" width={28} height={28} />
      ) : (
        <span class="brand-icon brand-initial" aria-hidden="true">
          {info.brandTitle.trim().charAt(0).toUpperCase() || 'S'}
        </span>
      )}
      <span class="brand-title">{info.brandTitle}</span>
    </div>
  );
}
