/**
 * Golden: the font fallback chain. Scripts the primary family lacks (Greek in Playfair, Arabic,
 * Hebrew, CJK, symbols) come from bundled fallbacks, an unknown family uses the default, and
 * right-to-left paragraphs are shaped and ordered by the text shaper.
 */
import { describe, expect, it } from 'vitest';
import { fontCatalogFor } from '../backends/fonts.ts';
import { familyChain } from '../layout/index.ts';
import { compareGolden, pageDocument, renderPng } from './harness.ts';

const line = (id: string, y: number, text: string, extra: Record<string, unknown> = {}) => ({
  id,
  type: 'text',
  x: 20,
  y,
  width: 560,
  height: 40,
  text,
  fontFamily: 'Playfair Display',
  fontSize: 24,
  color: '#202020',
  ...extra,
});

const doc = pageDocument({
  width: 600,
  height: 420,
  background: '#ffffff',
  elements: [
    line('latin', 20, 'Playfair Display: Ωmega — Кириллица — Ελληνικά'),
    line('arabic', 70, 'العربية: مرحبا بالعالم 123', { align: 'right' }),
    line('hebrew', 120, 'עברית: שלום עולם (mixed with English)', { align: 'right' }),
    line('cjk', 170, '中文排版 · 日本語のかな · 繁體字'),
    line('symbols', 220, 'Symbols: → ✓ ★ ♥ € ∞ ≠ ½'),
    line('unknown', 270, 'An unknown family falls back to Inter', { fontFamily: 'No Such Font' }),
    line('generic', 320, 'Generic serif and sans-serif names work', { fontFamily: 'serif' }),
    line('mono', 370, 'monospace → DejaVu Sans Mono', { fontFamily: 'monospace' }),
  ],
});

describe('font fallback', () => {
  it('puts emoji, wide-coverage and CJK fonts after the primary family', () => {
    const chain = familyChain(fontCatalogFor('ws_test', []), 'Playfair Display');
    expect(chain).toEqual([
      'Playfair Display',
      'Twemoji Mozilla',
      'Noto Sans',
      'DejaVu Sans',
      'Noto Sans SC',
    ]);
    expect(familyChain(fontCatalogFor('ws_test', []), 'No Such Font')[0]).toBe('Inter');
  });

  it('matches the golden', async () => {
    const file = await renderPng(doc);
    const result = await compareGolden('text-fallback', file.bytes);
    expect(result.message).toBe(result.pass ? result.message : 'match');
  });
});
