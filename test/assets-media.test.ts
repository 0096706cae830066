/**
 * Video and audio assets over real HTTP (motion): uploads sniffed by their bytes and probed by the
 * real ffprobe, files made by the real ffmpeg; each limit refused before anything is stored; and
 * the render's inputs: a document plays only its own workspace's media, of the right kind,
 * refused with 400 naming the path and nothing charged otherwise.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssetService } from '../src/assets/index.ts';
import type { Principal } from '../src/auth/index.ts';
import { AppError } from '../src/core/errors.ts';
import { type DesignDocument, parseDesignDocument } from '../src/design/index.ts';
import { JobInputLoader } from '../src/renders/job-inputs.ts';
import {
  BOMB_SIDE,
  type MediaFixture,
  media,
  mp4Bomb,
  probedSize,
  silentWav,
  streamTypes,
} from './fixtures/media.ts';
import { PNG_1X1 } from './fixtures/samples.ts';
import {
  ADMIN_TOKEN,
  bearer,
  http,
  startTestServer,
  type TestServer,
  type WorkspaceWithKey,
  workspaceWithKey,
} from './harness/server.ts';

/** A valid document, parsed as the render service parses it. */
function parseDocument(input: object): DesignDocument {
  const parsed = parseDesignDocument(input);
  if (!parsed.ok) throw new Error(`invalid test document: ${JSON.stringify(parsed.issues)}`);
  return parsed.document;
}

let server: TestServer;
let a: WorkspaceWithKey;
let b: WorkspaceWithKey;

const upload = (owner: WorkspaceWithKey, raw: Buffer | string, contentType: string) =>
  http(server.base, 'POST', '/v1/assets', {
    raw,
    headers: { ...bearer(owner.key), 'content-type': contentType },
  });

const assetCount = async (owner: WorkspaceWithKey) =>
  (await http(server.base, 'GET', '/v1/assets?limit=100', { headers: bearer(owner.key) })).json.items.length;

const balance = async (owner: WorkspaceWithKey) =>
  (
    await http(server.base, 'GET', `/admin/v1/workspaces/${owner.workspaceId}`, {
      headers: bearer(ADMIN_TOKEN),
    })
  ).json.creditBalance;

beforeAll(async () => {
  // Images and fonts limited to 1 MB: video and audio keep their own, larger limit.
  server = await startTestServer('sqlite', { PLATEN_MAX_ASSET_BYTES: String(1024 * 1024) });
  a = await workspaceWithKey(server.base, { credits: 10 });
  b = await workspaceWithKey(server.base, { credits: 10 });
});
afterAll(() => server?.close());

describe('video and audio uploads', () => {
  it.each([
    ['mp4', 'video', 'video/mp4', { width: 160, height: 90, hasVideo: true, hasAudio: true }],
    ['webm', 'video', 'video/webm', { width: 160, height: 90, hasVideo: true, hasAudio: true }],
    ['mp3', 'audio', 'audio/mpeg', { hasVideo: false, hasAudio: true }],
    ['m4a', 'audio', 'audio/mp4', { hasVideo: false, hasAudio: true }],
    ['wav', 'audio', 'audio/wav', { hasVideo: false, hasAudio: true }],
  ] as const)('accepts %s as %s, probed', async (fixture, kind, mimeType, facts) => {
    const bytes = await media(fixture);
    // The declared type is not what decides.
    const res = await upload(a, bytes, 'application/octet-stream');
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ kind, mimeType, byteSize: bytes.length, ...facts });
    expect(res.json.durationMs).toBeGreaterThanOrEqual(990);
    expect(res.json.durationMs).toBeLessThanOrEqual(1100);
    if (kind === 'audio') expect(res.json).not.toHaveProperty('width');
    const got = await http(server.base, 'GET', `/v1/assets/${res.json.id}`, { headers: bearer(a.key) });
    expect(got.json).toEqual(res.json);
    const file = await fetch(res.json.url);
    expect(file.headers.get('content-type')).toBe(mimeType);
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('takes an MP4 without a picture as audio, and one without sound as a silent video', async () => {
    const audio = await upload(a, await media('audioMp4'), 'video/mp4');
    expect(audio.json).toMatchObject({
      kind: 'audio',
      mimeType: 'audio/mp4',
      hasVideo: false,
      hasAudio: true,
    });
    const silent = await upload(a, await media('silentMp4'), 'video/mp4');
    expect(silent.json).toMatchObject({
      kind: 'video',
      mimeType: 'video/mp4',
      hasVideo: true,
      hasAudio: false,
    });
  });

  it('accepts multipart uploads of media too', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await media('mp4'))], { type: 'video/mp4' }), 'clip.mp4');
    const res = await fetch(`${server.base}/v1/assets`, {
      method: 'POST',
      headers: bearer(a.key),
      body: form,
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { kind: string }).kind).toBe('video');
  });

  it('lists by kind', async () => {
    const audio = await upload(b, await media('mp3'), 'audio/mpeg');
    const video = await upload(b, await media('mp4'), 'video/mp4');
    await upload(b, PNG_1X1, 'image/png');
    const list = async (kind: string) =>
      (await http(server.base, 'GET', `/v1/assets?kind=${kind}`, { headers: bearer(b.key) })).json.items.map(
        (item: { id: string }) => item.id,
      );
    expect(await list('video')).toEqual([video.json.id]);
    expect(await list('audio')).toEqual([audio.json.id]);
    expect(await list('image')).toHaveLength(1);
    const bad = await http(server.base, 'GET', '/v1/assets?kind=movie', { headers: bearer(b.key) });
    expect([bad.status, bad.json.error.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('holds video and audio to their own size limit, not the image limit', async () => {
    // 2 MB of audio passes where 2 MB of image is refused (PLATEN_MAX_ASSET_BYTES is 1 MB here).
    const wav = silentWav(250);
    expect(wav.length).toBeGreaterThan(2_000_000);
    const audio = await upload(a, wav, 'audio/wav');
    expect([audio.status, audio.json.kind, audio.json.durationMs]).toEqual([201, 'audio', 250_000]);
    const image = await upload(a, Buffer.concat([PNG_1X1, Buffer.alloc(2 * 1024 * 1024)]), 'image/png');
    expect([image.status, image.json.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(image.json.error.message).toContain('at most 1 MB');
  });
});

describe('refused media, before anything is stored', () => {
  it('refuses text sent as an MP4 (415, as for any unknown bytes) and MP4-looking junk (400)', async () => {
    const before = await assetCount(a);
    const text = await upload(a, 'this is not a video at all', 'video/mp4');
    expect([text.status, text.json.error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    // An MP4's signature followed by noise: sniffed as MP4, unreadable by the probe.
    const mp4 = await media('mp4');
    const noise = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919 + 13) % 256));
    const junk = await upload(a, Buffer.concat([mp4.subarray(0, 32), noise]), 'video/mp4');
    expect([junk.status, junk.json.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(junk.json.error.message).toMatch(/could not be read/);
    const truncated = await upload(a, mp4.subarray(0, mp4.length / 2), 'video/mp4');
    expect(truncated.status).toBe(400);
    expect(await assetCount(a)).toBe(before);
  });

  it('takes a PNG sent as video/mp4 for the image it is', async () => {
    const res = await upload(a, PNG_1X1, 'video/mp4');
    expect([res.status, res.json.kind, res.json.mimeType]).toEqual([201, 'image', 'image/png']);
    expect(res.json).not.toHaveProperty('durationMs');
  });

  it('refuses an MP4 bomb from its headers (400 naming the limit)', async () => {
    const bomb = await mp4Bomb();
    // A player opening it sees the huge picture: the fixture is what it claims.
    expect(await probedSize(bomb)).toEqual({ width: BOMB_SIDE, height: BOMB_SIDE });
    const before = await assetCount(a);
    const res = await upload(a, bomb, 'video/mp4');
    expect([res.status, res.json.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(res.json.error.message).toContain('at most 4096 pixels a side');
    expect(res.json.error.details).toEqual([{ path: 'body', message: expect.stringContaining('8000×8000') }]);
    expect(await assetCount(a)).toBe(before);
  });

  it('refuses audio over 10 minutes and video over 5 minutes (400 naming the limit)', async () => {
    const before = await assetCount(a);
    const audio = await upload(a, silentWav(601), 'audio/wav');
    expect([audio.status, audio.json.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(audio.json.error.message).toBe('The audio is too long: at most 10 min.');
    expect(audio.json.error.details[0].message).toContain('10 min 1 s long');
    const video = await upload(a, await media('longMp4'), 'video/mp4');
    expect([video.status, video.json.error.message]).toEqual([400, 'The video is too long: at most 5 min.']);
    expect(await assetCount(a)).toBe(before);
  });

  it('refuses media over the media size limit with 413 naming it', async () => {
    const service = new AssetService(server.store, server.files, {
      maxBytes: 1024 * 1024,
      baseUrl: server.base,
      media: { maxBytes: 10_000 },
    });
    const principal: Principal = {
      workspaceId: a.workspaceId,
      scopes: new Set(['asset:write']),
      actor: { type: 'api_key', id: a.keyId, prefix: 'test' },
      address: null,
    };
    const error = await service.upload(principal, { bytes: await media('mp4') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect([(error as AppError).status, (error as AppError).message]).toEqual([
      413,
      'A video or audio file may be at most 9.8 KB.',
    ]);
    // The body limit of the upload routes is the larger of the two.
    expect(service.uploadLimitBytes).toBe(1024 * 1024);
  });
});

describe('media in render inputs', () => {
  const videoPage = (src: string, id = 'p') => ({
    id,
    width: 160,
    height: 90,
    background: '#ffffff',
    elements: [{ id: `${id}-clip`, type: 'video', x: 0, y: 0, width: 160, height: 90, src }],
  });

  async function uploaded(owner: WorkspaceWithKey, fixture: MediaFixture): Promise<string> {
    const res = await upload(owner, await media(fixture), 'application/octet-stream');
    expect(res.status).toBe(201);
    return res.json.id;
  }

  async function render(owner: WorkspaceWithKey, document: object, format = 'png') {
    const template = await http(server.base, 'POST', '/v1/templates', {
      body: { name: 'media', document },
      headers: bearer(owner.key),
    });
    expect(template.status).toBe(201);
    return http(server.base, 'POST', `/v1/templates/${template.json.id}/render`, {
      body: { format },
      headers: bearer(owner.key),
    });
  }

  it("loads the document's own video and audio with what their probe found", async () => {
    const clip = await uploaded(a, 'mp4');
    const tone = await uploaded(a, 'mp3');
    const document = parseDocument({
      schemaVersion: 2,
      pages: [videoPage(`asset:${clip}`)],
      audio: { src: `asset:${tone}` },
    });
    const loader = new JobInputLoader(server.store, server.files);
    const inputs = await loader.load(a.workspaceId, document);
    expect(inputs.assets[clip]?.mimeType).toBe('video/mp4');
    expect(Buffer.from(inputs.assets[clip]?.bytes ?? []).equals(await media('mp4'))).toBe(true);
    expect(inputs.assets[clip]?.media).toMatchObject({
      width: 160,
      height: 90,
      hasVideo: true,
      hasAudio: true,
    });
    expect(inputs.assets[tone]?.media).toMatchObject({ hasVideo: false, hasAudio: true });
    expect(inputs.assets[tone]?.media?.durationMs).toBeGreaterThan(990);
    // A still plays no sound: its soundtrack is neither checked nor loaded.
    const still = await loader.load(a.workspaceId, document, undefined, { format: 'png' });
    expect(Object.keys(still.assets)).toEqual([clip]);
  });

  it('renders its own video and soundtrack: the clip is drawn and its sound mixed in', async () => {
    const clip = await uploaded(a, 'mp4');
    const tone = await uploaded(a, 'mp3');
    const document = {
      schemaVersion: 2,
      pages: [{ ...videoPage(`asset:${clip}`), durationMs: 1000 }],
      audio: { src: `asset:${tone}` },
    };
    const still = await render(a, document, 'png');
    expect(still.status).toBe(200);
    const pixels = await sharp(Buffer.from(await (await fetch(still.json.url)).arrayBuffer()))
      .raw()
      .toBuffer();
    // The page is white; the test pattern drawn over all of it is not.
    expect(pixels.every((value) => value === 255)).toBe(false);
    const video = await render(a, document, 'mp4');
    expect([video.status, video.json.format]).toEqual([200, 'mp4']);
    const streams = await streamTypes(Buffer.from(await (await fetch(video.json.url)).arrayBuffer()));
    expect(streams).toEqual(expect.arrayContaining(['video', 'audio']));
  });

  it("refuses another workspace's video: never loaded, 400 naming the path, nothing charged", async () => {
    const clip = await uploaded(a, 'mp4');
    const document = { schemaVersion: 2, pages: [videoPage(`asset:${clip}`)] };
    const loader = new JobInputLoader(server.store, server.files);
    const refused = await loader.load(b.workspaceId, parseDocument(document)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).details).toEqual([
      {
        path: 'pages[0].elements[0].src',
        message: `asset:${clip} is not an uploaded video asset of this workspace`,
      },
    ]);
    await expect(loader.checkMedia(b.workspaceId, parseDocument(document))).rejects.toThrow(AppError);

    const before = await balance(b);
    const res = await render(b, document);
    expect([res.status, res.json.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(res.json.error.details[0].path).toBe('pages[0].elements[0].src');
    expect(await balance(b)).toBe(before);
  });

  it('checks and loads only the media of the pages rendered', async () => {
    const clip = await uploaded(a, 'webm');
    const loader = new JobInputLoader(server.store, server.files);
    const document = parseDocument({
      schemaVersion: 2,
      pages: [videoPage(`asset:${clip}`, 'first'), videoPage('asset:ast_nosuchasset00000000000', 'second')],
    });
    const first = await loader.load(a.workspaceId, document, undefined, {
      pageIds: ['first'],
      format: 'png',
    });
    expect(Object.keys(first.assets)).toEqual([clip]);
    const error = await loader
      .checkMedia(a.workspaceId, document, undefined, { pageIds: ['second'], format: 'mp4' })
      .catch((e: unknown) => e);
    expect((error as AppError).details).toEqual([
      {
        path: 'pages[1].elements[0].src',
        message: expect.stringContaining('is not an uploaded video asset'),
      },
    ]);
  });

  it('refuses a video element playing audio or an image, and a soundtrack without sound', async () => {
    const tone = await uploaded(a, 'wav');
    const silent = await uploaded(a, 'silentMp4');
    const picture = (await upload(a, PNG_1X1, 'image/png')).json.id;
    const loader = new JobInputLoader(server.store, server.files);
    const problems = async (document: object) => {
      const error = await loader.checkMedia(a.workspaceId, parseDocument(document)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      return (error as AppError).details;
    };
    expect(await problems({ schemaVersion: 2, pages: [videoPage(`asset:${tone}`)] })).toEqual([
      { path: 'pages[0].elements[0].src', message: expect.stringContaining('is an audio asset') },
    ]);
    expect(await problems({ schemaVersion: 2, pages: [videoPage(`asset:${picture}`)] })).toEqual([
      { path: 'pages[0].elements[0].src', message: expect.stringContaining('is an image') },
    ]);
    expect(
      await problems({
        schemaVersion: 2,
        pages: [{ ...videoPage(`asset:${silent}`) }],
        audio: { src: `asset:${silent}` },
      }),
    ).toEqual([{ path: 'audio.src', message: expect.stringContaining('a video without sound') }]);
    // A video with sound may be the soundtrack.
    const clip = await uploaded(a, 'mp4');
    await loader.checkMedia(
      a.workspaceId,
      parseDocument({
        schemaVersion: 2,
        pages: [videoPage(`asset:${clip}`)],
        audio: { src: `asset:${clip}` },
      }),
    );

    // Over HTTP: the render is refused with the path, and the credits stay.
    const before = await balance(a);
    const res = await render(a, { schemaVersion: 2, pages: [videoPage(`asset:${tone}`)] });
    expect([res.status, res.json.error.details[0].path]).toEqual([400, 'pages[0].elements[0].src']);
    expect(await balance(a)).toBe(before);
  });
});
