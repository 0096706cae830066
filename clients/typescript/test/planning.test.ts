/** Planning before spending through the SDK against a real server: variables, estimate, a service-signed URL. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness/server.ts';
import { PlatenError } from '../src/index.ts';
import { caught, sdkWorkspace } from './setup.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('sqlite');
});
afterAll(() => server.close());

describe('platen.templates.variables, platen.renders.estimate and signedUrl', () => {
  it('reads the variables, estimates without charging, and signs a URL that renders', async () => {
    const { platen, admin, workspaceId, templateId, ledger } = await sdkWorkspace(server, 10);
    const { variables } = await platen.templates.variables(templateId);
    expect(variables.find((v) => v.name === 'name')).toMatchObject({ kind: 'text', default: null });

    const preview = await platen.templates.preview(templateId, {
      format: 'jpeg',
      modifications: { name: 'p' },
    });
    expect([preview[0], preview[1]]).toEqual([0xff, 0xd8]);

    const checked = await platen.templates.preflight(templateId, {
      rows: [{ name: 'fine' }, { name: 'สวัสดี' }],
    });
    expect(checked.rowsWithErrors).toEqual([1]);
    expect(checked.findings[0]).toMatchObject({ code: 'missing-glyphs', row: 1, severity: 'error' });

    const estimate = await platen.renders.estimate(templateId, { rows: [{ name: 'a' }, { name: 'a' }] });
    expect(estimate).toEqual({ renders: 2, files: 2, credits: 1, identical: 1, balance: 10, enough: true });
    expect(await ledger()).toEqual([10]);

    const missing = await caught(platen.renders.signedUrl(templateId, { format: 'png' }));
    expect(missing).toBeInstanceOf(PlatenError);
    expect(missing).toMatchObject({ status: 409, code: 'CONFLICT' });
    await admin.urlSigningSecrets.create(workspaceId, {});
    const signed = await platen.renders.signedUrl(templateId, {
      format: 'png',
      modifications: { name: 'b' },
    });
    const source = await platen.assets.upload(
      new Uint8Array(await (await fetch(signed.url)).arrayBuffer()),
      'image/png',
    );
    const copy = await platen.assets.uploadFromUrl(source.url);
    expect([copy.kind, copy.width]).toEqual(['image', 400]);
    const image = await fetch(signed.url);
    expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/png']);
  });
});
