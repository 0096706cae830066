import { describe, expect, it } from 'vitest';
import { SVG_MAX_FILTER_WORK, svgFilterCost, svgFilterWork } from './filters.ts';
import { parseXml } from './xml.ts';

const cost = (body: string) =>
  svgFilterCost(parseXml(`<svg xmlns="http://www.w3.org/2000/svg">${body}</svg>`));
const rect = (attrs = 'filter="url(#f)"') => `<rect width="10" height="10" ${attrs}/>`;

describe('svgFilterCost', () => {
  it('costs nothing without filters, or with a filter nobody uses', () => {
    expect(cost(rect('fill="red"'))).toEqual({ fixed: 0, perScale: 0 });
    expect(cost(`<filter id="f"><feGaussianBlur stdDeviation="3"/></filter>${rect('')}`)).toEqual({
      fixed: 0,
      perScale: 0,
    });
  });

  it('counts a pass per turbulence octave, per element using the filter', () => {
    const filter = '<filter id="f"><feTurbulence numOctaves="200"/></filter>';
    expect(cost(filter + rect())).toEqual({ fixed: 200, perScale: 0 });
    expect(cost(filter + rect() + rect('style="filter: url(\'#f\')"'))).toEqual({ fixed: 400, perScale: 0 });
  });

  it('grows morphology with its radius in device pixels and convolution with its kernel', () => {
    expect(cost(`<filter id="f"><feMorphology radius="100"/></filter>${rect()}`)).toEqual({
      fixed: 1,
      perScale: 50,
    });
    expect(cost(`<filter id="f"><feConvolveMatrix order="20"/></filter>${rect()}`).fixed).toBe(101);
  });

  it('is conservative for style sheets and <use>', () => {
    const filter = '<filter id="f"><feGaussianBlur stdDeviation="3"/></filter>';
    const sheet = cost(`<style>.a { filter: url(#f) }</style>${filter}${rect('class="a"')}`);
    expect(sheet.fixed).toBeGreaterThanOrEqual(3 * 4);
    const used = cost(`${filter}<g id="g">${rect()}</g><use href="#g"/><use href="#g"/>`);
    expect(used.fixed).toBe(9);
  });

  it('puts a 200-octave turbulence at 2000x2000 far over the limit, a drop shadow far under it', () => {
    const turbulence = cost(`<filter id="f"><feTurbulence numOctaves="200"/></filter>${rect()}`);
    expect(svgFilterWork(turbulence, 4_000_000, 1)).toBeGreaterThan(SVG_MAX_FILTER_WORK);
    const shadow = cost(
      `<filter id="f"><feGaussianBlur stdDeviation="4"/><feOffset dx="2"/></filter>${rect()}`,
    );
    expect(svgFilterWork(shadow, 4_000_000, 1)).toBeLessThan(SVG_MAX_FILTER_WORK / 10);
  });
});
