import { describe, expect, it } from 'vitest';
import { assetFileName, safeId, templateFileName } from './files.ts';

describe('file names from ids', () => {
  it('takes the ids the service hands out and hand-made asset names', () => {
    expect(templateFileName({ name: 'Promo Card', id: 'tpl_3Jd8Wn5QpZr1' })).toBe(
      'promo-card.tpl_3Jd8Wn5QpZr1.json',
    );
    expect(assetFileName('ast_Ab12', 'image/png')).toBe('ast_Ab12.png');
    expect(assetFileName('logo', 'font/woff2')).toBe('logo.woff2');
  });

  it('refuses an id from a hostile server that would leave the folder', () => {
    for (const id of [
      '/../../../tmp/owned',
      '../package',
      'a/b',
      '..',
      '.hidden',
      'a\\b',
      '',
      'x'.repeat(200),
      'a\nb',
    ])
      expect(() => safeId(id), JSON.stringify(id)).toThrow(/not a safe file name/);
    expect(() => templateFileName({ name: 'x', id: '/../../../tmp/owned' })).toThrow();
    expect(() => assetFileName('../../package', 'image/png')).toThrow();
  });
});
