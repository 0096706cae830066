/**
 * The machine API for templates: `/v1/templates` with API keys, cursor paging and ETag revisions.
 * Each handler is one call to the TemplateService with the request's principal.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrincipal } from '../auth/index.ts';
import { errorResponses } from '../http/openapi.ts';
import {
  createTemplateBody,
  listQuery,
  patchTemplateBody,
  saveTemplateBody,
  templateIdParams,
  templateListSchema,
  templateWithDocumentSchema,
} from './schemas.ts';
import { etagOf, type TemplateService } from './service.ts';

const tags = ['templates'];
const security = [{ apiKey: [] }];

export function templateRoutes(templates: TemplateService) {
  return async function register(root: FastifyInstance): Promise<void> {
    const app = root.withTypeProvider<ZodTypeProvider>();

    app.get(
      '/v1/templates',
      {
        config: { auth: 'apiKey', scope: 'template:read' },
        schema: {
          tags,
          security,
          querystring: listQuery,
          response: { 200: templateListSchema, ...errorResponses },
        },
      },
      async (request) => templates.list(requirePrincipal(request.principal), request.query),
    );

    app.post(
      '/v1/templates',
      {
        config: { auth: 'apiKey', scope: 'template:write' },
        schema: {
          tags,
          security,
          body: createTemplateBody,
          response: { 201: templateWithDocumentSchema, ...errorResponses },
        },
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
        schema: {
          tags,
          security,
          params: templateIdParams,
          response: { 200: templateWithDocumentSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const template = await templates.get(requirePrincipal(request.principal), request.params.id);
        reply.header('etag', etagOf(template.revision));
        return template;
      },
    );

    app.put(
      '/v1/templates/:id',
      {
        config: { auth: 'apiKey', scope: 'template:write' },
        schema: {
          tags,
          security,
          params: templateIdParams,
          headers: z.object({ 'if-match': z.string().optional() }).passthrough(),
          body: saveTemplateBody,
          response: { 200: templateWithDocumentSchema, ...errorResponses },
        },
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
        schema: {
          tags,
          security,
          params: templateIdParams,
          body: patchTemplateBody,
          response: { 200: templateWithDocumentSchema, ...errorResponses },
        },
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
        schema: { tags, security, params: templateIdParams, response: { 204: z.null(), ...errorResponses } },
      },
      async (request, reply) => {
        await templates.remove(requirePrincipal(request.principal), request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}
