/**
 * Rendering through the SDK against a real server: a sync render charged once and its identical
 * repeat free, `renderAndWait` (charged at acceptance, polled until done), a failed background
 * render surfacing its code (and refunded), a wait that times out or is aborted, and the render
 * history and usage.
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { startOrigin, startTestServer, type TestServer } from '../../../test/harness/server.ts';
import {
  PlatenError,
  PlatenTimeoutError,
  type RenderOutput,
  type RenderPages,
  type RenderResult,
} from '../src/index.ts';
import { caught, sdkWorkspace, withImage } from './setup.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('sqlite');
});
afterAll(() => server.close());

describe('Platen.render', () => {
  it('renders a PNG, charges one credit, and answers an identical repeat for free', async () => {
    const { platen, templateId, ledger } = await sdkWorkspace(server, 5);
    const first = await platen.render(templateId, { format: 'png', modifications: { headline: 'Hello' } });
    // One file unless allPages: the request's type says which answer comes.
    expectTypeOf(first).toEqualTypeOf<RenderResult>();
    expect(first).toMatchObject({ templateId, format: 'png', width: 400, height: 300 });
    expect(first.credits).toEqual({ charged: 1, balanceAfter: 4 });
    const file = await fetch(first.url ?? '');
    expect(file.headers.get('content-type')).toBe('image/png');
    const again = await platen.render(templateId, { modifications: { headline: 'Hello' }, format: 'png' });
    expect(again).toMatchObject({ id: first.id, url: first.url, credits: { charged: 0, balanceAfter: 4 } });
    expect(await ledger()).toEqual([5, -1]);
    const read = await platen.renders.get(first.id);
    expect(read).toMatchObject({ id: first.id, url: first.url, credits: { charged: 0 } });
  });

  it('answers {pages} for allPages in PNG, one file for allPages in PDF', async () => {
    const { platen, templateId } = await sdkWorkspace(server, 5);
    const pages = await platen.render(templateId, { allPages: true });
    expectTypeOf(pages).toEqualTypeOf<RenderPages>();
    expect(pages.pages.map((page) => page.format)).toEqual(['png']);
    const pdf = await platen.render(templateId, { allPages: true, format: 'pdf' });
    expectTypeOf(pdf).toEqualTypeOf<RenderResult>();
    expect(pdf).toMatchObject({ format: 'pdf', credits: { charged: 1 } });
    const unknown: boolean = pages.pages.length > 0;
    expectTypeOf(await platen.render(templateId, { allPages: unknown })).toEqualTypeOf<RenderOutput>();
  });

  it('answers one file for a video, of every page with allPages, with its length and frames', async () => {
    const { platen, templateId } = await sdkWorkspace(server, 5);
    const gif = await platen.render(templateId, { allPages: true, format: 'gif', fps: 2, dither: false });
    expectTypeOf(gif).toEqualTypeOf<RenderResult>();
    // A page without a durationMs plays 5 s in a video: 10 frames at 2 a second.
    expect(gif).toMatchObject({ format: 'gif', durationMs: 5000, frames: 10, credits: { charged: 1 } });
    expect((await fetch(gif.url ?? '')).headers.get('content-type')).toBe('image/gif');
  });
});

describe('Platen.renderAndWait', () => {
  it('renders in the background and answers the result with what it charged', async () => {
    const { platen, templateId, ledger } = await sdkWorkspace(server, 5);
    const done = await platen.renderAndWait(
      templateId,
      { format: 'jpeg', modifications: { headline: 'Later' } },
      { pollIntervalMs: 50, timeoutMs: 20_000 },
    );
    expect(done).toMatchObject({ templateId, format: 'jpeg', credits: { charged: 1, balanceAfter: 4 } });
    expect((await fetch(done.url ?? '')).headers.get('content-type')).toBe('image/jpeg');
    // The same request again is the same render, done already and free.
    const again = await platen.renderAndWait(templateId, {
      format: 'jpeg',
      modifications: { headline: 'Later' },
    });
    expect(again).toMatchObject({ id: done.id, url: done.url, credits: { charged: 0 } });
    expect(await ledger()).toEqual([5, -1]);
    const history = await platen.renders.list({ limit: 10 });
    expect(history.items).toEqual([expect.objectContaining({ id: done.id, status: 'done', source: 'api' })]);
    const usage = await platen.usage({ days: 1 });
    expect(usage.days).toEqual([
      expect.objectContaining({ format: 'jpeg', source: 'api', renders: 1, credits: 1 }),
    ]);
  });

  it('throws the failed render’s own code, and the render was refunded', async () => {
    const origin = await startOrigin((_req, res) => res.writeHead(500).end());
    try {
      const { platen, templateId, ledger } = await sdkWorkspace(
        server,
        5,
        withImage(`${origin.base}/broken.png`),
      );
      const error = await caught(
        platen.renderAndWait(templateId, {}, { pollIntervalMs: 50, timeoutMs: 20_000 }),
      );
      expect(error).toBeInstanceOf(PlatenError);
      expect(error).toMatchObject({ status: 422, code: 'RENDER_FAILED' });
      expect(await ledger()).toEqual([5, -1, 1]);
    } finally {
      await origin.close();
    }
  });

  it('gives up after timeoutMs, and stops at once when its signal aborts', async () => {
    // An image that takes long to arrive keeps the background render pending.
    const origin = await startOrigin((_req, res) => {
      setTimeout(() => res.writeHead(500).end(), 1_500);
    });
    try {
      const { platen, templateId } = await sdkWorkspace(server, 5, withImage(`${origin.base}/slow.png`));
      const job = await platen.renders.start(templateId);
      expect(job).toMatchObject({ status: 'pending', credits: { charged: 1 } });
      const timedOut = await caught(platen.renders.wait(job, { pollIntervalMs: 50, timeoutMs: 200 }));
      expect(timedOut).toBeInstanceOf(PlatenTimeoutError);
      expect(timedOut).toMatchObject({ waitingFor: `render ${job.id}`, timeoutMs: 200 });
      const controller = new AbortController();
      const waiting = caught(platen.renders.wait(job.id, { pollIntervalMs: 50, signal: controller.signal }));
      const reason = new Error('the caller gave up');
      setTimeout(() => controller.abort(reason), 100);
      expect(await waiting).toBe(reason);
    } finally {
      await origin.close();
    }
  });
});
