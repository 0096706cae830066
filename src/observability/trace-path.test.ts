import { describe, expect, it } from 'vitest';
import { pathForTrace } from './tracing.ts';

describe('pathForTrace', () => {
  it('keeps routes and ids, and redacts capability paths and tokens as the logs do', () => {
    expect(pathForTrace('/v1/templates/tpl_abc?x=1')).toBe('/v1/templates/tpl_abc');
    for (const secret of [
      '/console/reset/Zm9vYmFyYmF6cXV4c2VjcmV0',
      '/console/setup/Zm9vYmFyYmF6cXV4c2VjcmV0',
      '/files/renders/ren_1/page-1.png',
    ])
      expect(pathForTrace(secret)).not.toContain(secret.split('/').at(-1));
  });
});
