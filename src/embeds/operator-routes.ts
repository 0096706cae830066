/**
 * The operator's embed configuration routes (`Authorization: Bearer $PLATEN_ADMIN_TOKEN`):
 * create and list a workspace's embeds, read, update and delete one. Defaults per docs/api.md, Embeds.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../auth/index.ts';
import { type OpenApiTag, operation } from '../http/openapi.ts';
import { createEmbedBody, embedConfigSchema, updateEmbedBody } from './schemas.ts';
import type { EmbedService } from './service.ts';

export const embedConfigTag: OpenApiTag = {
  name: 'operator: embeds',
  description: 'Embed configurations: branding, toggles, tenancy and session lifetime (operator token).',
};
const tag = embedConfigTag;
const config = { auth: 'operator' } as const;
const idParams = z.object({ id: z.string().max(200) });

export function embedOperatorRoutes(embeds: EmbedService) {
  return async (root: FastifyInstance): Promise<void> => {
    const app = root.withTypeProvider<ZodTypeProvider>();
    app.post(
      '/admin/v1/workspaces/:id/embeds',
      {
        config,
        schema: operation({
          id: 'createEmbed',
          summary: 'Create an embed for a workspace',
          tag,
          params: idParams,
          body: createEmbedBody,
          response: { 201: embedConfigSchema },
          errors: [400, 401, 404, 415],
        }),
      },
      async (request, reply) =>
        reply.status(201).send(await embeds.create(principalOf(request), request.params.id, request.body)),
    );
    app.get(
      '/admin/v1/workspaces/:id/embeds',
      {
        config,
        schema: operation({
          id: 'listEmbeds',
          summary: "List a workspace's embeds",
          tag,
          params: idParams,
          response: { 200: z.object({ items: z.array(embedConfigSchema) }) },
          errors: [401, 404],
        }),
      },
      async (request) => ({ items: await embeds.list(principalOf(request), request.params.id) }),
    );
    app.get(
      '/admin/v1/embeds/:id',
      {
        config,
        schema: operation({
          id: 'getEmbed',
          summary: 'Get an embed configuration',
          tag,
          params: idParams,
          response: { 200: embedConfigSchema },
          errors: [401, 404],
        }),
      },
      async (request) => embeds.get(principalOf(request), request.params.id),
    );
    app.patch(
      '/admin/v1/embeds/:id',
      {
        config,
        schema: operation({
          id: 'updateEmbed',
          summary: 'Change an embed (toggles take effect at the next request of every session)',
          tag,
          params: idParams,
          body: updateEmbedBody,
          response: { 200: embedConfigSchema },
          errors: [400, 401, 404, 415],
        }),
      },
      async (request) => embeds.update(principalOf(request), request.params.id, request.body),
    );
    app.delete(
      '/admin/v1/embeds/:id',
      {
        config,
        schema: operation({
          id: 'deleteEmbed',
          summary: 'Delete an embed (its sessions stop working at once)',
          tag,
          params: idParams,
          response: { 204: z.null() },
          errors: [401, 404],
        }),
      },
      async (request, reply) => {
        await embeds.remove(principalOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}
