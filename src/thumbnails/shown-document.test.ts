import { describe, expect, it } from 'vitest';
import { parseDesignDocument } from '../design/index.ts';
import { shownDocument } from './service.ts';

describe('the document a thumbnail draws', () => {
  it('never plays a clip: video elements, in groups too, are dark placeholders of their box', () => {
    const parsed = parseDesignDocument({
      schemaVersion: 2,
      pages: [
        {
          id: 'p',
          width: 100,
          height: 100,
          elements: [
            { id: 'v', type: 'video', src: 'asset:clip', x: 1, y: 2, width: 30, height: 40, cornerRadius: 5 },
            {
              id: 'g',
              type: 'group',
              x: 0,
              y: 0,
              width: 100,
              height: 100,
              elements: [{ id: 'w', type: 'video', src: 'asset:other', x: 0, y: 0, width: 10, height: 10 }],
            },
          ],
        },
      ],
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const [video, group] = shownDocument(parsed.document).pages[0]?.elements ?? [];
    expect(video).toMatchObject({
      id: 'v',
      type: 'rect',
      x: 1,
      y: 2,
      width: 30,
      height: 40,
      cornerRadius: 5,
    });
    expect(video).not.toHaveProperty('src');
    expect(group?.type === 'group' && group.elements[0]?.type).toBe('rect');
  });
});
