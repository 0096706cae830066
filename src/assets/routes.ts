/**
 * `/v1/assets`: upload as the raw body (any Content-Type; the bytes decide) or as multipart with one
 * file part; list, get and delete. Files are served by the capability-URL route, not here.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrincipal } from '../auth/index.ts';
import { AppError } from '../core/errors.ts';
import { type OpenApiTag, operation } from '../http/openapi.ts';
import { ASSET_KINDS } from '../store/assets.ts';
import type { AssetService } from './service.ts';

export const assetsTag: OpenApiTag = {
  name: 'assets',
  description:
    'Images (PNG, JPEG, WebP, GIF, SVG), fonts (TTF, OTF, WOFF, WOFF2), videos (MP4, WebM) and audio ' +
    '(MP3, M4A, WAV), classified by their bytes; videos and audio are probed and bounded in size, ' +
    'picture size and length. Use an image as `asset:<id>`, a font by its family name, a video as a ' +
    "`video` element's `src`, an audio file as the document's `audio.src`; `url` is a capability URL.",
};
const tag = assetsTag;

export const assetSchema = z
  .object({
    id: z.string(),
    kind: z.enum(ASSET_KINDS),
    mimeType: z.string(),
    byteSize: z.number().int(),
    width: z
      .number()
      .int()
      .optional()
      .describe("An image's size, or a video's picture as it is shown (pixels)"),
    height: z.number().int().optional(),
    fontFamily: z.string().optional(),
    durationMs: z.number().int().optional().describe('Videos and audio: the length, in milliseconds'),
    hasVideo: z.boolean().optional().describe('Videos and audio: the file has a picture'),
    hasAudio: z.boolean().optional().describe('Videos and audio: the file has sound'),
    url: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: 'Asset' });

const idParams = z.object({ id: z.string().max(200) });
export const uploadQuery = z.object({ family: z.string().trim().min(1).max(100).optional() }).strict();
/** `POST /v1/assets/from-url` and the MCP tool `upload_asset_from_url`. */
export const fromUrlBody = z
  .object({
    url: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .describe('A public https URL of the file'),
    family: uploadQuery.shape.family.describe('Names a font (needed for WOFF2)'),
  })
  .strict();
export const assetListQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(20),
    cursor: z.string().max(500).optional(),
    kind: z.enum(ASSET_KINDS).optional().describe('Only assets of this kind'),
  })
  .strict();

/**
 * What the multipart parser throws for a body that is not multipart as its header says (no
 * boundary, a part cut short, the data ending early): the client's error, 400. Errors that carry
 * an HTTP status (the plugin's limits: 413) or are the service's own pass through as they are.
 */
function malformedMultipart(error: unknown): unknown {
  if (error instanceof AppError) return error;
  if (typeof (error as { statusCode?: unknown })?.statusCode === 'number') return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new AppError('VALIDATION_FAILED', 'The multipart body is malformed.', [
    { path: '(body)', message: reason.replace(/^Multipart: /, '') },
  ]);
}

/** The uploaded file: the raw body, or the one file part of a multipart body. */
export async function readUpload(request: FastifyRequest): Promise<Buffer> {
  if (request.isMultipart()) {
    const part = await request.file().catch((error: unknown) => {
      throw malformedMultipart(error);
    });
    if (!part)
      throw new AppError('VALIDATION_FAILED', 'No file part in the upload.', [
        { path: 'file', message: 'Required' },
      ]);
    const bytes = await part.toBuffer().catch((error: unknown) => {
      throw malformedMultipart(error);
    });
    if (part.file.truncated) throw new AppError('PAYLOAD_TOO_LARGE');
    return bytes;
  }
  if (!Buffer.isBuffer(request.body)) {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      'Send the file itself as the body, or as multipart/form-data.',
    );
  }
  return request.body;
}

/** Lets a scope take uploads: multipart with one file part, or any raw body as bytes. */
export async function acceptUploads(scope: FastifyInstance, maxBytes: number): Promise<void> {
  await scope.register(multipart, { limits: { fileSize: maxBytes, files: 1, fields: 5, parts: 6 } });
  scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: maxBytes }, (_request, body, done) =>
    done(null, body),
  );
}

export function assetRoutes(service: AssetService) {
  // Videos may be larger than images: the body limit is the largest kind's; the service holds
  // each kind to its own after sniffing.
  const maxBytes = service.uploadLimitBytes;
  return async function register(root: FastifyInstance): Promise<void> {
    await acceptUploads(root, maxBytes);
    const app = root.withTypeProvider<ZodTypeProvider>();

    app.get(
      '/v1/assets',
      {
        config: { auth: 'apiKey', scope: 'asset:read' },
        schema: operation({
          id: 'listAssets',
          summary: 'List assets',
          description:
            'Newest first, paged with `limit` (at most 100) and the `nextCursor` of the last page.',
          tag,
          querystring: assetListQuery,
          response: { 200: z.object({ items: z.array(assetSchema), nextCursor: z.string().nullable() }) },
          errors: [400, 403],
        }),
      },
      async (request) => service.list(requirePrincipal(request.principal), request.query),
    );

    app.post(
      '/v1/assets',
      {
        bodyLimit: maxBytes,
        config: { auth: 'apiKey', scope: 'asset:write' },
        schema: operation({
          id: 'uploadAsset',
          summary: 'Upload an image, font, video or audio file',
          description:
            'The raw file as the body (any `Content-Type`: the bytes decide), or `multipart/form-data` ' +
            'with one file part. `?family=` names a font (needed for WOFF2). A video or audio file ' +
            'is probed first and refused with 400 when its picture, length or headers break a limit.',
          tag,
          querystring: uploadQuery,
          rawBody: {
            'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
            'multipart/form-data': {
              schema: {
                type: 'object',
                properties: { file: { type: 'string', format: 'binary' } },
                required: ['file'],
              },
            },
          },
          response: { 201: assetSchema },
          errors: [400, 403, 413, 415],
        }),
      },
      async (request, reply) => {
        const principal = requirePrincipal(request.principal);
        const bytes = await readUpload(request);
        const asset = await service.upload(principal, { bytes, fontFamily: request.query.family });
        return reply.status(201).send(asset);
      },
    );

    app.post(
      '/v1/assets/from-url',
      {
        config: { auth: 'apiKey', scope: 'asset:write' },
        schema: operation({
          id: 'uploadAssetFromUrl',
          summary: 'Upload an image, font, video or audio file from a public URL',
          description:
            'The service fetches the URL (https; no private, loopback or link-local address on any ' +
            'hop or redirect; at most the upload size; 30 s in all), then stores it as an upload. ' +
            'A URL that cannot be fetched answers 400 on `url` saying why.',
          tag,
          body: fromUrlBody,
          response: { 201: assetSchema },
          errors: [400, 403, 413, 415],
        }),
      },
      async (request, reply) => {
        const asset = await service.uploadFromUrl(requirePrincipal(request.principal), {
          url: request.body.url,
          ...(request.body.family ? { fontFamily: request.body.family } : {}),
        });
        return reply.status(201).send(asset);
      },
    );

    app.get(
      '/v1/assets/:id',
      {
        config: { auth: 'apiKey', scope: 'asset:read' },
        schema: operation({
          id: 'getAsset',
          summary: 'Get an asset',
          tag,
          params: idParams,
          response: { 200: assetSchema },
          errors: [403, 404],
        }),
      },
      async (request) => service.get(requirePrincipal(request.principal), request.params.id),
    );

    app.delete(
      '/v1/assets/:id',
      {
        config: { auth: 'apiKey', scope: 'asset:write' },
        schema: operation({
          id: 'deleteAsset',
          summary: 'Delete an asset and its file',
          tag,
          params: idParams,
          response: { 204: z.null() },
          errors: [403, 404],
        }),
      },
      async (request, reply) => {
        await service.remove(requirePrincipal(request.principal), request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}
