import { describe, expect, it } from 'vitest';
import { type Gradient, paintSchema } from '../../../src/engine/browser.ts';
import { addStop, cssPaint, MAX_STOPS, removeStop, setStop, withKind } from './paint-ops.ts';

describe('paint editing', () => {
  it('switches between solid, linear and radial keeping the colours', () => {
    const linear = withKind('#112233', 'linear') as Gradient;
    expect(linear).toEqual({
      type: 'linear',
      angle: 180,
      stops: [
        { offset: 0, color: '#112233' },
        { offset: 1, color: '#ffffff' },
      ],
    });
    expect(paintSchema.safeParse(linear).success).toBe(true);
    const radial = withKind(linear, 'radial');
    expect(radial).toMatchObject({ type: 'radial', stops: linear.stops });
    expect(withKind(radial, 'solid')).toBe('#112233');
    expect(cssPaint(linear)).toBe('linear-gradient(180deg, #112233 0%, #ffffff 100%)');
  });

  it('adds stops in the widest gap up to 16 and removes them down to 2', () => {
    let g = withKind('#000000', 'linear') as Gradient;
    g = addStop(g);
    expect(g.stops.map((s) => s.offset)).toEqual([0, 0.5, 1]);
    for (let i = 0; i < 30; i++) g = addStop(g);
    expect(g.stops).toHaveLength(MAX_STOPS);
    expect(paintSchema.safeParse(g).success).toBe(true);
    for (let i = 0; i < 30; i++) g = removeStop(g, 0);
    expect(g.stops).toHaveLength(2);
  });

  it('keeps stops in offset order when one moves past another', () => {
    const g = setStop(addStop(withKind('#000000', 'radial') as Gradient), 2, {
      offset: 0.25,
      color: '#ff0000',
    });
    expect(g.stops).toEqual([
      { offset: 0, color: '#000000' },
      { offset: 0.25, color: '#ff0000' },
      { offset: 0.5, color: '#000000' },
    ]);
    // Offsets past the ends are clamped to 0-1.
    expect(setStop(g, 0, { offset: -2 }).stops[0]?.offset).toBe(0);
  });
});
