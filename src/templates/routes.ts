/**
 * The machine API for templates: `/v1/templates` with API keys, cursor paging and ETag revisions.
 * Each handler is one call to the TemplateService with the request's principal.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrincipal } from '../auth/index.ts';
import { type OpenApiTag, operation } from '../http/openapi.ts';
import {
  createTemplateBody,
  listQuery,
  patchTemplateBody,
  saveTemplateBody,
  templateIdParams,
  templateListSchema,
  templateVariablesSchema,
  templateWithDocumentSchema,
  variablesQuery,
} from './schemas.ts';
import { etagOf, type TemplateService } from './service.ts';

export const templatesTag: OpenApiTag = {
  name: 'templates',
  description:
    'Design templates: a record plus its design document (see docs/design-document.md). Responses ' +
    'carry `ETag: "<revision>"`; send it back as `If-Match` when saving.',
};
const tag = templatesTag;
/** `If-Match` on the routes that write the draft (a save, a rollback: src/versions). */
export const ifMatchHeaders = z
  .object({
    'if-match': z
      .string()
      .optional()
      .describe('The revision the draft was read at, e.g. `"3"`; an older one answers 412'),
  })
  .passthrough();

export function templateRoutes(templates: TemplateService) {
  return async function register(root: FastifyInstance): Promise<void> {
    const app = root.withTypeProvider<ZodTypeProvider>();

    app.get(
      '/v1/templates',
      {
        config: { auth: 'apiKey', scope: 'template:read' },
        schema: operation({
          id: 'listTemplates',
          summary: 'List templates',
          description:
            'Newest first, paged with `limit` (at most 100) and the `nextCursor` of the last page.',
          tag,
          querystring: listQuery,
          response: { 200: templateListSchema },
          errors: [400, 403],
        }),
      },
      async (request) => templates.list(requirePrincipal(request.principal), request.query),
    );

    app.post(
      '/v1/templates',
      {
        config: { auth: 'apiKey', scope: 'template:write' },
        schema: operation({
          id: 'createTemplate',
          summary: 'Create a template',
          description:
            'From a design document (`{name, document}`) or as one blank page (`{name, width, height}`).',
          tag,
          body: createTemplateBody,
          response: { 201: templateWithDocumentSchema },
          errors: [400, 403, 413, 415],
        }),
      },
      async (request, reply) => {
        const template = await templates.create(requirePrincipal(request.principal), request.body);
        reply.header('etag', etagOf(template.revision));
        return reply.status(201).send(template);
      },
    );

    app.get(
      '/v1/templates/:id',
      {
        config: { auth: 'apiKey', scope: 'template:read' },
        schema: operation({
          id: 'getTemplate',
          summary: 'Get a template with its document',
          tag,
          params: templateIdParams,
          response: { 200: templateWithDocumentSchema },
          errors: [403, 404],
        }),
      },
      async (request, reply) => {
        const template = await templates.get(requirePrincipal(request.principal), request.params.id);
        reply.header('etag', etagOf(template.revision));
        return template;
      },
    );

    app.get(
      '/v1/templates/:id/variables',
      {
        config: { auth: 'apiKey', scope: 'template:read' },
        schema: operation({
          id: 'getTemplateVariables',
          summary: 'List the variables a template takes',
          description:
            'Every `modifications` key the draft (or `version`) acts on: placeholders, named elements, ' +
            '`<name>.visible` and `<name>.color`, with its kind, its default and the boxes it fills ' +
            '(size, font size and auto-fit limits for text). See docs/variables.md.',
          tag,
          params: templateIdParams,
          querystring: variablesQuery,
          response: { 200: templateVariablesSchema },
          errors: [400, 403, 404],
        }),
      },
      async (request) =>
        templates.variables(requirePrincipal(request.principal), request.params.id, request.query.version),
    );

    app.put(
      '/v1/templates/:id',
      {
        config: { auth: 'apiKey', scope: 'template:write' },
        schema: operation({
          id: 'saveTemplate',
          summary: "Save a template's draft document",
          description: 'Replaces the document (and the name, if given); `revision` goes up by one.',
          tag,
          params: templateIdParams,
          headers: ifMatchHeaders,
          body: saveTemplateBody,
          response: { 200: templateWithDocumentSchema },
          errors: [400, 403, 404, 412, 413, 415],
        }),
      },
      async (request, reply) => {
        const saved = await templates.save(requirePrincipal(request.principal), request.params.id, {
          ...request.body,
          ifMatch: request.headers['if-match'],
        });
        reply.header('etag', etagOf(saved.revision));
        return saved;
      },
    );

    app.patch(
      '/v1/templates/:id',
      {
        config: { auth: 'apiKey', scope: 'template:write' },
        schema: operation({
          id: 'updateTemplateMetadata',
          summary: 'Rename or share a template (metadata only; the revision stays)',
          tag,
          params: templateIdParams,
          body: patchTemplateBody,
          response: { 200: templateWithDocumentSchema },
          errors: [400, 403, 404, 413, 415],
        }),
      },
      async (request, reply) => {
        const updated = await templates.updateMeta(
          requirePrincipal(request.principal),
          request.params.id,
          request.body,
        );
        reply.header('etag', etagOf(updated.revision));
        return updated;
      },
    );

    app.delete(
      '/v1/templates/:id',
      {
        config: { auth: 'apiKey', scope: 'template:write' },
        schema: operation({
          id: 'deleteTemplate',
          summary: 'Delete a template',
          tag,
          params: templateIdParams,
          response: { 204: z.null() },
          errors: [403, 404],
        }),
      },
      async (request, reply) => {
        await templates.remove(requirePrincipal(request.principal), request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}
