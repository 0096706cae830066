/**
 * Golden and plans for inline SVG: paths, basic shapes, groups, transforms, strokes, dashes and
 * gradients are drawn as vector ops; markup beyond that subset (here <text> and a filter) is
 * rasterised at output resolution; preserveAspectRatio places the viewBox in the element box.
 */
import { describe, expect, it } from 'vitest';
import { planSvgDrawing, readSvg } from '../layout/index.ts';
import { compareGolden, pageDocument, renderPng } from './harness.ts';

const VECTOR = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 120">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#0ea5e9"/><stop offset="100%" stop-color="#e0f2fe"/></linearGradient>
    <radialGradient id="sun"><stop offset="0%" stop-color="#fde047"/><stop offset="1" stop-color="#f97316" stop-opacity="0.8"/></radialGradient>
  </defs>
  <rect width="200" height="120" rx="12" fill="url(#sky)"/>
  <circle cx="150" cy="38" r="22" fill="url(#sun)"/>
  <g transform="translate(0 70)" fill="#166534" stroke="#052e16" stroke-width="2">
    <path d="M0 50 L40 0 L80 50 Z"/>
    <polygon points="60,50 100,8 140,50" style="fill:#15803d"/>
  </g>
  <polyline points="10,20 40,30 70,15 100,28" fill="none" stroke="#ffffff" stroke-width="3" stroke-linecap="round" stroke-dasharray="6 4"/>
  <ellipse cx="40" cy="105" rx="30" ry="8" fill="black" opacity="0.25" transform="rotate(-5 40 105)"/>
</svg>`;

const RASTER = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 80">
  <defs><filter id="blur"><feGaussianBlur stdDeviation="3"/></filter></defs>
  <rect x="10" y="10" width="180" height="60" fill="#7c3aed" filter="url(#blur)"/>
  <circle cx="40" cy="40" r="20" fill="#fbbf24"/>
</svg>`;

const WIDE = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50"><rect width="100" height="50" fill="#be123c"/><circle cx="50" cy="25" r="20" fill="#fff"/></svg>`;

describe('inline SVG', () => {
  it('keeps paths, shapes and gradients vector and rasterises filters', () => {
    const box = { x: 0, y: 0, width: 200, height: 120 };
    expect(planSvgDrawing(readSvg(VECTOR), box).kind).toBe('vector');
    const raster = planSvgDrawing(readSvg(RASTER), box);
    expect(raster).toMatchObject({ kind: 'raster', reason: 'filter' });
  });

  it('matches the golden', async () => {
    const doc = pageDocument({
      width: 600,
      height: 420,
      background: '#f8fafc',
      elements: [
        { id: 'vector', type: 'svg', x: 20, y: 20, width: 360, height: 216, svg: VECTOR },
        { id: 'raster', type: 'svg', x: 400, y: 20, width: 180, height: 72, svg: RASTER },
        { id: 'meet-frame', type: 'rect', x: 400, y: 120, width: 180, height: 140, fill: '#e2e8f0' },
        { id: 'meet', type: 'svg', x: 400, y: 120, width: 180, height: 140, svg: WIDE },
        { id: 'slice-frame', type: 'rect', x: 20, y: 260, width: 160, height: 140, fill: '#e2e8f0' },
        {
          id: 'slice',
          type: 'svg',
          x: 20,
          y: 260,
          width: 160,
          height: 140,
          svg: WIDE.replace('<svg ', '<svg preserveAspectRatio="xMinYMin slice" '),
        },
        {
          id: 'stretch',
          type: 'svg',
          x: 200,
          y: 260,
          width: 380,
          height: 140,
          svg: WIDE.replace('<svg ', '<svg preserveAspectRatio="none" '),
          rotation: 4,
        },
      ],
    });
    const file = await renderPng(doc);
    const result = await compareGolden('svg', file.bytes);
    expect(result.message).toBe(result.pass ? result.message : 'match');
  });
});
