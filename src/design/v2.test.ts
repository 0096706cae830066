/**
 * Design document version 2 in the model: each new field accepted and normalised, each hostile
 * input the issue names refused with a path (never a throw or a hang), modifications reaching spans,
 * properties and nested elements, the cost estimate, and smart resize of groups.
 */
import { describe, expect, it } from 'vitest';
import type { ValidationIssue } from '../core/errors.ts';
import { pageCost } from './cost.ts';
import type { Element, GroupElement, TextElement } from './elements.ts';
import { box } from './fixtures/documents.ts';
import { applyModifications, referencedVariables } from './modifications.ts';
import { resizePage } from './resize.ts';
import type { DesignDocument } from './schema.ts';
import { pageElements } from './tree.ts';
import { parseDesignDocument } from './validate.ts';

const v2 = (elements: unknown[], page: Record<string, unknown> = {}) => ({
  schemaVersion: 2,
  pages: [{ id: 'p1', width: 400, height: 300, elements, ...page }],
});

function parsed(raw: unknown): DesignDocument {
  const result = parseDesignDocument(raw);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.document;
}

function issues(raw: unknown): ValidationIssue[] {
  const result = parseDesignDocument(raw);
  if (result.ok) throw new Error('expected the document to be refused');
  return result.issues;
}

const stops = [
  { offset: 0, color: '#ff0000' },
  { offset: 1, color: '#0000ff' },
];
const group = (id: string, elements: unknown[], extra: Record<string, unknown> = {}) => ({
  id,
  type: 'group',
  ...box,
  width: 100,
  height: 100,
  elements,
  ...extra,
});

describe('version 2 fields', () => {
  it('accepts every new feature and keeps the document as written', () => {
    const doc = parsed(
      v2(
        [
          {
            id: 't',
            type: 'text',
            ...box,
            spans: [
              { text: 'Bold ', fontWeight: 700 },
              { text: 'link', link: 'https://platen.dev', underline: true },
            ],
            color: { type: 'linear', angle: 90, stops },
            stroke: { color: '#000000', width: 2 },
            highlight: { color: '#ffff00' },
            shadow: { color: 'rgba(0, 0, 0, 0.5)', blur: 8, offsetX: 2, offsetY: 4 },
            flipX: true,
          },
          {
            id: 'i',
            type: 'image',
            ...box,
            src: 'asset:a',
            crop: { x: 0.1, y: 0.2, width: 0.5, height: 0.5 },
            filters: { grayscale: 1, brightness: 1.2 },
            stroke: '#ffffff',
            strokeWidth: 4,
          },
          group('g', [{ id: 'r', type: 'rect', ...box, fill: { type: 'radial', stops } }], {
            clip: true,
            blur: 2,
          }),
          { id: 'b', type: 'barcode', ...box, format: 'ean13', value: '5901234123457' },
        ],
        { background: { type: 'linear', stops } },
      ),
    );
    const [text, image, grouped, barcode] = doc.pages[0]?.elements ?? [];
    expect(text).toMatchObject({ text: '', spans: [{ text: 'Bold ' }, { text: 'link' }] });
    expect(image).toMatchObject({ crop: { x: 0.1 }, filters: { grayscale: 1 } });
    expect((grouped as GroupElement).elements[0]).toMatchObject({ id: 'r', fill: { type: 'radial' } });
    expect(barcode).toMatchObject({ color: '#000000', background: '#ffffff', showText: true });
    expect(doc.pages[0]?.background).toEqual({ type: 'linear', angle: 180, stops });
    expect(parsed(doc)).toEqual(doc);
  });

  it('adds no default to a version 1 element, so stored documents and their hashes stay as they were', () => {
    const raw = {
      schemaVersion: 1,
      pages: [{ id: 'p', width: 10, height: 10, elements: [{ id: 'r', type: 'rect', ...box }] }],
    };
    const element = parsed(raw).pages[0]?.elements[0] as Element;
    expect(Object.keys(element).sort()).toEqual([
      'cornerRadius',
      'fill',
      'height',
      'id',
      'locked',
      'opacity',
      'rotation',
      'stroke',
      'strokeWidth',
      'type',
      'visible',
      'width',
      'x',
      'y',
    ]);
  });

  it('finds duplicate ids inside groups', () => {
    expect(issues(v2([group('g', [{ id: 'g', type: 'rect', ...box }])]))).toEqual([
      {
        path: 'pages[0].elements[0].elements[0].id',
        message: 'duplicate element id "g" (also pages[0].elements[0].id)',
      },
    ]);
  });
});

describe('hostile version 2 input answers with a path', () => {
  const deep = (depth: number): unknown => {
    let node: unknown = { id: 'leaf', type: 'rect', ...box };
    for (let i = 0; i < depth; i++) node = group(`g${i}`, [node]);
    return node;
  };

  it('allows groups 8 deep and refuses 9 and 16 deep', () => {
    expect(parseDesignDocument(v2([deep(8)])).ok).toBe(true);
    expect(issues(v2([deep(9)]))[0]?.message).toBe('groups nest at most 8 deep');
    const [issue] = issues(v2([deep(16)]));
    expect(issue?.path).toBe(`pages[0]${'.elements[0]'.repeat(9)}.elements`);
  });

  it('refuses 100,000-deep nesting without overflowing the stack', () => {
    expect(issues(v2([deep(100_000)]))[0]?.message).toBe('groups nest at most 8 deep');
  });

  it('counts nested elements against the page limit', () => {
    const many = Array.from({ length: 300 }, (_, i) => ({ id: `r${i}`, type: 'rect', ...box }));
    const more = Array.from({ length: 300 }, (_, i) => ({ id: `s${i}`, type: 'rect', ...box }));
    expect(issues(v2([group('g', many), group('h', more)]))[0]?.message).toBe(
      'at most 500 elements a page, nested ones included',
    );
  });

  it.each([
    [
      '10,000 spans',
      { id: 't', type: 'text', ...box, spans: Array.from({ length: 10_000 }, () => ({ text: 'a' })) },
      'pages[0].elements[0].spans',
    ],
    ['a blur radius of 10^6', { id: 'r', type: 'rect', ...box, blur: 1e6 }, 'pages[0].elements[0].blur'],
    [
      'a shadow blur of 10^6',
      { id: 'r', type: 'rect', ...box, shadow: { color: '#000000', blur: 1e6 } },
      'pages[0].elements[0].shadow.blur',
    ],
    [
      'a gradient with 10,000 stops',
      {
        id: 'r',
        type: 'rect',
        ...box,
        fill: {
          type: 'linear',
          angle: 0,
          stops: Array.from({ length: 10_000 }, (_, i) => ({ offset: i / 10_000, color: '#000000' })),
        },
      },
      'pages[0].elements[0].fill',
    ],
    [
      'a gradient with one stop',
      { id: 'r', type: 'rect', ...box, fill: { type: 'radial', stops: [stops[0]] } },
      'pages[0].elements[0].fill.stops',
    ],
    [
      'a stop offset of 2',
      {
        id: 'r',
        type: 'rect',
        ...box,
        fill: { type: 'radial', stops: [stops[0], { offset: 2, color: '#fff' }] },
      },
      'pages[0].elements[0].fill.stops[1].offset',
    ],
    [
      'a crop outside 0-1',
      { id: 'i', type: 'image', ...box, src: 'asset:a', crop: { x: -0.5, y: 0, width: 1, height: 1 } },
      'pages[0].elements[0].crop.x',
    ],
    [
      'a crop past the edge',
      { id: 'i', type: 'image', ...box, src: 'asset:a', crop: { x: 0.5, y: 0, width: 0.6, height: 1 } },
      'pages[0].elements[0].crop.width',
    ],
    [
      'a barcode value of 100 KB',
      { id: 'b', type: 'barcode', ...box, format: 'code128', value: 'x'.repeat(100_000) },
      'pages[0].elements[0].value',
    ],
    [
      'an unknown barcode format',
      { id: 'b', type: 'barcode', ...box, format: 'aztec', value: '1' },
      'pages[0].elements[0].format',
    ],
    [
      'a javascript: link',
      { id: 't', type: 'text', ...box, spans: [{ text: 'x', link: 'javascript:alert(1)' }] },
      'pages[0].elements[0].spans[0].link',
    ],
  ])('refuses %s', (_name, element, path) => {
    const found = issues(v2([element]));
    expect(found[0]?.path).toBe(path);
  });

  it('refuses more than 5,000 spans in a document', () => {
    const spans = Array.from({ length: 1000 }, () => ({ text: 'a' }));
    const texts = Array.from({ length: 6 }, (_, i) => ({ id: `t${i}`, type: 'text', ...box, spans }));
    expect(issues(v2(texts))[0]?.message).toBe('at most 5000 text spans in a document');
  });
});

describe('modifications in version 2', () => {
  const textOf = (doc: DesignDocument, index = 0) => doc.pages[0]?.elements[index] as TextElement;
  const apply = (raw: unknown, mods: Record<string, string>) => {
    const result = applyModifications(parsed(raw), mods);
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    return result.document;
  };
  const rich = {
    id: 't',
    type: 'text',
    name: 'headline',
    ...box,
    spans: [
      { text: 'Hello {{who}}', fontWeight: 700, color: '#ff0000' },
      { text: ', welcome', fontStyle: 'italic' },
    ],
  };

  it('fills placeholders inside spans, each keeping its style', () => {
    const doc = apply(v2([{ ...rich, name: undefined }]), { who: 'Ada' });
    expect(textOf(doc).spans).toEqual([
      { text: 'Hello Ada', fontWeight: 700, color: '#ff0000' },
      { text: ', welcome', fontStyle: 'italic' },
    ]);
  });

  it("replaces a named element's spans with one span in the first span's style", () => {
    const doc = apply(v2([rich]), { headline: 'New' });
    expect(textOf(doc).spans).toEqual([{ text: 'New', fontWeight: 700, color: '#ff0000' }]);
  });

  it('sets visible, color and fill by name.property, reaching into groups', () => {
    const raw = v2([
      group('g', [
        { id: 'badge', name: 'badge', type: 'rect', ...box, fill: '#000000' },
        { ...rich, name: 'title' },
      ]),
    ]);
    const doc = apply(raw, {
      'badge.visible': 'false',
      'badge.fill': '#00ff00',
      'title.color': '#0000ff',
      'title.size': '9',
    });
    const grouped = doc.pages[0]?.elements[0] as GroupElement | undefined;
    const [badge, title] = (grouped?.elements ?? []) as [Element, TextElement];
    expect(badge).toMatchObject({ visible: false, fill: '#00ff00' });
    expect(title.color).toBe('#0000ff');
    expect(title.spans?.every((span) => span.color === undefined)).toBe(true);
  });

  it('refuses a bad property value with its key as the path', () => {
    const raw = v2([{ id: 'r', name: 'badge', type: 'rect', ...box }]);
    const result = applyModifications(parsed(raw), { 'badge.visible': 'maybe', 'badge.fill': 'nope' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((issue) => issue.path)).toEqual([
      'modifications.badge.visible',
      'modifications.badge.fill',
    ]);
  });

  it("sets a barcode's value by its name, and lists names and span placeholders as variables", () => {
    const raw = v2([
      { id: 'b', name: 'sku', type: 'barcode', ...box, format: 'code128', value: 'A1' },
      { ...rich, id: 't2', name: undefined },
    ]);
    expect((apply(raw, { sku: 'B2' }).pages[0]?.elements[0] as { value: string } | undefined)?.value).toBe(
      'B2',
    );
    expect(referencedVariables(parsed(raw))).toEqual(['sku', 'who']);
  });

  it('counts span text against the document budget after modifications', () => {
    const raw = v2([{ ...rich, spans: [{ text: '{{who}}{{who}}' }] }]);
    const result = applyModifications(parsed(raw), { who: 'x'.repeat(6000) });
    expect(result.ok).toBe(false);
  });
});

describe('pageCost', () => {
  it('counts nested elements, spans and effects before any work', () => {
    const doc = parsed(
      v2([
        group(
          'g',
          [
            { id: 'r', type: 'rect', ...box, shadow: { color: '#000000', blur: 4 } },
            { ...box, id: 't', type: 'text', spans: [{ text: 'a' }, { text: 'b' }] },
          ],
          {
            blur: 3,
          },
        ),
      ]),
    );
    const cost = pageCost(doc.pages[0] as DesignDocument['pages'][number], 2);
    expect(cost).toMatchObject({ elements: 3, spans: 2, effects: 2 });
    expect(cost.effectPixels).toBeGreaterThan(0);
    expect(cost.costliest).toEqual(['elements', 0]);
  });
});

describe('resizing a group', () => {
  it('scales its children with it, relative to its box', () => {
    const page = parsed(
      v2([
        group('g', [{ id: 'r', type: 'rect', x: 10, y: 20, width: 30, height: 40, strokeWidth: 2 }], {
          x: 100,
          y: 100,
          shadow: { color: '#000000', blur: 10, offsetX: 4, offsetY: 4 },
        }),
      ]),
    ).pages[0] as DesignDocument['pages'][number];
    const resized = resizePage(page, { width: 800, height: 600 });
    const g = resized.elements[0] as GroupElement;
    expect(g).toMatchObject({ width: 200, height: 200, shadow: { blur: 20, offsetX: 8 } });
    expect(g.elements[0]).toMatchObject({ x: 20, y: 40, width: 60, height: 80, strokeWidth: 4 });
    expect(pageElements(resized)).toHaveLength(2);
  });
});
