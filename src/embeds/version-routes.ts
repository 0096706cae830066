/**
 * The studio's history panel: a template's versions through an embed session (docs/versions.md).
 * Each route is one call to the same TemplateVersionService the machine API uses, with the
 * session's principal: who sees the template lists, reads and diffs its versions, who may change
 * it publishes and rolls back (a shared template, or any workspace template of an embed that shows
 * published templates only, answers 403), so no rule is written here.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrincipal } from '../auth/index.ts';
import { type OpenApiTag, operation } from '../http/openapi.ts';
import type { RateLimiter } from '../ratelimit/index.ts';
import { perCallerRateLimit } from '../renders/index.ts';
import { etagOf } from '../templates/index.ts';
import { templateWithDocumentSchema } from '../templates/schemas.ts';
import type { TemplateVersionService } from '../versions/index.ts';
import {
  diffImageQuery,
  diffQuery,
  publishBody,
  templateDiffSchema,
  templateVersionWithDocumentSchema,
  versionListQuery,
  versionListSchema,
  versionPathField,
} from '../versions/schemas.ts';
import { embedTemplateParams } from './schemas.ts';

export interface EmbedVersionServices {
  templateVersions: TemplateVersionService;
  limiter: RateLimiter | null;
}

const session = (scope: 'template:read' | 'template:write') => ({ auth: 'embedSession', scope }) as const;
const versionParams = embedTemplateParams.extend({ version: versionPathField });
const ifMatchHeaders = z.object({ 'if-match': z.string().max(100).optional() }).passthrough();

export async function embedVersionRoutes(
  root: FastifyInstance,
  { templateVersions: versions, limiter }: EmbedVersionServices,
  tag: OpenApiTag,
): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/v1/embed/:embedId/templates/:templateId/versions',
    {
      config: session('template:read'),
      schema: operation({
        id: 'listEmbedTemplateVersions',
        summary: "List a template's published versions (the studio's history panel)",
        description: 'Newest first, paged with `limit` (at most 100) and `nextCursor`.',
        tag,
        params: embedTemplateParams,
        querystring: versionListQuery,
        response: { 200: versionListSchema },
        errors: [400, 401, 403, 404],
      }),
    },
    async (request) =>
      versions.list(requirePrincipal(request.principal), request.params.templateId, request.query),
  );
  app.post(
    '/v1/embed/:embedId/templates/:templateId/versions',
    {
      config: session('template:write'),
      schema: operation({
        id: 'publishEmbedTemplateVersion',
        summary: 'Publish the draft as a new version',
        description:
          'As the machine API: 201 with the new version, 200 with the latest when the draft is unchanged. ' +
          'A template the session may not change answers 403 `FORBIDDEN`.',
        tag,
        params: embedTemplateParams,
        body: publishBody.nullish(),
        bodyRequired: false,
        response: { 200: templateVersionWithDocumentSchema, 201: templateVersionWithDocumentSchema },
        errors: [400, 401, 403, 404, 415],
      }),
    },
    async (request, reply) => {
      const { version, created } = await versions.publish(
        requirePrincipal(request.principal),
        request.params.templateId,
        request.body ?? {},
      );
      return reply.status(created ? 201 : 200).send(version);
    },
  );
  app.get(
    '/v1/embed/:embedId/templates/:templateId/versions/:version',
    {
      config: session('template:read'),
      schema: operation({
        id: 'getEmbedTemplateVersion',
        summary: 'Get a published version with its document',
        tag,
        params: versionParams,
        response: { 200: templateVersionWithDocumentSchema },
        errors: [400, 401, 403, 404],
      }),
    },
    async (request) =>
      versions.get(requirePrincipal(request.principal), request.params.templateId, request.params.version),
  );
  app.post(
    '/v1/embed/:embedId/templates/:templateId/versions/:version/rollback',
    {
      config: session('template:write'),
      schema: operation({
        id: 'rollbackEmbedTemplate',
        summary: 'Roll the draft back to a version',
        description:
          "Saves a copy of the version's document as the draft, guarded by `If-Match` like a save (412).",
        tag,
        params: versionParams,
        headers: ifMatchHeaders,
        bodyRequired: false,
        response: { 200: templateWithDocumentSchema },
        errors: [400, 401, 403, 404, 412],
      }),
    },
    async (request, reply) => {
      const saved = await versions.rollback(
        requirePrincipal(request.principal),
        request.params.templateId,
        request.params.version,
        request.headers['if-match'],
      );
      reply.header('etag', etagOf(saved.revision));
      return saved;
    },
  );
  app.get(
    '/v1/embed/:embedId/templates/:templateId/diff',
    {
      config: session('template:read'),
      schema: operation({
        id: 'diffEmbedTemplate',
        summary: 'What changed between two versions, or a version and the draft',
        description:
          'As the machine API; `draft` is refused (403) where the session sees published versions only.',
        tag,
        params: embedTemplateParams,
        querystring: diffQuery,
        response: { 200: templateDiffSchema },
        errors: [400, 401, 403, 404],
      }),
    },
    async (request) =>
      versions.diff(
        requirePrincipal(request.principal),
        request.params.templateId,
        request.query.from,
        request.query.to,
      ),
  );
  app.get(
    '/v1/embed/:embedId/templates/:templateId/diff.png',
    {
      config: session('template:read'),
      onRequest: perCallerRateLimit(limiter),
      schema: operation({
        id: 'diffEmbedTemplateImage',
        summary: 'A picture of what changed on a page',
        description: 'As the machine API: counted against the render rate limit, free.',
        tag,
        params: embedTemplateParams,
        querystring: diffImageQuery,
        rawResponse: { 'image/png': { schema: { type: 'string', format: 'binary' } } },
        response: {},
        errors: [400, 401, 403, 404, 422, 429, 503],
      }),
    },
    async (request, reply) => {
      const { from, to, pageId } = request.query;
      const diff = await versions.diffImage(
        requirePrincipal(request.principal),
        request.params.templateId,
        from,
        to,
        pageId,
      );
      // The 200 is raw bytes, outside the typed (JSON) responses.
      return (reply as FastifyReply)
        .header('content-type', 'image/png')
        .header('cache-control', 'private, no-store')
        .header('x-changed-pixels', String(diff.changedPixels))
        .header('x-total-pixels', String(diff.totalPixels))
        .send(diff.png);
    },
  );
}
