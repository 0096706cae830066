/**
 * The spec's embed routes, `/v1/embed/:embedId/…`: public info and session minting for the embed
 * id alone, then the template, version (version-routes.ts), asset and render routes for an embed
 * session. Each is one call to the template, version, asset or render service with the session's
 * principal, which carries the end-user:
 * visibility, ownership and credits are the services' rules, written once.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type AssetService,
  acceptUploads,
  assetListQuery,
  assetSchema,
  readUpload,
  uploadQuery,
} from '../assets/index.ts';
import { requirePrincipal } from '../auth/index.ts';
import { type OpenApiTag, operation } from '../http/openapi.ts';
import type { RateLimiter } from '../ratelimit/index.ts';
import {
  acceptEmptyRenderBody,
  perCallerRateLimit,
  type RenderService,
  renderRequestSchema,
  renderResponseSchema,
} from '../renders/index.ts';
import { etagOf, type TemplateService } from '../templates/index.ts';
import {
  createOwnTemplateBody,
  listQuery,
  saveTemplateBody,
  templateListSchema,
  templateWithDocumentSchema,
} from '../templates/schemas.ts';
import { type EmbedPreflightServices, embedPreflightRoute } from './preflight-route.ts';
import {
  embedParams,
  embedSessionSchema,
  embedTemplateParams,
  publicEmbedInfoSchema,
  sessionBody,
} from './schemas.ts';
import type { EmbedService } from './service.ts';
import { type EmbedVersionServices, embedVersionRoutes } from './version-routes.ts';

export const embedTag: OpenApiTag = {
  name: 'embed',
  description:
    "The embeddable studio's routes: public info, end-user sessions (minted by the customer's backend), and the session's templates, their versions, assets and renders.",
};
const tag = embedTag;

export interface EmbedRouteServices extends EmbedVersionServices, EmbedPreflightServices {
  embeds: EmbedService;
  templates: TemplateService;
  assets: AssetService;
  renders: RenderService;
  limiter: RateLimiter | null;
  maxAssetBytes: number;
}

const session = (scope: 'template:read' | 'template:write' | 'render:write' | 'asset:read' | 'asset:write') =>
  ({ auth: 'embedSession', scope }) as const;

const ifMatchHeaders = z.object({ 'if-match': z.string().max(100).optional() }).passthrough();

async function publicRoutes(root: FastifyInstance, { embeds }: EmbedRouteServices): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/v1/embed/:embedId',
    {
      config: { auth: 'none' },
      schema: operation({
        id: 'getEmbedInfo',
        summary: 'Public embed info (branding and toggles)',
        tag,
        params: embedParams,
        response: { 200: publicEmbedInfoSchema },
        errors: [404],
      }),
    },
    async (request) => embeds.publicInfo(request.params.embedId),
  );
  app.post(
    '/v1/embed/:embedId/session',
    {
      config: { auth: 'none' },
      schema: operation({
        id: 'createEmbedSession',
        summary: 'Mint an embed session token for one end-user',
        description:
          'Call it from your own backend, never a browser (it answers no CORS). `userId` is trusted as given and required for a multi-tenant embed. An embed with `mintRequiresApiKey` also needs an API key of its workspace (`Authorization: Bearer plt_…`) holding every scope the session gets; the key is checked before anything else about the embed is revealed.',
        tag,
        params: embedParams,
        body: sessionBody,
        response: { 201: embedSessionSchema },
        errors: [400, 403, 404],
      }),
    },
    async (request, reply) =>
      reply
        .status(201)
        .header('cache-control', 'no-store')
        .send(await embeds.mintSession(request.params.embedId, request.body.userId, request.headers)),
  );
}

async function templateRoutes(root: FastifyInstance, { templates }: EmbedRouteServices): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/v1/embed/:embedId/templates',
    {
      config: session('template:read'),
      schema: operation({
        id: 'listEmbedTemplates',
        summary: "List the session's templates: the end-user's own plus shared ones",
        tag,
        params: embedParams,
        querystring: listQuery,
        response: { 200: templateListSchema },
        errors: [400, 401, 403, 404],
      }),
    },
    async (request) => templates.list(requirePrincipal(request.principal), request.query),
  );
  app.post(
    '/v1/embed/:embedId/templates',
    {
      config: session('template:write'),
      schema: operation({
        id: 'createEmbedTemplate',
        summary: 'Create a template (private to the end-user of a multi-tenant embed)',
        tag,
        params: embedParams,
        body: createOwnTemplateBody,
        response: { 201: templateWithDocumentSchema },
        errors: [400, 401, 403, 404, 413, 415],
      }),
    },
    async (request, reply) => {
      const template = await templates.create(requirePrincipal(request.principal), request.body);
      return reply.status(201).header('etag', etagOf(template.revision)).send(template);
    },
  );
  app.get(
    '/v1/embed/:embedId/templates/:templateId',
    {
      config: session('template:read'),
      schema: operation({
        id: 'getEmbedTemplate',
        summary: 'Open a template: its record and editable design document',
        tag,
        params: embedTemplateParams,
        response: { 200: templateWithDocumentSchema },
        errors: [401, 403, 404],
      }),
    },
    async (request, reply) => {
      const template = await templates.get(requirePrincipal(request.principal), request.params.templateId);
      reply.header('etag', etagOf(template.revision));
      return template;
    },
  );
  app.put(
    '/v1/embed/:embedId/templates/:templateId',
    {
      config: session('template:write'),
      schema: operation({
        id: 'saveEmbedTemplate',
        summary: 'Save the design document (editor autosave)',
        description: 'Shared templates are read-only to a multi-tenant session (403 `FORBIDDEN`).',
        tag,
        params: embedTemplateParams,
        headers: ifMatchHeaders,
        body: saveTemplateBody,
        response: { 200: templateWithDocumentSchema },
        errors: [400, 401, 403, 404, 412, 413, 415],
      }),
    },
    async (request, reply) => {
      const saved = await templates.save(requirePrincipal(request.principal), request.params.templateId, {
        ...request.body,
        ifMatch: request.headers['if-match'],
      });
      reply.header('etag', etagOf(saved.revision));
      return saved;
    },
  );
}

async function renderRoute(root: FastifyInstance, { renders, limiter }: EmbedRouteServices): Promise<void> {
  acceptEmptyRenderBody(root);
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/v1/embed/:embedId/templates/:templateId/render',
    {
      config: session('render:write'),
      onRequest: perCallerRateLimit(limiter),
      preValidation: async (request) => {
        request.body ??= { format: 'png' };
      },
      schema: operation({
        id: 'renderEmbedTemplate',
        summary: "Render the template's current draft (needs the embed's downloads toggle)",
        description:
          'Charged to the workspace with the same credits, identical-render and idempotency rules as the machine API.',
        tag,
        params: embedTemplateParams,
        body: renderRequestSchema,
        bodyRequired: false,
        response: { 200: renderResponseSchema },
        errors: [400, 401, 402, 403, 404, 415, 422, 429, 503],
      }),
    },
    async (request) =>
      renders.render(requirePrincipal(request.principal), request.params.templateId, request.body),
  );
}

async function assetRoutes(root: FastifyInstance, services: EmbedRouteServices): Promise<void> {
  // Videos may be larger than images: the service's largest limit; it holds each kind to its own.
  await acceptUploads(root, services.assets.uploadLimitBytes);
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/v1/embed/:embedId/assets',
    {
      config: session('asset:read'),
      schema: operation({
        id: 'listEmbedAssets',
        summary: "List the session's assets (the asset picker)",
        tag,
        params: embedParams,
        querystring: assetListQuery,
        response: { 200: z.object({ items: z.array(assetSchema), nextCursor: z.string().nullable() }) },
        errors: [400, 401, 403, 404],
      }),
    },
    async (request) => services.assets.list(requirePrincipal(request.principal), request.query),
  );
  app.post(
    '/v1/embed/:embedId/assets',
    {
      bodyLimit: services.assets.uploadLimitBytes,
      config: session('asset:write'),
      schema: operation({
        id: 'uploadEmbedAsset',
        summary: 'Upload an image, font, video or audio file for the end-user',
        description: '`?family=` names a font (needed for WOFF2); otherwise its name table does.',
        tag,
        params: embedParams,
        querystring: uploadQuery,
        rawBody: {
          'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
        },
        response: { 201: assetSchema },
        errors: [400, 401, 403, 404, 413, 415],
      }),
    },
    async (request, reply) => {
      const bytes = await readUpload(request);
      const asset = await services.assets.upload(requirePrincipal(request.principal), {
        bytes,
        fontFamily: request.query.family,
      });
      return reply.status(201).send(asset);
    },
  );
}

const imageQuery = z.object({ src: z.string().min(1).max(8192) }).strict();
const fontFacesSchema = z
  .object({
    items: z.array(
      z.object({ family: z.string(), assetId: z.string(), mimeType: z.string(), url: z.string() }),
    ),
  })
  .meta({ id: 'EmbedFontFaces' });

/**
 * What the studio needs to draw a design exactly as the renderer does: the images its documents
 * name and the workspace's uploaded fonts, under the render's own visibility rules. Reading a
 * template is enough (a session that may open a design may see it drawn); remote fetches share the
 * render rate limit, since each costs the service a bounded fetch.
 */
async function designInputRoutes(root: FastifyInstance, services: EmbedRouteServices): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/v1/embed/:embedId/images',
    {
      config: session('template:read'),
      onRequest: perCallerRateLimit(services.limiter),
      schema: operation({
        id: 'getEmbedImage',
        summary: "An image a design names, as the renderer would draw it (the studio's canvas)",
        description:
          '`src` is `asset:<id>` (an asset the session may use), a data URI, or an https URL fetched through the same SSRF guard and limits as renders; the answer is the image bytes, only when they sniff as PNG, JPEG, WebP, GIF or SVG.',
        tag,
        params: embedParams,
        querystring: imageQuery,
        rawResponse: { 'image/*': { schema: { type: 'string', format: 'binary' } } },
        response: {},
        errors: [400, 401, 403, 404, 422, 429],
      }),
    },
    async (request, reply) => {
      const image = await services.assets.sourceImage(requirePrincipal(request.principal), request.query.src);
      // The 200 is raw bytes, outside the typed (JSON) responses.
      return (reply as FastifyReply)
        .header('content-type', image.mimeType)
        .header('cache-control', 'private, max-age=300')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "sandbox; default-src 'none'")
        .send(Buffer.from(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength));
    },
  );
  app.get(
    '/v1/embed/:embedId/fonts',
    {
      config: session('template:read'),
      schema: operation({
        id: 'listEmbedFonts',
        summary: "The workspace's uploaded fonts the session's designs render with",
        tag,
        params: embedParams,
        response: { 200: fontFacesSchema },
        errors: [401, 403, 404],
      }),
    },
    async (request) => ({ items: await services.assets.fontFaces(requirePrincipal(request.principal)) }),
  );
}

export function embedRoutes(services: EmbedRouteServices) {
  return async (app: FastifyInstance): Promise<void> => {
    await app.register(async (scope) => publicRoutes(scope, services));
    await app.register(async (scope) => templateRoutes(scope, services));
    await app.register(async (scope) => embedVersionRoutes(scope, services, tag));
    await app.register(async (scope) => embedPreflightRoute(scope, services, tag));
    await app.register(async (scope) => renderRoute(scope, services));
    await app.register(async (scope) => assetRoutes(scope, services));
    await app.register(async (scope) => designInputRoutes(scope, services));
  };
}
