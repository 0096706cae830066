/**
 * Video renders over HTTP with the real service (issue "Motion"): mp4, webm and gif of a small
 * animated template, checked with ffprobe (codec, size, frame rate, frames, duration); the result's
 * `durationMs` and `frames`; one file and one credit for every page as scenes; identical renders
 * free and any option changed charged; background renders, batches, a signed `image.mp4`, the MCP
 * tool as a GIF; stills at `timeMs`. Every bad input answers 400 before any work and charges nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUrl } from '../src/auth/index.ts';
import { loadConfig } from '../src/core/config.ts';
import { imageInfo } from './harness/images.ts';
import { accessTokenFor, rawMcp } from './harness/mcp.ts';
import { createUser } from './harness/oauth.ts';
import {
  admin,
  bearer,
  http,
  startOrigin,
  startTestServer,
  type TestServer,
  workspaceWithKey,
} from './harness/server.ts';
import { eventually } from './harness/webhooks.ts';
import { animatedDocument, animatedPage, mp4Boxes, probeVideo } from './render-video-fixtures.ts';

let server: TestServer;
let key: string;
let workspaceId: string;
let templateId: string;

const render = (id: string, body: unknown, k = key) =>
  http(server.base, 'POST', `/v1/templates/${id}/render`, { body, headers: bearer(k) });
const balance = async (ws = workspaceId) =>
  (await admin(server.base, 'GET', `/workspaces/${ws}`)).json.creditBalance as number;
const download = async (url: string) => {
  const response = await fetch(url);
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    bytes: new Uint8Array(await response.arrayBuffer()),
  };
};
async function createTemplate(document: unknown, k = key): Promise<string> {
  const created = await http(server.base, 'POST', '/v1/templates', {
    body: { name: 'motion', document },
    headers: bearer(k),
  });
  if (created.status !== 201) throw new Error(`template: ${created.status} ${created.bytes.toString()}`);
  return created.json.id;
}

beforeAll(async () => {
  server = await startTestServer();
  ({ key, workspaceId } = await workspaceWithKey(server.base, { credits: 1000 }));
  templateId = await createTemplate(animatedDocument());
});
afterAll(() => server.close());

describe('video formats', () => {
  it('renders an MP4 (H.264, yuv420p, faststart) of the page, one credit, with durationMs and frames', async () => {
    const before = await balance();
    const res = await render(templateId, { format: 'mp4', fps: 10, modifications: { name: 'mp4' } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      templateId,
      format: 'mp4',
      width: 320,
      height: 180,
      durationMs: 1000,
      frames: 10,
      credits: { charged: 1, balanceAfter: before - 1 },
    });
    expect(res.json.url).toMatch(/\.mp4$/);
    const file = await download(res.json.url);
    expect([file.status, file.type, file.bytes.length]).toEqual([200, 'video/mp4', res.json.byteSize]);
    const probe = await probeVideo(file.bytes);
    expect(probe).toMatchObject({ codec: 'h264', pixelFormat: 'yuv420p', width: 320, height: 180, fps: 10 });
    expect(probe.frames).toBe(10);
    expect(Math.abs(probe.durationMs - 1000)).toBeLessThanOrEqual(100);
    // +faststart: the index comes before the media, so a player starts before the download ends.
    const boxes = mp4Boxes(file.bytes);
    expect(boxes.indexOf('moov')).toBeGreaterThanOrEqual(0);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
    expect(await balance()).toBe(before - 1);
  });

  it('renders a WebM (VP9)', async () => {
    const res = await render(templateId, { format: 'webm', fps: 10 });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ format: 'webm', width: 320, height: 180, durationMs: 1000, frames: 10 });
    const file = await download(res.json.url);
    expect([file.status, file.type]).toEqual([200, 'video/webm']);
    const probe = await probeVideo(file.bytes);
    expect(probe).toMatchObject({ codec: 'vp9', width: 320, height: 180 });
    expect(probe.frames).toBe(10);
  });

  it('renders a GIF at 15 frames a second by default', async () => {
    const res = await render(templateId, { format: 'gif' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ format: 'gif', width: 320, height: 180, durationMs: 1000, frames: 15 });
    const file = await download(res.json.url);
    expect([file.status, file.type]).toEqual([200, 'image/gif']);
    const probe = await probeVideo(file.bytes);
    expect(probe).toMatchObject({ codec: 'gif', width: 320, height: 180 });
    expect(probe.frames).toBe(15);
  });

  it('makes every page one video, scenes in order: one file, one credit', async () => {
    const twoScenes = await createTemplate(
      animatedDocument([animatedPage('a', { durationMs: 600 }), animatedPage('b', { durationMs: 400 })]),
    );
    const before = await balance();
    const res = await render(twoScenes, { format: 'mp4', fps: 10, allPages: true });
    expect(res.status).toBe(200);
    expect(res.json.pages).toBeUndefined();
    expect(res.json).toMatchObject({ format: 'mp4', durationMs: 1000, frames: 10, credits: { charged: 1 } });
    expect((await probeVideo((await download(res.json.url)).bytes)).frames).toBe(10);
    expect(await balance()).toBe(before - 1);
    // The second page alone is its own, shorter video.
    const second = await render(twoScenes, { format: 'mp4', fps: 10, pageId: 'b' });
    expect(second.json).toMatchObject({ durationMs: 400, frames: 4, credits: { charged: 1 } });
  });
});

describe('credits and identical renders', () => {
  it('replays an identical video for free; fps, quality and dither each make another', async () => {
    const body = { format: 'gif', fps: 10, modifications: { name: 'same' } };
    const first = await render(templateId, body);
    expect(first.json.credits.charged).toBe(1);
    const before = await balance();
    const again = await render(templateId, { ...body, dither: true, quality: 75 }); // the defaults, spelt out
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ ...first.json, credits: { charged: 0, balanceAfter: before } });
    for (const change of [{ fps: 12 }, { quality: 40 }, { dither: false }]) {
      const other = await render(templateId, { ...body, ...change });
      expect([other.status, other.json.credits.charged], JSON.stringify(change)).toEqual([200, 1]);
      expect(other.json.id).not.toBe(first.json.id);
    }
    expect(await balance()).toBe(before - 3);
  });

  it('draws a still at timeMs (default: every in-animation ended), each time its own render', async () => {
    const finished = await render(templateId, { format: 'png', modifications: { name: 'still' } });
    const start = await render(templateId, { format: 'png', timeMs: 0, modifications: { name: 'still' } });
    expect([finished.json.credits.charged, start.json.credits.charged]).toEqual([1, 1]);
    const pixel = async (url: string) => {
      const bytes = (await download(url)).bytes;
      expect(imageInfo(Buffer.from(bytes))).toMatchObject({ type: 'png', width: 320, height: 180 });
      const sharp = (await import('sharp')).default;
      const { data } = await sharp(bytes).extract({ left: 40, top: 25, width: 1, height: 1 }).raw().toBuffer({
        resolveWithObject: true,
      });
      return [data[0], data[1], data[2]];
    };
    // The card (#2f6fdf) has faded in by default; at 0 ms it is not there yet (white page).
    expect(await pixel(finished.json.url)).toEqual([0x2f, 0x6f, 0xdf]);
    expect(await pixel(start.json.url)).toEqual([255, 255, 255]);
    // An option a format ignores is no part of its identity: fps of a PNG changes nothing.
    const ignored = await render(templateId, { format: 'png', fps: 24, modifications: { name: 'still' } });
    expect([ignored.json.id, ignored.json.credits.charged]).toEqual([finished.json.id, 0]);
  });

  it('refunds a video whose render fails (422) and charges nothing for it', async () => {
    const origin = await startOrigin((_req, res) => res.writeHead(404).end());
    try {
      const page = animatedPage('p1');
      const broken = await createTemplate(
        animatedDocument([
          {
            ...page,
            elements: [
              ...page.elements,
              { id: 'img', type: 'image', x: 0, y: 0, width: 50, height: 50, src: `${origin.base}/x.png` },
            ] as typeof page.elements,
          },
        ]),
      );
      const before = await balance();
      const res = await render(broken, { format: 'mp4', fps: 10 });
      expect([res.status, res.json.error.code]).toEqual([422, 'RENDER_FAILED']);
      expect(await balance()).toBe(before);
    } finally {
      await origin.close();
    }
  });
});

describe('every way in', () => {
  it('renders a video in the background (async), charged when accepted', async () => {
    const before = await balance();
    const accepted = await render(templateId, { format: 'webm', fps: 10, async: true, idempotencyKey: 'bg' });
    expect(accepted.status).toBe(202);
    expect(accepted.json).toMatchObject({ status: 'pending', format: 'webm', credits: { charged: 1 } });
    let done: Record<string, unknown> = {};
    await eventually(async () => {
      done = (await http(server.base, 'GET', `/v1/renders/${accepted.json.id}`, { headers: bearer(key) }))
        .json;
      return typeof done.url === 'string';
    }, 60_000);
    expect(done).toMatchObject({ id: accepted.json.id, format: 'webm', durationMs: 1000, frames: 10 });
    expect((await probeVideo((await download(String(done.url))).bytes)).codec).toBe('vp9');
    // The same request while waiting is the same render: free.
    const again = await render(templateId, { format: 'webm', fps: 10, idempotencyKey: 'bg' });
    expect([again.json.id, again.json.credits.charged]).toEqual([accepted.json.id, 0]);
    expect(await balance()).toBe(before - 1);
  });

  it('serves a signed image.mp4, charged once, the same URL again free', async () => {
    const secret = await admin(server.base, 'POST', `/workspaces/${workspaceId}/url-signing-secrets`, {});
    const url = signUrl(
      server.base,
      `/v1/templates/${templateId}/image.mp4`,
      { name: 'signed', fps: '10' },
      secret.json.secret,
    );
    const before = await balance();
    const first = await download(url);
    expect([first.status, first.type]).toEqual([200, 'video/mp4']);
    expect(await probeVideo(first.bytes)).toMatchObject({ codec: 'h264', fps: 10, frames: 10 });
    const second = await download(url);
    expect(Buffer.from(second.bytes).equals(Buffer.from(first.bytes))).toBe(true);
    expect(await balance()).toBe(before - 1);
    // Options in the URL are checked as the render route checks them.
    const bad = await fetch(
      signUrl(server.base, `/v1/templates/${templateId}/image.gif`, { dither: 'maybe' }, secret.json.secret),
    );
    const error = (await bad.json()) as { error: { code: string; details: Array<{ path: string }> } };
    expect([bad.status, error.error.code, error.error.details[0]?.path]).toEqual([
      400,
      'VALIDATION_FAILED',
      'dither',
    ]);
  });

  it('renders a GIF through the MCP tool, as image content, with the API credit rules', async () => {
    const person = { email: 'video-agent@example.com', password: 'correct horse battery', workspaceId };
    await createUser(server.base, { ...person, workspaceIds: [workspaceId] });
    const token = await accessTokenFor(server.base, person, 'render:write template:read');
    const call = (args: Record<string, unknown>) =>
      rawMcp(server.base, token, {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'render_template', arguments: { templateId, ...args } },
      });
    const before = await balance();
    const res = await call({ format: 'gif', fps: 10, modifications: { name: 'agent' } });
    expect(res.status).toBe(200);
    const result = (res.json as { result: { isError?: boolean; content: Array<Record<string, string>> } })
      .result;
    expect(result.isError).toBeFalsy();
    const answer = JSON.parse(result.content[0]?.text ?? 'null');
    expect(answer).toMatchObject({ format: 'gif', frames: 10, durationMs: 1000, credits: { charged: 1 } });
    expect(result.content[1]).toMatchObject({ type: 'image', mimeType: 'image/gif' });
    expect((await probeVideo(Buffer.from(result.content[1]?.data ?? '', 'base64'))).frames).toBe(10);
    const again = await call({ format: 'gif', fps: 10, modifications: { name: 'agent' } });
    const replay = JSON.parse(
      (again.json as { result: { content: Array<{ text: string }> } }).result.content[0]?.text ?? 'null',
    );
    expect([replay.id, replay.credits.charged]).toEqual([answer.id, 0]);
    const bad = await call({ format: 'gif', fps: 1000 });
    const refused = (bad.json as { result: { isError: boolean; content: Array<{ text: string }> } }).result;
    expect(refused.isError).toBe(true);
    expect(JSON.parse(refused.content[0]?.text ?? '{}').error).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await balance()).toBe(before - 1);
  });

  it('renders a batch of GIFs, one file a row, named .gif in the ZIP', async () => {
    const created = await http(server.base, 'POST', `/v1/templates/${templateId}/batches`, {
      body: { format: 'gif', fps: 5, dither: false, rows: [{ name: 'one' }, { name: 'two' }] },
      headers: bearer(key),
    });
    expect(created.status).toBe(201);
    let batch = created.json;
    await eventually(async () => {
      batch = (await http(server.base, 'GET', `/v1/batches/${created.json.id}`, { headers: bearer(key) }))
        .json;
      return batch.status === 'completed';
    }, 60_000);
    expect(batch.progress).toEqual({ done: 2, failed: 0, pending: 0 });
    const zip = await http(server.base, 'GET', `/v1/batches/${created.json.id}/files.zip`, {
      headers: bearer(key),
    });
    expect(zip.bytes.subarray(0, 2).toString()).toBe('PK');
    for (const name of ['manifest.json', 'row-1.gif', 'row-2.gif'])
      expect(zip.bytes.includes(Buffer.from(name)), name).toBe(true);
    const first = await download(batch.rows[0].url);
    expect([first.type, (await probeVideo(first.bytes)).frames]).toEqual(['image/gif', 5]);
  });
});

describe('bad input: 400 before any work, nothing charged', () => {
  async function refused(id: string, body: object) {
    const before = await balance();
    const res = await render(id, body);
    expect(await balance()).toBe(before);
    return res;
  }

  it('refuses fps out of 1-60 or not whole, and timeMs out of bounds, naming the field', async () => {
    for (const [body, path] of [
      [{ format: 'mp4', fps: 1000 }, 'fps'],
      [{ format: 'gif', fps: 0 }, 'fps'],
      [{ format: 'webm', fps: 2.5 }, 'fps'],
      // A GIF's frame delays are hundredths of a second: the engine takes at most 50.
      [{ format: 'gif', fps: 55 }, 'fps'],
      [{ format: 'mp4', quality: 101 }, 'quality'],
      [{ format: 'gif', dither: 'yes' }, 'dither'],
      [{ format: 'png', timeMs: -1 }, 'timeMs'],
      [{ format: 'png', timeMs: 300_001 }, 'timeMs'],
      [{ format: 'mov' }, 'format'],
    ] as const) {
      const res = await refused(templateId, body);
      expect([res.status, res.json.error.code], JSON.stringify(body)).toEqual([400, 'VALIDATION_FAILED']);
      expect(res.json.error.details.map((d: { path: string }) => d.path)).toContain(path);
    }
  });

  it('refuses a video element whose asset this workspace does not have, before charging', async () => {
    const page = animatedPage('p1');
    const clip = { id: 'clip', type: 'video', x: 0, y: 0, width: 160, height: 90, src: 'asset:ast_nothere' };
    const missing = await createTemplate(
      animatedDocument([{ ...page, elements: [...page.elements, clip] as typeof page.elements }]),
    );
    for (const format of ['mp4', 'png']) {
      const res = await refused(missing, { format });
      expect([res.status, res.json.error.code], format).toEqual([400, 'VALIDATION_FAILED']);
      expect(res.json.error.details[0].path).toBe('pages[0].elements[2].src');
    }
  });

  it('refuses a page of ten hours when the template is saved', async () => {
    const res = await http(server.base, 'POST', '/v1/templates', {
      body: {
        name: 'ten hours',
        document: animatedDocument([animatedPage('p1', { durationMs: 36_000_000 })]),
      },
      headers: bearer(key),
    });
    expect([res.status, res.json.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(res.json.error.details).toEqual([
      expect.objectContaining({ path: 'document.pages[0].durationMs' }),
    ]);
  });

  it('refuses a video over the size limits up front, in the background too, naming the limit', async () => {
    // 40 scenes of five minutes: over three hours of video.
    const pages = Array.from({ length: 40 }, (_, i) => animatedPage(`s${i}`, { durationMs: 300_000 }));
    const long = await createTemplate(animatedDocument(pages));
    // A 4000×4000 page for a minute at 60 fps: 3,600 frames of 16 megapixels.
    const huge = await createTemplate(
      animatedDocument([animatedPage('p1', { width: 4000, height: 4000, durationMs: 60_000 })]),
    );
    // Scenes of one video share one size.
    const mixed = await createTemplate(
      animatedDocument([animatedPage('a'), animatedPage('b', { width: 180, height: 320 })]),
    );
    for (const [id, body, path, message] of [
      [long, { format: 'mp4', allPages: true }, /^pages\[\d+\]\.durationMs$/, /limit/],
      [long, { format: 'gif', allPages: true, async: true }, /^pages\[\d+\]\.durationMs$/, /limit/],
      [huge, { format: 'webm', fps: 60 }, /^pages\[0\]/, /limit/],
      [huge, { format: 'webm', fps: 60, async: true }, /^pages\[0\]/, /limit/],
      [mixed, { format: 'mp4', allPages: true, async: true }, /^pages\[1\]/, /size/],
    ] as const) {
      const res = await refused(id, body);
      expect([res.status, res.json.error.code], JSON.stringify(body)).toEqual([400, 'VALIDATION_FAILED']);
      expect(res.json.error.details[0].path).toMatch(path);
      expect(res.json.error.details[0].message).toMatch(message);
    }
  });
});

describe('videos too long to wait for', () => {
  // A synchronous render may use the share PLATEN_RENDER_TIMEOUT_MS / PLATEN_VIDEO_TIMEOUT_MS of the
  // video budget: with these, a tiny share that even a one-second 320×180 video passes.
  let strict: TestServer;
  beforeAll(async () => {
    strict = await startTestServer('sqlite', {
      PLATEN_RENDER_TIMEOUT_MS: '1000',
      PLATEN_VIDEO_TIMEOUT_MS: '100000000',
    });
  });
  afterAll(() => strict.close());

  it('refuses one the request would wait for, saying to send async: true; renders it in the background', async () => {
    const { key: strictKey, workspaceId: strictWorkspace } = await workspaceWithKey(strict.base, {
      credits: 5,
    });
    const created = await http(strict.base, 'POST', '/v1/templates', {
      body: { name: 'motion', document: animatedDocument() },
      headers: bearer(strictKey),
    });
    const path = `/v1/templates/${created.json.id}/render`;
    const waited = await http(strict.base, 'POST', path, {
      body: { format: 'mp4', fps: 10 },
      headers: bearer(strictKey),
    });
    expect([waited.status, waited.json.error.code, waited.json.error.details[0].path]).toEqual([
      400,
      'VALIDATION_FAILED',
      'async',
    ]);
    expect(waited.json.error.message).toContain('async: true');
    const strictBalance = async () =>
      (await admin(strict.base, 'GET', `/workspaces/${strictWorkspace}`)).json.creditBalance;
    expect(await strictBalance()).toBe(5);
    // A still is no video: it renders while the request waits as ever.
    const still = await http(strict.base, 'POST', path, {
      body: { format: 'png' },
      headers: bearer(strictKey),
    });
    expect(still.status).toBe(200);
    const accepted = await http(strict.base, 'POST', path, {
      body: { format: 'mp4', fps: 10, async: true },
      headers: bearer(strictKey),
    });
    expect([accepted.status, accepted.json.credits.charged]).toEqual([202, 1]);
    await eventually(async () => {
      const state = await http(strict.base, 'GET', `/v1/renders/${accepted.json.id}`, {
        headers: bearer(strictKey),
      });
      return typeof state.json.url === 'string';
    }, 60_000);
    // Done once, it is an identical earlier render: the waited-for request is answered for free.
    const replay = await http(strict.base, 'POST', path, {
      body: { format: 'mp4', fps: 10 },
      headers: bearer(strictKey),
    });
    expect([replay.status, replay.json.id, replay.json.credits.charged]).toEqual([200, accepted.json.id, 0]);
    expect(await strictBalance()).toBe(3);
  });
});

describe('configuration', () => {
  it('reads the video concurrency and time limit, with their defaults, and refuses nonsense', () => {
    const base = { PLATEN_DATA_DIR: 'data' };
    expect(loadConfig(base)).toMatchObject({ PLATEN_VIDEO_CONCURRENCY: 1, PLATEN_VIDEO_TIMEOUT_MS: 120_000 });
    expect(
      loadConfig({
        ...base,
        PLATEN_VIDEO_CONCURRENCY: '3',
        PLATEN_VIDEO_TIMEOUT_MS: '60000',
        PLATEN_FFMPEG: 'ffmpeg',
      }),
    ).toMatchObject({
      PLATEN_VIDEO_CONCURRENCY: 3,
      PLATEN_VIDEO_TIMEOUT_MS: 60_000,
      PLATEN_FFMPEG: 'ffmpeg',
    });
    expect(() => loadConfig({ ...base, PLATEN_VIDEO_CONCURRENCY: '0' })).toThrow(/PLATEN_VIDEO_CONCURRENCY/);
    expect(() => loadConfig({ ...base, PLATEN_VIDEO_TIMEOUT_MS: 'soon' })).toThrow(/PLATEN_VIDEO_TIMEOUT_MS/);
  });
});
