import { describe, expect, it } from 'vitest';
import { box, oneDoc } from './fixtures/documents.ts';
import { parseDesignDocument } from './validate.ts';

/** Parses a one-element document and returns that element, failing the test on issues. */
function parseOne(element: Record<string, unknown>) {
  const result = parseDesignDocument(oneDoc([element]));
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.document.pages[0]?.elements[0];
}

/** The issues of a one-element document, which must be rejected. */
function issuesOf(element: Record<string, unknown>) {
  const result = parseDesignDocument(oneDoc([element]));
  if (result.ok) throw new Error('expected the document to be rejected');
  return result.issues;
}

const common = { rotation: 0, opacity: 1, visible: true, locked: false };

describe('element types and their defaults', () => {
  it('text', () => {
    expect(parseOne({ id: 't', type: 'text', ...box, text: 'Hi' })).toEqual({
      id: 't',
      type: 'text',
      ...box,
      ...common,
      text: 'Hi',
      fontFamily: 'Inter',
      fontSize: 32,
      fontWeight: 400,
      fontStyle: 'normal',
      color: '#000000',
      align: 'left',
      verticalAlign: 'top',
      lineHeight: 1.2,
      letterSpacing: 0,
      autoFit: 'none',
      minFontSize: 8,
      maxLines: null,
      textTransform: 'none',
    });
  });

  it('image', () => {
    expect(parseOne({ id: 'i', type: 'image', ...box, src: 'asset:ast_abc123' })).toEqual({
      id: 'i',
      type: 'image',
      ...box,
      ...common,
      src: 'asset:ast_abc123',
      fit: 'cover',
      cornerRadius: 0,
    });
  });

  it('rect', () => {
    expect(parseOne({ id: 'r', type: 'rect', ...box })).toEqual({
      id: 'r',
      type: 'rect',
      ...box,
      ...common,
      fill: '#000000',
      stroke: null,
      strokeWidth: 0,
      cornerRadius: 0,
    });
  });

  it('ellipse', () => {
    expect(parseOne({ id: 'e', type: 'ellipse', ...box, stroke: 'rgb(0, 0, 255)' })).toEqual({
      id: 'e',
      type: 'ellipse',
      ...box,
      ...common,
      fill: '#000000',
      stroke: 'rgb(0, 0, 255)',
      strokeWidth: 0,
    });
  });

  it('line, whose width and height may be negative', () => {
    expect(parseOne({ id: 'l', type: 'line', x: 50, y: 50, width: -40, height: -20 })).toEqual({
      id: 'l',
      type: 'line',
      x: 50,
      y: 50,
      width: -40,
      height: -20,
      ...common,
      stroke: '#000000',
      strokeWidth: 1,
      dash: [],
    });
  });

  it('svg', () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"/>';
    expect(parseOne({ id: 's', type: 'svg', ...box, svg })).toEqual({
      id: 's',
      type: 'svg',
      ...box,
      ...common,
      svg,
    });
  });

  it('qr', () => {
    expect(parseOne({ id: 'q', type: 'qr', ...box, value: 'https://example.com' })).toEqual({
      id: 'q',
      type: 'qr',
      ...box,
      ...common,
      value: 'https://example.com',
      color: '#000000',
      background: '#ffffff',
    });
  });

  it('keeps given values instead of defaults', () => {
    const given = { rotation: -45, opacity: 0.5, visible: false, locked: true, name: 'logo' };
    expect(parseOne({ id: 'r', type: 'rect', ...box, ...given, fill: 'transparent' })).toMatchObject({
      ...given,
      fill: 'transparent',
    });
  });

  it('fills defaults into a fresh array each time (no shared mutable default)', () => {
    const a = parseOne({ id: 'l', type: 'line', ...box });
    const b = parseOne({ id: 'l', type: 'line', ...box });
    if (a?.type !== 'line' || b?.type !== 'line') throw new Error('expected lines');
    a.dash.push(3);
    expect(b.dash).toEqual([]);
  });
});

describe('element rejections name the exact path', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['unknown key', { id: 'r', type: 'rect', ...box, colour: 'red' }, 'pages[0].elements[0].colour'],
    ['unknown type', { id: 'x', type: 'star', ...box }, 'pages[0].elements[0].type'],
    ['missing type', { id: 'x', ...box }, 'pages[0].elements[0].type'],
    ['bad colour', { id: 'r', type: 'rect', ...box, fill: 'red' }, 'pages[0].elements[0].fill'],
    ['bad enum', { id: 't', type: 'text', ...box, text: '', align: 'middle' }, 'pages[0].elements[0].align'],
    [
      'wrong type',
      { id: 't', type: 'text', ...box, text: '', fontSize: '12' },
      'pages[0].elements[0].fontSize',
    ],
    [
      'fontSize too big',
      { id: 't', type: 'text', ...box, text: '', fontSize: 5000 },
      'pages[0].elements[0].fontSize',
    ],
    [
      'fontWeight 950',
      { id: 't', type: 'text', ...box, text: '', fontWeight: 950 },
      'pages[0].elements[0].fontWeight',
    ],
    [
      'fontWeight 450.5',
      { id: 't', type: 'text', ...box, text: '', fontWeight: 450.5 },
      'pages[0].elements[0].fontWeight',
    ],
    ['maxLines 0', { id: 't', type: 'text', ...box, text: '', maxLines: 0 }, 'pages[0].elements[0].maxLines'],
    [
      'text too long',
      { id: 't', type: 'text', ...box, text: 'x'.repeat(10_001) },
      'pages[0].elements[0].text',
    ],
    [
      'text and spans',
      { id: 't', type: 'text', ...box, text: 'a', spans: [{ text: 'b' }] },
      'pages[0].elements[0].text',
    ],
    ['opacity 1.5', { id: 'r', type: 'rect', ...box, opacity: 1.5 }, 'pages[0].elements[0].opacity'],
    ['negative width', { id: 'r', type: 'rect', ...box, width: -1 }, 'pages[0].elements[0].width'],
    ['x out of range', { id: 'r', type: 'rect', ...box, x: 1e9 }, 'pages[0].elements[0].x'],
    ['missing x', { id: 'r', type: 'rect', y: 0, width: 1, height: 1 }, 'pages[0].elements[0].x'],
    ['empty id', { id: '', type: 'rect', ...box }, 'pages[0].elements[0].id'],
    ['long id', { id: 'x'.repeat(65), type: 'rect', ...box }, 'pages[0].elements[0].id'],
    ['bad src', { id: 'i', type: 'image', ...box, src: 'file:///etc/passwd' }, 'pages[0].elements[0].src'],
    [
      'non-image data URI',
      { id: 'i', type: 'image', ...box, src: 'data:text/html,<b>' },
      'pages[0].elements[0].src',
    ],
    [
      'bad fit',
      { id: 'i', type: 'image', ...box, src: 'asset:a', fit: 'stretch' },
      'pages[0].elements[0].fit',
    ],
    ['bad stroke', { id: 'e', type: 'ellipse', ...box, stroke: '#12' }, 'pages[0].elements[0].stroke'],
    ['bad dash', { id: 'l', type: 'line', ...box, dash: [4, -1] }, 'pages[0].elements[0].dash[1]'],
    ['not svg', { id: 's', type: 'svg', ...box, svg: '<div/>' }, 'pages[0].elements[0].svg'],
    ['empty qr', { id: 'q', type: 'qr', ...box, value: '' }, 'pages[0].elements[0].value'],
    [
      'qr bad colour',
      { id: 'q', type: 'qr', ...box, value: 'v', background: '#ggg' },
      'pages[0].elements[0].background',
    ],
    ['element with no fields', {}, 'pages[0].elements[0].type'],
  ];
  it.each(cases)('%s', (_label, element, path) => {
    expect(issuesOf(element).map((issue) => issue.path)).toContain(path);
  });

  it('an element that is not an object', () => {
    const result = parseDesignDocument(oneDoc([null]));
    expect(result.ok ? [] : result.issues.map((issue) => issue.path)).toEqual(['pages[0].elements[0]']);
  });

  it('says which element types exist', () => {
    const [issue] = issuesOf({ id: 'x', type: 'star', ...box });
    expect(issue?.message).toBe(
      'must be one of: text, image, rect, ellipse, line, svg, qr, barcode, video, group',
    );
  });

  it('reports each unknown key on its own', () => {
    const issues = issuesOf({ id: 'r', type: 'rect', ...box, a: 1, b: 2 });
    expect(issues).toEqual([
      { path: 'pages[0].elements[0].a', message: 'unknown key' },
      { path: 'pages[0].elements[0].b', message: 'unknown key' },
    ]);
  });
});

describe('image sources', () => {
  const accepted = [
    'asset:ast_0123456789abcdef',
    'https://example.com/a.png',
    'http://localhost:8080/a.png',
    'data:image/png;base64,iVBORw0KGgo=',
    "data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg'/>",
  ];
  it.each(accepted)('accepts %s', (src) => {
    expect(parseOne({ id: 'i', type: 'image', ...box, src })).toMatchObject({ src });
  });

  const refused = [
    '',
    'asset:',
    'asset:a b',
    'ftp://example.com/a.png',
    'https://',
    '/relative.png',
    'javascript:alert(1)',
  ];
  it.each(refused)('refuses %j', (src) => {
    expect(issuesOf({ id: 'i', type: 'image', ...box, src })[0]).toEqual({
      path: 'pages[0].elements[0].src',
      message: 'must be asset:<id>, an https URL or a data:image URI',
    });
  });
});
