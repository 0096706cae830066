/**
 * `GET /v1/templates/:id/image.{png,jpeg,pdf,mp4,webm,gif}` (the signed URL is the credential) and the operator
 * API for URL-signing secrets. Each handler is one call to the RenderUrlService.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf, requirePrincipal } from '../auth/index.ts';
import { type OpenApiTag, operation } from '../http/openapi.ts';
import type { RateLimiter } from '../ratelimit/index.ts';
import {
  isVideoRenderFormat,
  perCallerRateLimit,
  RENDER_FORMATS,
  RENDER_MIME_TYPES,
  renderRequestSchema,
} from '../renders/index.ts';
import type { RenderUrlService } from './service.ts';

export const renderUrlsTag: OpenApiTag = {
  name: 'render URLs',
  description:
    'A signed GET URL renders a template with the variables in its query, for Open Graph images, ' +
    'emails and no-code tools. Credits and identical renders as the render route; the file itself ' +
    'is the answer, with caching headers. docs/api.md#signed-render-urls explains the signature.',
};
export const urlSecretsTag: OpenApiTag = {
  name: 'operator: URL-signing secrets',
  description:
    'Operator API (`Authorization: Bearer $PLATEN_ADMIN_TOKEN`): the secrets that sign render URLs ' +
    'of a workspace: create, list, rotate (the previous secret verifies for a grace period), cap, revoke.',
};

/** `renderTemplateBySignedUrlPng`, …Mp4: one operation a format, each with its file's media type. */
const operationName = (format: string) => `${format[0]?.toUpperCase()}${format.slice(1)}`;
const idParams = z.object({ id: z.string().max(200) });
const imageQuery = z
  .object({
    sig: z
      .string()
      .describe('Hex HMAC-SHA256 of the canonical request (path, `?`, sorted query without `sig`)'),
    exp: z.string().optional().describe('Unix time in seconds after which the URL answers 403 URL_EXPIRED'),
    pageId: z.string().optional().describe('The page to render (default: the active page)'),
    scale: z.string().optional().describe('Raster and video: 1-4'),
    quality: z.string().optional().describe('JPEG and video: 1-100'),
    fps: z.string().optional().describe('Video only: frames per second, 1-60 (default 30; gif 15)'),
    dither: z.string().optional().describe('GIF only: `true` (default) or `false`'),
    timeMs: z
      .string()
      .optional()
      .describe('png, jpeg and pdf only: the time into an animated page drawn, in ms'),
    version: z
      .string()
      .optional()
      .describe('A published version to render: its number, or `latest`. Default: the draft'),
  })
  .catchall(z.string().max(10_000).describe('Any other name: a template variable and its value'));

/** `POST /v1/templates/:id/signed-url` and the `sign_render_url` MCP tool. */
export const signRequestSchema = renderRequestSchema
  .pick({
    format: true,
    modifications: true,
    pageId: true,
    version: true,
    scale: true,
    quality: true,
    fps: true,
    dither: true,
    timeMs: true,
  })
  .extend({
    expiresInSeconds: z
      .number()
      .int()
      .min(60)
      .max(366 * 86_400)
      .optional()
      .describe(
        'Adds `exp`: the URL answers 403 URL_EXPIRED after that many seconds. Absent: it never expires',
      ),
  })
  .strict();

export const signedRenderUrlSchema = z
  .object({
    url: z
      .string()
      .describe('The signed GET URL: its first render costs one credit, the same URL again is free'),
    secretId: z.string().describe('The URL-signing secret it is signed with (revoking it ends the URL)'),
    expiresAt: z.string().nullable(),
  })
  .meta({ id: 'SignedRenderUrl' });

const secretFields = {
  id: z.string(),
  workspaceId: z.string(),
  name: z.string(),
  renderCap: z.number().int().nullable().describe('Renders charged through its URLs at most; null: no cap'),
  renders: z.number().int().describe('Renders charged through its URLs so far'),
  createdAt: z.string(),
  rotatedAt: z.string().nullable(),
  previousValidUntil: z.string().nullable().describe('Until when the secret replaced last still verifies'),
};
const secretSchema = z.object(secretFields).meta({ id: 'UrlSigningSecret' });
const secretWithKeySchema = z
  .object({
    ...secretFields,
    secret: z.string().describe('`urlsec_…`: the signing key, shown in this response only'),
  })
  .meta({ id: 'UrlSigningSecretWithKey' });
const renderCap = z.number().int().min(1).max(1_000_000_000).nullable();
const createBody = z
  .object({ name: z.string().trim().min(1).max(200).optional(), renderCap: renderCap.optional() })
  .strict();

export function renderUrlRoutes(service: RenderUrlService, limiter: RateLimiter | null) {
  return async function register(root: FastifyInstance): Promise<void> {
    const app = root.withTypeProvider<ZodTypeProvider>();
    for (const format of RENDER_FORMATS) {
      const mimeType = RENDER_MIME_TYPES[format];
      const video = isVideoRenderFormat(format);
      app.get(
        `/v1/templates/:id/image.${format}`,
        {
          config: { auth: 'signedUrl', scope: 'render:write' },
          onRequest: perCallerRateLimit(limiter),
          schema: operation({
            id: `renderTemplateBySignedUrl${operationName(format)}`,
            summary: `Render a template to ${format.toUpperCase()} from a signed URL`,
            description:
              'The first render of a URL is charged one credit; the same URL again is free and served ' +
              'from the stored file. Changing any byte of the URL answers 403 INVALID_SIGNATURE.' +
              (video
                ? ' A video is rendered while the request waits: one too long for that answers 400 ' +
                  '(render it through the API with `async: true`).'
                : ''),
            tag: renderUrlsTag,
            params: idParams,
            querystring: imageQuery,
            rawResponse: { [mimeType]: { schema: { type: 'string', format: 'binary' } } },
            response: { 304: z.null() },
            errors: [400, 402, 403, 404, 413, 422, 429, 503],
          }),
        },
        async (request, reply) => {
          const answer = await service.image(
            requirePrincipal(request.principal),
            request.params.id,
            format,
            request.query,
            request.headers['if-none-match'],
          );
          reply
            .header('etag', answer.etag)
            .header('cache-control', `public, max-age=${answer.maxAgeSeconds}`);
          // Untyped: a 304 goes out without a body, so without Content-Type or Content-Length
          // (RFC 9110 §8.6, §15.4.5), where `send(null)` would serialise `null` as JSON.
          const bytes: FastifyReply = reply;
          if (answer.kind === 'not-modified') return bytes.status(304).send();
          // The body is the file's bytes: no schema serialises it (the document lists it as binary).
          return bytes
            .header('content-type', answer.contentType)
            .header('content-length', answer.byteSize)
            .send(answer.stream);
        },
      );
    }
  };
}

/** Signing a URL with an API key: the workspace's newest secret signs it, audited. */
export function urlSigningRoutes(service: RenderUrlService) {
  return async function register(root: FastifyInstance): Promise<void> {
    const app = root.withTypeProvider<ZodTypeProvider>();
    app.post(
      '/v1/templates/:id/signed-url',
      {
        config: { auth: 'apiKey', scope: 'render:write' },
        schema: operation({
          id: 'signRenderUrl',
          summary: 'Sign a render URL for a template',
          description:
            "Signs a GET URL with the workspace's newest URL-signing secret: the modifications become " +
            'its query, the options their reserved names. Anyone holding the URL renders it, so it ' +
            'needs `render:write` and is audited. 409 when the workspace has no URL-signing secret.',
          tag: renderUrlsTag,
          params: idParams,
          body: signRequestSchema,
          response: { 200: signedRenderUrlSchema },
          errors: [400, 403, 404, 409, 413, 415],
        }),
      },
      async (request) => service.sign(requirePrincipal(request.principal), request.params.id, request.body),
    );
  };
}

export function urlSecretRoutes(service: RenderUrlService) {
  return async function register(root: FastifyInstance): Promise<void> {
    const app = root.withTypeProvider<ZodTypeProvider>();
    const config = { auth: 'operator' as const };
    const tag = urlSecretsTag;
    app.post(
      '/admin/v1/workspaces/:id/url-signing-secrets',
      {
        config,
        schema: operation({
          id: 'createUrlSigningSecret',
          summary: 'Create a URL-signing secret for a workspace',
          tag,
          params: idParams,
          body: createBody,
          bodyRequired: false,
          response: { 201: secretWithKeySchema },
          errors: [400, 401, 404],
        }),
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await service.create(principalOf(request), request.params.id, request.body ?? {})),
    );
    app.get(
      '/admin/v1/workspaces/:id/url-signing-secrets',
      {
        config,
        schema: operation({
          id: 'listUrlSigningSecrets',
          summary: "List a workspace's URL-signing secrets (without the keys)",
          tag,
          params: idParams,
          response: { 200: z.object({ items: z.array(secretSchema) }) },
          errors: [401, 404],
        }),
      },
      async (request) => ({ items: await service.list(principalOf(request), request.params.id) }),
    );
    app.patch(
      '/admin/v1/url-signing-secrets/:id',
      {
        config,
        schema: operation({
          id: 'updateUrlSigningSecret',
          summary: 'Change the render cap of a URL-signing secret',
          tag,
          params: idParams,
          body: z.object({ renderCap }).strict(),
          response: { 200: secretSchema },
          errors: [400, 401, 404],
        }),
      },
      async (request) => service.update(principalOf(request), request.params.id, request.body),
    );
    app.post(
      '/admin/v1/url-signing-secrets/:id/rotate',
      {
        config,
        schema: operation({
          id: 'rotateUrlSigningSecret',
          summary: 'Replace the key of a URL-signing secret',
          description:
            'The answer holds the new key, shown this once. URLs signed with the previous key keep ' +
            'working until `previousValidUntil` (PLATEN_URL_SECRET_GRACE_SECONDS, default 24 hours); ' +
            'each earlier key until its own grace ends (at most 20 kept).',
          tag,
          params: idParams,
          bodyRequired: false,
          response: { 200: secretWithKeySchema },
          errors: [401, 404],
        }),
      },
      async (request) => service.rotate(principalOf(request), request.params.id),
    );
    app.delete(
      '/admin/v1/url-signing-secrets/:id',
      {
        config,
        schema: operation({
          id: 'revokeUrlSigningSecret',
          summary: 'Revoke a URL-signing secret: no URL it signed verifies any more',
          tag,
          params: idParams,
          response: { 204: z.null() },
          errors: [401, 404],
        }),
      },
      async (request, reply) => {
        await service.revoke(principalOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}
