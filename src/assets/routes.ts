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
import { errorResponses } from '../http/openapi.ts';
import type { AssetService } from './service.ts';

const tags = ['assets'];
const security = [{ apiKey: [] }];

export const assetSchema = z.object({
  id: z.string(),
  kind: z.enum(['image', 'font']),
  mimeType: z.string(),
  byteSize: z.number().int(),
  width: z.number().int().optional(),
  height: z.number().int().optional(),
  fontFamily: z.string().optional(),
  url: z.string(),
  createdAt: z.string(),
});

const idParams = z.object({ id: z.string().max(200) });
const uploadQuery = z.object({ family: z.string().trim().min(1).max(100).optional() }).strict();
const listQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(20),
    cursor: z.string().max(500).optional(),
  })
  .strict();

async function readUpload(request: FastifyRequest): Promise<Buffer> {
  if (request.isMultipart()) {
    const part = await request.file();
    if (!part)
      throw new AppError('VALIDATION_FAILED', 'No file part in the upload.', [
        { path: 'file', message: 'Required' },
      ]);
    const bytes = await part.toBuffer();
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

export function assetRoutes(service: AssetService, maxBytes: number) {
  return async function register(root: FastifyInstance): Promise<void> {
    await root.register(multipart, { limits: { fileSize: maxBytes, files: 1, fields: 5, parts: 6 } });
    root.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: maxBytes }, (_request, body, done) =>
      done(null, body),
    );
    const app = root.withTypeProvider<ZodTypeProvider>();

    app.get(
      '/v1/assets',
      {
        config: { auth: 'apiKey', scope: 'asset:read' },
        schema: {
          tags,
          security,
          querystring: listQuery,
          response: {
            200: z.object({ items: z.array(assetSchema), nextCursor: z.string().nullable() }),
            ...errorResponses,
          },
        },
      },
      async (request) => service.list(requirePrincipal(request.principal), request.query),
    );

    app.post(
      '/v1/assets',
      {
        bodyLimit: maxBytes,
        config: { auth: 'apiKey', scope: 'asset:write' },
        schema: {
          tags,
          security,
          description:
            'Upload an image or font: the raw file as the body, or multipart/form-data with one file.',
          querystring: uploadQuery,
          response: { 201: assetSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const principal = requirePrincipal(request.principal);
        const bytes = await readUpload(request);
        const asset = await service.upload(principal, { bytes, fontFamily: request.query.family });
        return reply.status(201).send(asset);
      },
    );

    app.get(
      '/v1/assets/:id',
      {
        config: { auth: 'apiKey', scope: 'asset:read' },
        schema: { tags, security, params: idParams, response: { 200: assetSchema, ...errorResponses } },
      },
      async (request) => service.get(requirePrincipal(request.principal), request.params.id),
    );

    app.delete(
      '/v1/assets/:id',
      {
        config: { auth: 'apiKey', scope: 'asset:write' },
        schema: { tags, security, params: idParams, response: { 204: z.null(), ...errorResponses } },
      },
      async (request, reply) => {
        await service.remove(requirePrincipal(request.principal), request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}
