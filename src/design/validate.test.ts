import { describe, expect, it } from 'vitest';
import { box, oneDoc, promoCard } from './fixtures/documents.ts';
import { designDocumentSchema, storedDesignDocumentSchema } from './schema.ts';
import {
  createBlankDocument,
  documentSummary,
  findPage,
  type ParseResult,
  parseDesignDocument,
} from './validate.ts';

function issues(result: ParseResult) {
  if (result.ok) throw new Error('expected the document to be rejected');
  return result.issues;
}

function accepted(result: ParseResult) {
  if (!result.ok) throw new Error(`unexpected issues: ${JSON.stringify(result.issues)}`);
  return result.document;
}

const rect = (id: string) => ({ id, type: 'rect', ...box });

describe('the promo card example', () => {
  it('is accepted and normalised with every default filled', () => {
    const doc = accepted(parseDesignDocument(promoCard()));
    expect(doc.activePageId).toBe('square');
    expect(doc.variables).toEqual({ headline: 'Summer Sale', cta: 'Shop now' });
    expect(doc.pages.map((page) => page.id)).toEqual(['square', 'story']);
    const body = doc.pages[0]?.elements.find((element) => element.id === 'body');
    expect(body).toMatchObject({
      align: 'left',
      autoFit: 'none',
      maxLines: null,
      rotation: 0,
      visible: true,
    });
    const rule = doc.pages[0]?.elements.find((element) => element.id === 'rule');
    expect(rule).toMatchObject({ dash: [], opacity: 1, locked: false });
  });

  it('parses to the same document again (idempotent)', () => {
    const once = accepted(parseDesignDocument(promoCard()));
    const twice = accepted(parseDesignDocument(structuredClone(once)));
    expect(twice).toEqual(once);
    expect(JSON.stringify(twice)).toBe(JSON.stringify(once));
  });

  it('matches the stored-document schema, which has a JSON Schema for responses', () => {
    const doc = accepted(parseDesignDocument(promoCard()));
    expect(storedDesignDocumentSchema.parse(doc)).toEqual(doc);
  });

  it('does not modify its input', () => {
    const input = promoCard();
    const copy = structuredClone(input);
    parseDesignDocument(input);
    expect(input).toEqual(copy);
  });
});

describe('document-level fields', () => {
  it('defaults activePageId to the first page and fills page defaults', () => {
    const doc = accepted(
      parseDesignDocument({ schemaVersion: 1, pages: [{ id: 'a', width: 10, height: 20 }] }),
    );
    expect(doc).toEqual({
      schemaVersion: 2,
      activePageId: 'a',
      variables: {},
      pages: [{ id: 'a', width: 10, height: 20, background: '#ffffff', elements: [] }],
    });
  });

  it('accepts an image background and fills its fit', () => {
    const raw = oneDoc([]);
    (raw.pages as Record<string, unknown>[])[0] = {
      id: 'p1',
      width: 5,
      height: 5,
      background: { src: 'asset:x' },
    };
    expect(accepted(parseDesignDocument(raw)).pages[0]?.background).toEqual({ src: 'asset:x', fit: 'cover' });
  });

  it('treats a missing schemaVersion as version 1 and migrates it to the current version', () => {
    const raw = promoCard();
    delete raw.schemaVersion;
    expect(accepted(parseDesignDocument(raw)).schemaVersion).toBe(2);
  });

  const cases: [string, Record<string, unknown>, string][] = [
    ['unknown top-level key', oneDoc([], { title: 'x' }), 'title'],
    ['no pages', { schemaVersion: 1, pages: [] }, 'pages'],
    ['missing pages', { schemaVersion: 1 }, 'pages'],
    ['newer schemaVersion', oneDoc([], { schemaVersion: 3 }), 'schemaVersion'],
    ['variables not strings', oneDoc([], { variables: { a: 1 } }), 'variables.a'],
    [
      'unknown page key',
      { schemaVersion: 1, pages: [{ id: 'p', width: 1, height: 1, size: 'A4' }] },
      'pages[0].size',
    ],
    ['page width zero', { schemaVersion: 1, pages: [{ id: 'p', width: 0, height: 1 }] }, 'pages[0].width'],
    ['page without id', { schemaVersion: 1, pages: [{ width: 1, height: 1 }] }, 'pages[0].id'],
    [
      'bad background colour',
      { schemaVersion: 1, pages: [{ id: 'p', width: 1, height: 1, background: 'blue' }] },
      'pages[0].background',
    ],
    ['activePageId names no page', oneDoc([], { activePageId: 'nope' }), 'activePageId'],
    ['duplicate element ids on one page', oneDoc([rect('a'), rect('a')]), 'pages[0].elements[1].id'],
  ];
  it.each(cases)('rejects: %s', (_label, raw, path) => {
    expect(issues(parseDesignDocument(raw)).map((issue) => issue.path)).toContain(path);
  });

  it('rejects duplicate element ids across pages, naming the first one', () => {
    const raw = {
      schemaVersion: 1,
      pages: [
        { id: 'p1', width: 1, height: 1, elements: [rect('a')] },
        { id: 'p2', width: 1, height: 1, elements: [rect('b'), rect('a')] },
      ],
    };
    expect(issues(parseDesignDocument(raw))).toEqual([
      { path: 'pages[1].elements[1].id', message: 'duplicate element id "a" (also pages[0].elements[0].id)' },
    ]);
  });

  it('rejects duplicate page ids', () => {
    const page = { id: 'p', width: 1, height: 1 };
    expect(issues(parseDesignDocument({ schemaVersion: 1, pages: [page, page] }))).toEqual([
      { path: 'pages[1].id', message: 'duplicate page id "p" (also pages[0].id)' },
    ]);
  });
});

describe('deployment limits', () => {
  const pages = (count: number) =>
    Array.from({ length: count }, (_, i) => ({ id: `p${i}`, width: 1, height: 1 }));

  it('allows 50 pages and refuses 51', () => {
    expect(parseDesignDocument({ schemaVersion: 1, pages: pages(50) }).ok).toBe(true);
    expect(issues(parseDesignDocument({ schemaVersion: 1, pages: pages(51) }))).toEqual([
      { path: 'pages', message: 'at most 50 pages' },
    ]);
  });

  it('allows 500 elements a page and refuses 501', () => {
    const elements = (count: number) => Array.from({ length: count }, (_, i) => rect(`e${i}`));
    expect(parseDesignDocument(oneDoc(elements(500))).ok).toBe(true);
    expect(issues(parseDesignDocument(oneDoc(elements(501))))).toEqual([
      { path: 'pages[0].elements', message: 'at most 500 elements a page, nested ones included' },
    ]);
  });

  it('refuses a page side over 10000', () => {
    const raw = { schemaVersion: 1, pages: [{ id: 'p', width: 10_000, height: 10_001 }] };
    expect(issues(parseDesignDocument(raw))).toEqual([
      { path: 'pages[0].height', message: 'must be at most 10000' },
    ]);
  });

  it('refuses a document whose text together is over 200000 characters', () => {
    const text = (id: string) => ({
      id,
      type: 'text',
      x: 0,
      y: 0,
      width: 10,
      height: 10,
      text: 'x'.repeat(10_000),
    });
    const elements = (count: number) => Array.from({ length: count }, (_, i) => text(`t${i}`));
    expect(parseDesignDocument(oneDoc(elements(20))).ok).toBe(true);
    expect(issues(parseDesignDocument(oneDoc(elements(21))))).toEqual([
      { path: 'pages[0].elements[20].text', message: "takes the document's text over 200000 characters" },
    ]);
  });

  it('takes other limits from the caller', () => {
    const raw = { schemaVersion: 1, pages: [{ id: 'p', width: 20_000, height: 100 }, ...pages(2)] };
    expect(parseDesignDocument(raw, { maxPageSide: 20_000 }).ok).toBe(true);
    expect(issues(parseDesignDocument(raw, { maxPages: 2 }))).toEqual([
      { path: 'pages', message: 'at most 2 pages' },
    ]);
  });

  it('refuses a huge pages array quickly, before the schema walks it', () => {
    const started = Date.now();
    const raw = { schemaVersion: 1, pages: new Array(1_000_000).fill({ junk: true }) };
    expect(issues(parseDesignDocument(raw))).toEqual([{ path: 'pages', message: 'at most 50 pages' }]);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('caps the number of issues it reports', () => {
    const raw = oneDoc(Array.from({ length: 400 }, (_, i) => ({ id: `e${i}`, type: 'rect' })));
    const found = issues(parseDesignDocument(raw));
    expect(found).toHaveLength(101);
    expect(found[100]?.message).toMatch(/more issues not shown$/);
  });
});

describe('garbage in, issues out, never a throw', () => {
  let deep: unknown = {};
  for (let i = 0; i < 10_000; i++) deep = { pages: [deep] };
  const hostile = new Proxy(
    {},
    {
      get() {
        throw new Error('gotcha');
      },
      ownKeys() {
        throw new Error('gotcha');
      },
    },
  );
  const garbage: [string, unknown][] = [
    ['null', null],
    ['undefined', undefined],
    ['a number', 42],
    ['a string', '{"schemaVersion":1}'],
    ['an array', [1, 2, 3]],
    ['deeply nested junk', deep],
    ['pages as an object', { schemaVersion: 1, pages: { 0: {} } }],
    ['elements as a string', { schemaVersion: 1, pages: [{ id: 'p', width: 1, height: 1, elements: 'x' }] }],
    [
      'NaN and Infinity',
      oneDoc([{ id: 'r', type: 'rect', x: Number.NaN, y: Number.POSITIVE_INFINITY, width: 1, height: 1 }]),
    ],
    ['a throwing proxy', hostile],
  ];
  it.each(garbage)('%s', (_label, input) => {
    const result = parseDesignDocument(input);
    expect(result.ok).toBe(false);
    expect(issues(result).length).toBeGreaterThan(0);
  });

  it('reports a non-object at the root', () => {
    expect(issues(parseDesignDocument(null))).toEqual([
      { path: '(root)', message: 'Invalid input: expected object, received null' },
    ]);
  });
});

describe('helpers', () => {
  it('createBlankDocument makes a valid normalised document', () => {
    const blank = createBlankDocument(800, 600);
    expect(accepted(parseDesignDocument(blank))).toEqual(blank);
    expect(blank.pages[0]).toMatchObject({ id: 'page1', width: 800, height: 600 });
    expect(designDocumentSchema.parse(blank)).toEqual(blank);
  });

  it('documentSummary reports the active page size and page count', () => {
    const doc = accepted(parseDesignDocument({ ...promoCard(), activePageId: 'story' }));
    expect(documentSummary(doc)).toEqual({ width: 1080, height: 1920, pageCount: 2 });
  });

  it('findPage finds a page by id or gives undefined', () => {
    const doc = accepted(parseDesignDocument(promoCard()));
    expect(findPage(doc, 'story')?.height).toBe(1920);
    expect(findPage(doc, 'nope')).toBeUndefined();
  });
});
