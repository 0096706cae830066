/**
 * The machine API for template versions (docs/versions.md): publish, list, read, roll back and
 * diff. Each handler is one call to the TemplateVersionService with the request's principal.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requirePrincipal } from '../auth/index.ts';
import { operation } from '../http/openapi.ts';
import type { RateLimiter } from '../ratelimit/index.ts';
import { perCallerRateLimit } from '../renders/index.ts';
import { etagOf, ifMatchHeaders, templatesTag as tag } from '../templates/index.ts';
import { templateIdParams, templateWithDocumentSchema } from '../templates/schemas.ts';
import {
  diffImageQuery,
  diffQuery,
  publishBody,
  templateDiffSchema,
  templateVersionWithDocumentSchema,
  versionListQuery,
  versionListSchema,
  versionParams,
} from './schemas.ts';
import type { TemplateVersionService } from './service.ts';

/** `limiter`: the render rate limit, which the diff picture (two small renders) counts against. */
export function versionRoutes(versions: TemplateVersionService, limiter: RateLimiter | null) {
  return async function register(root: FastifyInstance): Promise<void> {
    const app = root.withTypeProvider<ZodTypeProvider>();

    app.post(
      '/v1/templates/:id/versions',
      {
        config: { auth: 'apiKey', scope: 'template:write' },
        schema: operation({
          id: 'publishTemplateVersion',
          summary: "Publish the template's draft as a new version",
          description:
            'Freezes the draft as the next numbered, immutable version (201). Publishing a draft ' +
            'unchanged since the last version answers that version (200): a retry never makes two. ' +
            'Renders, signed URLs, batches and MCP tools pin a version with `version`.',
          tag,
          params: templateIdParams,
          body: publishBody.nullish(),
          bodyRequired: false,
          response: { 200: templateVersionWithDocumentSchema, 201: templateVersionWithDocumentSchema },
          errors: [400, 403, 404, 415],
        }),
      },
      async (request, reply) => {
        const { version, created } = await versions.publish(
          requirePrincipal(request.principal),
          request.params.id,
          request.body ?? {},
        );
        return reply.status(created ? 201 : 200).send(version);
      },
    );

    app.get(
      '/v1/templates/:id/versions',
      {
        config: { auth: 'apiKey', scope: 'template:read' },
        schema: operation({
          id: 'listTemplateVersions',
          summary: "List a template's published versions",
          description:
            'Newest first, paged with `limit` (at most 100) and the `nextCursor` of the last page.',
          tag,
          params: templateIdParams,
          querystring: versionListQuery,
          response: { 200: versionListSchema },
          errors: [400, 403, 404],
        }),
      },
      async (request) => versions.list(requirePrincipal(request.principal), request.params.id, request.query),
    );

    app.get(
      '/v1/templates/:id/versions/:version',
      {
        config: { auth: 'apiKey', scope: 'template:read' },
        schema: operation({
          id: 'getTemplateVersion',
          summary: 'Get a published version with its document',
          tag,
          params: versionParams,
          response: { 200: templateVersionWithDocumentSchema },
          errors: [400, 403, 404],
        }),
      },
      async (request) =>
        versions.get(requirePrincipal(request.principal), request.params.id, request.params.version),
    );

    app.post(
      '/v1/templates/:id/versions/:version/rollback',
      {
        config: { auth: 'apiKey', scope: 'template:write' },
        schema: operation({
          id: 'rollbackTemplate',
          summary: 'Roll the draft back to a version',
          description:
            "Saves a copy of the version's document as the draft (its `revision` goes up by one); the " +
            'versions themselves never change. Publish afterwards to make it the latest version.',
          tag,
          params: versionParams,
          headers: ifMatchHeaders,
          bodyRequired: false,
          response: { 200: templateWithDocumentSchema },
          errors: [400, 403, 404, 412],
        }),
      },
      async (request, reply) => {
        const saved = await versions.rollback(
          requirePrincipal(request.principal),
          request.params.id,
          request.params.version,
          request.headers['if-match'],
        );
        reply.header('etag', etagOf(saved.revision));
        return saved;
      },
    );

    app.get(
      '/v1/templates/:id/diff',
      {
        config: { auth: 'apiKey', scope: 'template:read' },
        schema: operation({
          id: 'diffTemplate',
          summary: 'What changed between two versions, or a version and the draft',
          description:
            'Element by element: pages and elements are matched by id, so a moved element is one ' +
            '`reorder`. `from` defaults to `latest`, `to` to `draft`. The picture: `/diff.png`.',
          tag,
          params: templateIdParams,
          querystring: diffQuery,
          response: { 200: templateDiffSchema },
          errors: [400, 403, 404],
        }),
      },
      async (request) =>
        versions.diff(
          requirePrincipal(request.principal),
          request.params.id,
          request.query.from,
          request.query.to,
        ),
    );

    app.get(
      '/v1/templates/:id/diff.png',
      {
        config: { auth: 'apiKey', scope: 'template:read' },
        onRequest: perCallerRateLimit(limiter),
        schema: operation({
          id: 'diffTemplateImage',
          summary: 'A picture of what changed on a page',
          description:
            'Both sides drawn at most 800 px on their longest side; the newer is shown faded and its ' +
            'changed pixels in magenta, each changed region boxed. Free. ' +
            '`X-Changed-Pixels` and `X-Total-Pixels` count them.',
          tag,
          params: templateIdParams,
          querystring: diffImageQuery,
          rawResponse: { 'image/png': { schema: { type: 'string', format: 'binary' } } },
          response: {},
          errors: [400, 403, 404, 422, 429, 503],
        }),
      },
      async (request, reply) => {
        const { from, to, pageId } = request.query;
        const diff = await versions.diffImage(
          requirePrincipal(request.principal),
          request.params.id,
          from,
          to,
          pageId,
        );
        const bytes: FastifyReply = reply;
        return bytes
          .header('content-type', 'image/png')
          .header('cache-control', 'private, no-store')
          .header('x-changed-pixels', String(diff.changedPixels))
          .header('x-total-pixels', String(diff.totalPixels))
          .send(diff.png);
      },
    );
  };
}
