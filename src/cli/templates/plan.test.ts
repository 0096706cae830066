/** Deciding a push: defaults are no change, conflicts need a changed document, assets by id and family. */
import type { Asset, TemplateWithDocument } from '@platen/client';
import { describe, expect, it } from 'vitest';
import { parseDesignDocument } from '../../design/index.ts';
import type { LocalAsset, TemplateFile } from './files.ts';
import { planAssets, planTemplate } from './plan.ts';
import { fontFamiliesUsed, referencedAssetIds, replaceAssetIds } from './references.ts';

/** As a person writes it: defaults left out. */
const written = {
  schemaVersion: 1,
  pages: [
    {
      id: 'p1',
      width: 400,
      height: 300,
      background: { src: 'asset:img_bg' },
      elements: [
        {
          id: 'title',
          type: 'text',
          x: 0,
          y: 0,
          width: 400,
          height: 50,
          text: 'Hi',
          fontFamily: 'Brand Sans',
        },
        { id: 'logo', type: 'image', x: 0, y: 60, width: 50, height: 50, src: 'asset:img_logo' },
      ],
    },
  ],
};

function stored(document: unknown): Record<string, unknown> {
  const parsed = parseDesignDocument(document);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.document as unknown as Record<string, unknown>;
}

const server = (revision = 3, document: unknown = written): TemplateWithDocument => ({
  id: 'tpl_1',
  name: 'Promo',
  width: 400,
  height: 300,
  pageCount: 1,
  revision,
  shared: false,
  ownerUserId: null,
  thumbnailUrl: null,
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-01T00:00:00Z',
  document: stored(document),
});

const file = (extra: Partial<TemplateFile> = {}): TemplateFile => ({
  fileName: 'promo.tpl_1.json',
  id: 'tpl_1',
  name: 'Promo',
  revision: 3,
  document: written as Record<string, unknown>,
  ...extra,
});

const withTitle = (patch: Record<string, unknown>) =>
  JSON.parse(
    JSON.stringify(written).replace('"text":"Hi"', `"text":"Hi",${JSON.stringify(patch).slice(1, -1)}`),
  );

describe('planTemplate', () => {
  it('sees no change when the file leaves out what the server filled in as defaults', () => {
    expect(planTemplate(file(), server()).kind).toBe('unchanged');
  });

  it('lists a changed property and is no conflict at the same revision', () => {
    const plan = planTemplate(file({ document: withTitle({ fontSize: 80 }) }), server());
    expect(plan).toMatchObject({ kind: 'update', documentChanged: true, conflict: false, patch: {} });
    expect(plan.kind === 'update' && plan.changes).toEqual([
      { op: 'set', path: 'pages[p1].elements[title].fontSize', from: 32, to: 80 },
    ]);
  });

  it('is a conflict only when the document changed and the server moved on', () => {
    expect(planTemplate(file({ document: withTitle({ fontSize: 80 }) }), server(4))).toMatchObject({
      conflict: true,
    });
    expect(
      planTemplate(file({ revision: undefined, document: withTitle({ fontSize: 80 }) }), server(4)),
    ).toMatchObject({ conflict: true });
    expect(planTemplate(file(), server(4)).kind).toBe('unchanged');
    expect(planTemplate(file({ shared: true }), server(4))).toMatchObject({
      conflict: false,
      patch: { shared: true },
    });
  });

  it('puts renames and sharing before document changes, and leaves an absent `shared` alone', () => {
    const plan = planTemplate(file({ name: 'Promo 2', shared: true }), server());
    expect(plan.kind === 'update' && plan.changes.map((c) => c.path)).toEqual(['name', 'shared']);
    expect(plan).toMatchObject({ documentChanged: false, patch: { name: 'Promo 2', shared: true } });
  });

  it('creates for a file without id or with an id the server lacks, and says why a document is invalid', () => {
    expect(planTemplate(file({ id: undefined }), undefined)).toMatchObject({
      kind: 'create',
      unknownId: false,
    });
    const broken = planTemplate(file({ document: withTitle({ fontSize: -1 }) }), undefined);
    expect(broken).toMatchObject({ kind: 'create', unknownId: true });
    expect(broken.kind === 'create' && broken.invalid).toMatch(/^pages\[0\]\.elements\[0\]\.fontSize: /);
  });
});

describe('asset references', () => {
  it('finds asset:<id> strings anywhere and font families by their key', () => {
    const document = { ...written, variables: { logo: 'asset:img_var', note: 'asset: not one' } };
    expect(referencedAssetIds(document)).toEqual(['img_bg', 'img_logo', 'img_var']);
    expect([...fontFamiliesUsed(document)]).toEqual(['brand sans']);
  });

  it('replaces renamed ids and nothing else', () => {
    const replaced = replaceAssetIds(written, new Map([['img_logo', 'img_new']]));
    expect(referencedAssetIds(replaced)).toEqual(['img_bg', 'img_new']);
    expect(written.pages[0]?.elements[1]).toMatchObject({ src: 'asset:img_logo' });
  });
});

describe('planAssets', () => {
  const local = (id: string, contentType: string, family?: string): LocalAsset => ({
    id,
    contentType,
    fileName: `${id}.x`,
    ...(family ? { family } : {}),
  });
  const remote = (id: string, kind: 'image' | 'font', fontFamily?: string) =>
    ({
      id,
      kind,
      mimeType: '',
      byteSize: 1,
      url: '',
      createdAt: '',
      ...(fontFamily ? { fontFamily } : {}),
    }) as Asset;
  const assets = new Map(
    [
      local('img_bg', 'image/png'),
      local('img_logo', 'image/png'),
      local('img_unused', 'image/png'),
      local('fnt_brand', 'font/ttf', 'Brand Sans'),
      local('fnt_other', 'font/ttf', 'Other'),
    ].map((asset) => [asset.id, asset]),
  );

  it('uploads the images the server lacks and the fonts of families it lacks', () => {
    const plan = planAssets([file()], assets, [remote('img_bg', 'image')]);
    expect(plan.upload.map((asset) => asset.id)).toEqual(['img_logo', 'fnt_brand']);
    expect(plan.unknown).toEqual([]);
  });

  it('matches fonts by family, case aside, and reports references found nowhere', () => {
    const plan = planAssets([file()], new Map(), [remote('fnt_x', 'font', 'BRAND SANS')]);
    expect(plan).toEqual({ upload: [], unknown: ['img_bg', 'img_logo'] });
  });
});
