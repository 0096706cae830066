import { describe, expect, it } from 'vitest';
import { box, oneDoc, promoCard } from './fixtures/documents.ts';
import {
  applyModifications,
  canonicalModifications,
  type ModificationResult,
  modificationsSchema,
  referencedVariables,
} from './modifications.ts';
import type { DesignDocument } from './schema.ts';
import { parseDesignDocument } from './validate.ts';

function parsed(raw: unknown): DesignDocument {
  const result = parseDesignDocument(raw);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.document;
}

function applied(result: ModificationResult): DesignDocument {
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.document;
}

/** The first element's given property after applying `mods` to a one-element document. */
function modified(element: Record<string, unknown>, mods: Record<string, string>, variables = {}) {
  const doc = applied(applyModifications(parsed(oneDoc([element], { variables })), mods));
  return doc.pages[0]?.elements[0];
}

const text = (value: string, name?: string) => ({ id: 't', type: 'text', ...box, text: value, name });

describe('applyModifications', () => {
  it('replaces {{name}} anywhere in a text', () => {
    expect(modified(text('Hi {{who}}, {{who}}!'), { who: 'Ada' })).toMatchObject({ text: 'Hi Ada, Ada!' });
  });

  it('tolerates whitespace inside the braces', () => {
    expect(modified(text('{{ who }} and {{who   }}'), { who: 'Ada' })).toMatchObject({ text: 'Ada and Ada' });
  });

  it('uses the document default for a placeholder without a value', () => {
    expect(modified(text('{{who}}'), {}, { who: 'Grace' })).toMatchObject({ text: 'Grace' });
  });

  it('prefers the given value over the document default', () => {
    expect(modified(text('{{who}}'), { who: 'Ada' }, { who: 'Grace' })).toMatchObject({ text: 'Ada' });
  });

  it('leaves a placeholder with neither value nor default as written', () => {
    expect(modified(text('{{ who }} {{}}'), { other: 'x' })).toMatchObject({ text: '{{ who }} {{}}' });
  });

  it('does not expand placeholders inside a value', () => {
    expect(modified(text('{{a}}'), { a: '{{b}}', b: 'no' })).toMatchObject({ text: '{{b}}' });
  });

  it('a text element named like the key takes the value as its whole text', () => {
    expect(modified(text('{{x}} and more', 'title'), { title: 'New', x: 'X' })).toMatchObject({
      text: 'New',
    });
  });

  it('an image named like the key takes the value as src', () => {
    const image = { id: 'i', type: 'image', name: 'photo', ...box, src: 'asset:old' };
    expect(modified(image, { photo: 'https://example.com/new.png' })).toMatchObject({
      src: 'https://example.com/new.png',
    });
  });

  it('a rect or ellipse named like the key takes the value as fill', () => {
    expect(modified({ id: 'r', type: 'rect', name: 'bg', ...box }, { bg: '#ff0000' })).toMatchObject({
      fill: '#ff0000',
    });
    expect(modified({ id: 'e', type: 'ellipse', name: 'bg', ...box }, { bg: 'rgb(1,2,3)' })).toMatchObject({
      fill: 'rgb(1,2,3)',
    });
  });

  it('a qr named like the key takes the value as its value', () => {
    expect(modified({ id: 'q', type: 'qr', name: 'link', ...box, value: 'a' }, { link: 'b' })).toMatchObject({
      value: 'b',
    });
  });

  it('a line or svg named like a key is left alone', () => {
    const line = { id: 'l', type: 'line', name: 'k', ...box };
    expect(modified(line, { k: '#ff0000' })).toMatchObject({ stroke: '#000000' });
  });

  it('ignores unknown keys and keys that only exist on Object.prototype', () => {
    const doc = parsed(oneDoc([text('{{constructor}}', 'toString')]));
    expect(applied(applyModifications(doc, { nobody: 'x' }))).toEqual(doc);
  });

  it('changes every element with that name, on every page', () => {
    const doc = applied(applyModifications(parsed(promoCard()), { headline: 'Winter' }));
    const titles = doc.pages.flatMap((page) =>
      page.elements.filter((element) => element.name === 'headline'),
    );
    expect(titles.map((element) => element.type === 'text' && element.text)).toEqual(['Winter', 'Winter']);
  });

  it('fills the promo card from its defaults when given nothing', () => {
    const doc = applied(applyModifications(parsed(promoCard()), {}));
    const cta = doc.pages[0]?.elements.find((element) => element.id === 'cta');
    expect(cta).toMatchObject({ text: 'Shop now' });
  });

  it('returns a new document and leaves the input untouched', () => {
    const doc = parsed(promoCard());
    const before = structuredClone(doc);
    const result = applied(applyModifications(doc, { headline: 'X', photo: 'asset:new', link: 'y' }));
    expect(doc).toEqual(before);
    expect(result).not.toBe(doc);
  });

  it('the result is still a valid document', () => {
    const result = applied(applyModifications(parsed(promoCard()), { headline: 'X', photo: 'asset:new' }));
    expect(parseDesignDocument(result)).toEqual({ ok: true, document: result });
  });

  it.each([
    ['a bad colour for a rect', { id: 'r', type: 'rect', name: 'bg', ...box }, 'nope'],
    [
      'a bad src for an image',
      { id: 'i', type: 'image', name: 'bg', ...box, src: 'asset:a' },
      'file:///etc/passwd',
    ],
    ['an empty qr value', { id: 'q', type: 'qr', name: 'bg', ...box, value: 'a' }, ''],
    ['a text over the limit', text('x', 'bg'), 'y'.repeat(10_001)],
  ])('reports %s at modifications.<key>', (_label, element, value) => {
    const result = applyModifications(parsed(oneDoc([element])), { bg: value });
    expect(result.ok ? [] : result.issues.map((issue) => issue.path)).toEqual(['modifications.bg']);
  });

  it('names the element and property in the message', () => {
    const result = applyModifications(parsed(oneDoc([{ id: 'r', type: 'rect', name: 'bg', ...box }])), {
      bg: 'red',
    });
    expect(result.ok ? '' : result.issues[0]?.message).toMatch(
      /^must be a colour.*\(the fill of element "r"\)$/,
    );
  });

  it('reports a text that grows past the limit through placeholders', () => {
    const value = 'y'.repeat(6000);
    const result = applyModifications(parsed(oneDoc([text('{{a}}{{a}}')])), { a: value });
    expect(result.ok ? [] : result.issues.map((i) => i.path)).toEqual(['pages[0].elements[0].text']);
    expect(result.ok ? '' : result.issues[0]?.message).toMatch(/12000 characters.*limit is 10000/);
  });

  it('measures the expansion before making it: 1,900 placeholders of 10,000 characters each', () => {
    const template = '{{a}}'.repeat(1900);
    const elements = Array.from({ length: 20 }, (_, i) => ({ ...text(template), id: `t${i}` }));
    const result = applyModifications(parsed(oneDoc(elements)), { a: 'x'.repeat(10_000) });
    // 19 million characters for each element: every one is named, none is built.
    const paths = result.ok ? [] : result.issues.map((i) => i.path);
    expect(paths).toEqual(elements.map((_, i) => `pages[0].elements[${i}].text`));
  });

  it('bounds the text of the whole document after modifications, naming where it went over', () => {
    const elements = Array.from({ length: 25 }, (_, i) => ({ ...text('{{a}}'), id: `t${i}` }));
    const ok = applyModifications(parsed(oneDoc(elements)), { a: 'x'.repeat(8000) });
    expect(ok.ok).toBe(true);
    const over = applyModifications(parsed(oneDoc(elements)), { a: 'x'.repeat(9000) });
    // 22 × 9,000 = 198,000 fits; the 23rd element takes the document over 200,000.
    expect(over.ok ? [] : over.issues).toEqual([
      { path: 'pages[0].elements[22].text', message: expect.stringContaining('200000') },
    ]);
  });

  it("counts a named text element's new value against the document budget too", () => {
    const elements = Array.from({ length: 21 }, (_, i) => ({ ...text('x', 'body'), id: `t${i}` }));
    const over = applyModifications(parsed(oneDoc(elements)), { body: 'x'.repeat(10_000) });
    expect(over.ok ? [] : over.issues.map((i) => i.path)).toEqual(['pages[0].elements[20].text']);
  });

  it('reports a non-string value instead of crashing', () => {
    const mods = { bg: 5 } as unknown as Record<string, string>;
    const result = applyModifications(parsed(oneDoc([{ id: 'r', type: 'rect', name: 'bg', ...box }])), mods);
    expect(result.ok ? [] : result.issues[0]?.path).toBe('modifications.bg');
  });
});

describe('modificationsSchema', () => {
  it('accepts up to 100 keys and refuses 101', () => {
    const mods = (count: number) =>
      Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, 'v']));
    expect(modificationsSchema.safeParse(mods(100)).success).toBe(true);
    expect(modificationsSchema.safeParse(mods(101)).success).toBe(false);
  });

  it.each([
    ['a value over 10000 characters', { a: 'x'.repeat(10_001) }],
    ['a key over 200 characters', { ['k'.repeat(201)]: 'v' }],
    ['a non-string value', { a: 1 }],
    ['an empty key', { '': 'v' }],
  ])('refuses %s', (_label, mods) => {
    expect(modificationsSchema.safeParse(mods).success).toBe(false);
  });
});

describe('canonicalModifications', () => {
  it('sorts entries by key so key order does not matter', () => {
    expect(canonicalModifications({ b: '2', a: '1', B: '3' })).toEqual([
      ['B', '3'],
      ['a', '1'],
      ['b', '2'],
    ]);
    expect(JSON.stringify(canonicalModifications({ x: '1', y: '2' }))).toBe(
      JSON.stringify(canonicalModifications({ y: '2', x: '1' })),
    );
  });

  it('treats absent modifications as empty', () => {
    expect(canonicalModifications(undefined)).toEqual(canonicalModifications({}));
  });
});

describe('referencedVariables', () => {
  it('lists placeholders and names of elements with a primary property, sorted and unique', () => {
    expect(referencedVariables(parsed(promoCard()))).toEqual(['cta', 'headline', 'link', 'photo']);
  });

  it('leaves out names of lines and svgs', () => {
    const doc = parsed(oneDoc([{ id: 'l', type: 'line', name: 'rule', ...box }, text('{{ a }}')]));
    expect(referencedVariables(doc)).toEqual(['a']);
  });
});
