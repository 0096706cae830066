/**
 * The operator's user routes (`Authorization: Bearer $PLATEN_ADMIN_TOKEN`): create a person who
 * signs in (OAuth consent) with their workspaces, list and read them. No answer ever carries the
 * password or its hash.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditActorOf } from '../auth/index.ts';
import { type OpenApiTag, operation } from '../http/openapi.ts';
import type { PeopleService } from './service.ts';

export const usersTag: OpenApiTag = {
  name: 'operator: users',
  description:
    'People who sign in to approve OAuth clients (MCP) for one of their workspaces (operator token).',
};
const tag = usersTag;
const config = { auth: 'operator' } as const;

const userSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    operator: z.boolean().describe('Manages every workspace and the users in the console'),
    workspaceIds: z.array(z.string()).describe('In the order given; the consent page preselects the first'),
    createdAt: z.string(),
  })
  .meta({ id: 'User' });

const createUserBody = z
  .object({
    email: z.email().max(254).describe('Case-insensitive; unique'),
    password: z.string().min(8).max(1024).describe('At least 8 characters; stored as an argon2id hash'),
    workspaceIds: z
      .array(z.string().max(200))
      .max(100)
      .describe('At least one, unless `operator` (an operator manages every workspace)'),
    operator: z.boolean().default(false),
  })
  .strict();

const idParams = z.object({ id: z.string().max(200) });

export function userOperatorRoutes(people: PeopleService) {
  return async (root: FastifyInstance): Promise<void> => {
    const app = root.withTypeProvider<ZodTypeProvider>();
    app.post(
      '/admin/v1/users',
      {
        config,
        schema: operation({
          id: 'createUser',
          summary: 'Create a user who may sign in and approve clients for their workspaces',
          description:
            'A taken email answers 409 `CONFLICT`; an unknown workspace 404 `NOT_FOUND`; a member without a workspace 400.',
          tag,
          body: createUserBody,
          response: { 201: userSchema },
          errors: [400, 401, 404, 409, 415],
        }),
      },
      async (request, reply) =>
        reply.status(201).send(await people.create(request.body, auditActorOf(request.principal))),
    );
    app.get(
      '/admin/v1/users',
      {
        config,
        schema: operation({
          id: 'listUsers',
          summary: 'List users',
          tag,
          response: { 200: z.object({ items: z.array(userSchema) }) },
          errors: [401],
        }),
      },
      async () => ({ items: await people.list() }),
    );
    app.get(
      '/admin/v1/users/:id',
      {
        config,
        schema: operation({
          id: 'getUser',
          summary: 'Get a user',
          tag,
          params: idParams,
          response: { 200: userSchema },
          errors: [401, 404],
        }),
      },
      async (request) => people.get(request.params.id),
    );
  };
}
