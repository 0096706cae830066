import { describe, expect, it } from 'vitest';
import { applyModifications } from './modifications.ts';
import { parseDesignDocument } from './validate.ts';
import { templateVariables } from './variables.ts';

function documentOf(raw: unknown) {
  const parsed = parseDesignDocument(raw);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.document;
}

const doc = documentOf({
  schemaVersion: 2,
  activePageId: 'p1',
  variables: { name: 'friend' },
  pages: [
    {
      id: 'p1',
      width: 800,
      height: 600,
      elements: [
        { id: 'bg', type: 'rect', name: 'card', x: 0, y: 0, width: 800, height: 600, fill: '#112233' },
        {
          id: 't1',
          type: 'text',
          name: 'headline',
          x: 10,
          y: 10,
          width: 500,
          height: 120,
          text: 'Hello {{name}}, {{ city }}',
          fontSize: 48,
          autoFit: 'shrink',
          minFontSize: 20,
          maxLines: 2,
        },
        {
          id: 'g1',
          type: 'group',
          x: 0,
          y: 300,
          width: 400,
          height: 300,
          elements: [
            {
              id: 'ph',
              type: 'image',
              name: 'photo',
              x: 0,
              y: 0,
              width: 400,
              height: 300,
              src: 'asset:ast_x',
            },
            {
              id: 'q',
              type: 'qr',
              name: 'link',
              x: 0,
              y: 0,
              width: 100,
              height: 100,
              value: 'https://a.example',
            },
          ],
        },
      ],
    },
    {
      id: 'p2',
      width: 800,
      height: 600,
      elements: [
        { id: 't2', type: 'text', x: 0, y: 0, width: 300, height: 50, text: 'Bye {{name}}', fontSize: 10 },
      ],
    },
  ],
});

describe('templateVariables', () => {
  const variables = templateVariables(doc);
  const byName = new Map(variables.map((variable) => [variable.name, variable]));

  it('lists every key a modification acts on, sorted, with its kind and default', () => {
    expect(variables.map((v) => [v.name, v.kind, v.default])).toEqual([
      ['card', 'color', '#112233'],
      ['card.visible', 'visibility', 'true'],
      ['city', 'text', null],
      ['headline', 'text', 'Hello {{name}}, {{ city }}'],
      ['headline.color', 'color', '#000000'],
      ['headline.visible', 'visibility', 'true'],
      ['link', 'text', 'https://a.example'],
      ['link.color', 'color', '#000000'],
      ['link.visible', 'visibility', 'true'],
      ['name', 'text', 'friend'],
      ['photo', 'image', 'asset:ast_x'],
      ['photo.visible', 'visibility', 'true'],
    ]);
  });

  it('gives each target its box and, for text, its size and auto-fit limits, nested and on every page', () => {
    expect(byName.get('name')?.targets).toEqual([
      {
        pageId: 'p1',
        elementId: 't1',
        elementType: 'text',
        property: 'text',
        box: { width: 500, height: 120 },
        text: { fontFamily: 'Inter', fontSize: 48, autoFit: 'shrink', minFontSize: 20, maxLines: 2 },
      },
      {
        pageId: 'p2',
        elementId: 't2',
        elementType: 'text',
        property: 'text',
        box: { width: 300, height: 50 },
        text: { fontFamily: 'Inter', fontSize: 10, autoFit: 'none', minFontSize: 8, maxLines: null },
      },
    ]);
    expect(byName.get('photo')?.targets).toEqual([
      {
        pageId: 'p1',
        elementId: 'ph',
        elementType: 'image',
        property: 'src',
        box: { width: 400, height: 300 },
      },
    ]);
  });

  it('names only keys that change the document when given', () => {
    const values: Record<string, string> = {
      card: '#ff0000',
      'card.visible': 'false',
      city: 'Paris',
      headline: 'New',
      'headline.color': '#00ff00',
      'headline.visible': 'false',
      link: 'https://b.example',
      'link.color': '#0000ff',
      'link.visible': 'false',
      name: 'Ann',
      photo: 'https://img.example/x.png',
      'photo.visible': 'false',
    };
    const base = JSON.stringify(applyModifications(doc, {}));
    for (const variable of variables) {
      const value = values[variable.name];
      expect(value, variable.name).toBeDefined();
      const changed = applyModifications(doc, { [variable.name]: value as string });
      expect(changed.ok, variable.name).toBe(true);
      expect(JSON.stringify(changed), variable.name).not.toBe(base);
    }
  });
});
