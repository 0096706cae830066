/**
 * What a failed call throws, against a real server: `PlatenError` with the API's code, status,
 * message, request id and details (INVALID_API_KEY, NOT_FOUND, PRECONDITION_FAILED,
 * VALIDATION_FAILED, INSUFFICIENT_CREDITS, UNAUTHORIZED), and `PlatenConnectionError` when nothing
 * answers at all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleDocument } from '../../../test/fixtures/samples.ts';
import { freePort, startTestServer, type TestServer } from '../../../test/harness/server.ts';
import { Platen, PlatenAdmin, PlatenConnectionError, PlatenError } from '../src/index.ts';
import { caught, sdkWorkspace } from './setup.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('sqlite');
});
afterAll(() => server.close());

/** The PlatenError a call rejects with (anything else fails the test). */
async function apiError(promise: Promise<unknown>): Promise<PlatenError> {
  const error = await caught(promise);
  expect(error).toBeInstanceOf(PlatenError);
  return error as PlatenError;
}

describe('PlatenError', () => {
  it('INVALID_API_KEY for an unknown key, with the request id the service logged', async () => {
    const stranger = new Platen({ baseUrl: server.base, apiKey: 'plt_unknown0000000000000000' });
    const error = await apiError(stranger.templates.list());
    expect(error).toMatchObject({ status: 403, code: 'INVALID_API_KEY', name: 'PlatenError' });
    expect(error.requestId).toMatch(/^req_/);
    expect(error.message).not.toBe('');
  });

  it('NOT_FOUND for an unknown template and render', async () => {
    const { platen } = await sdkWorkspace(server);
    expect(await apiError(platen.templates.get('tpl_0000000000000000000000'))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
    expect(await apiError(platen.render('tpl_0000000000000000000000'))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await apiError(platen.renders.get('rnd_0000000000000000000000'))).toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('PRECONDITION_FAILED when a save names a revision that is no longer the latest', async () => {
    const { platen, templateId } = await sdkWorkspace(server);
    const saved = await platen.templates.save(templateId, { document: simpleDocument('v2') }, { ifMatch: 1 });
    expect(saved.revision).toBe(2);
    const stale = await apiError(
      platen.templates.save(templateId, { document: simpleDocument('v3') }, { ifMatch: 1 }),
    );
    expect(stale).toMatchObject({ status: 412, code: 'PRECONDITION_FAILED' });
    expect((await platen.templates.get(templateId)).revision).toBe(2);
  });

  it('VALIDATION_FAILED with the offending field in details', async () => {
    const { platen, templateId } = await sdkWorkspace(server);
    const error = await apiError(platen.render(templateId, { scale: 10 }));
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(error.details).toEqual([expect.objectContaining({ path: 'scale', message: expect.any(String) })]);
  });

  it('INSUFFICIENT_CREDITS for a render or a batch the balance cannot pay, charging nothing', async () => {
    const { platen, templateId, ledger } = await sdkWorkspace(server, 1);
    await platen.render(templateId);
    expect(await apiError(platen.render(templateId, { format: 'pdf' }))).toMatchObject({
      status: 402,
      code: 'INSUFFICIENT_CREDITS',
    });
    const batch = await apiError(
      platen.batches.create(templateId, { rows: [{ headline: 'A' }, { headline: 'B' }] }),
    );
    expect(batch).toMatchObject({ code: 'INSUFFICIENT_CREDITS', details: { required: 2, balance: 0 } });
    expect(await ledger()).toEqual([1, -1]);
  });

  it('UNAUTHORIZED for the operator API without the admin token', async () => {
    const admin = new PlatenAdmin({ baseUrl: server.base, adminToken: 'not-the-token' });
    expect(await apiError(admin.workspaces.list())).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });
});

describe('PlatenConnectionError', () => {
  it('is thrown when nothing listens at the base URL', async () => {
    const port = await freePort();
    const platen = new Platen({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'plt_whatever' });
    const error = await caught(platen.render('tpl_0000000000000000000000'));
    expect(error).toBeInstanceOf(PlatenConnectionError);
    expect(error).not.toBeInstanceOf(PlatenError);
    expect((error as PlatenConnectionError).message).toContain(`could not reach http://127.0.0.1:${port}`);
  });

  it('a client without a key or with a base URL that is no http(s) URL is refused up front', () => {
    expect(() => new Platen({ baseUrl: server.base, apiKey: '' })).toThrow(TypeError);
    expect(() => new Platen({ baseUrl: 'platen.example.com', apiKey: 'plt_x' })).toThrow(/absolute URL/);
    expect(() => new PlatenAdmin({ baseUrl: 'ftp://example.com', adminToken: 't' })).toThrow(/http/);
  });
});
