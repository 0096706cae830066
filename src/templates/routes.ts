/** The machine API for templates: `/v1/templates` with API keys, cursor paging and ETag revisions. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrincipal } from '../auth/principal.ts';
import type { AppDeps } from '../http/context.ts';
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
import {
  documentFromCreate,
  etagOf,
  loadTemplate,
  parseIfMatch,
  toResponse,
  validateDocument,
} from './service.ts';

const tags = ['templates'];
const security = [{ apiKey: [] }];

export function templateRoutes({ store }: AppDeps) {
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
      async (request) => {
        const principal = requirePrincipal(request.principal);
        return store.templates.list(principal.workspaceId, request.query);
      },
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
        const principal = requirePrincipal(request.principal);
        const document = documentFromCreate(request.body);
        const template = await store.templates.create({
          workspaceId: principal.workspaceId,
          name: request.body.name,
          document,
          shared: request.body.shared,
        });
        reply.header('etag', etagOf(template.revision));
        return reply.status(201).send(toResponse(template));
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
        const template = await loadTemplate(store, requirePrincipal(request.principal), request.params.id);
        reply.header('etag', etagOf(template.revision));
        return toResponse(template);
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
        const principal = requirePrincipal(request.principal);
        const document = validateDocument(request.body.document);
        // The template is looked up first: an unknown id is 404 whatever the If-Match says.
        await loadTemplate(store, principal, request.params.id);
        const expectedRevision = parseIfMatch(request.headers['if-match']);
        const saved = await store.templates.saveDocument(request.params.id, {
          document,
          name: request.body.name,
          expectedRevision,
        });
        reply.header('etag', etagOf(saved.revision));
        return toResponse(saved);
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
        const principal = requirePrincipal(request.principal);
        await loadTemplate(store, principal, request.params.id);
        const updated = await store.templates.updateMeta(request.params.id, request.body);
        reply.header('etag', etagOf(updated.revision));
        return toResponse(updated);
      },
    );

    app.delete(
      '/v1/templates/:id',
      {
        config: { auth: 'apiKey', scope: 'template:write' },
        schema: { tags, security, params: templateIdParams, response: { 204: z.null(), ...errorResponses } },
      },
      async (request, reply) => {
        const principal = requirePrincipal(request.principal);
        await loadTemplate(store, principal, request.params.id);
        await store.templates.delete(request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}
