/**
 * The operator's routes for people (the operator token, or an operator's console session):
 * create, list, read, change (disable, enable, promote, demote, workspaces), delete, issue a
 * password-reset link, unlock sign-in; and a new setup link while no operator exists. No answer
 * ever carries a password or its hash.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../auth/index.ts';
import { type OpenApiTag, operation } from '../http/openapi.ts';
import { PASSWORD_RESET_PATH, SETUP_PATH } from './paths.ts';
import type { PeopleService } from './service.ts';

export const usersTag: OpenApiTag = {
  name: 'operator: users',
  description:
    'People who sign in to the console and approve OAuth clients (MCP) for their workspaces: ' +
    'operators manage them here (the operator token, or an operator signed in to the console).',
};
const tag = usersTag;
const config = { auth: 'operator' } as const;

const userSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    operator: z.boolean().describe('Manages every workspace and the users in the console'),
    disabled: z.boolean().describe('Signed out and refused at sign-in until enabled again'),
    workspaceIds: z.array(z.string()).describe('In the order given; the consent page preselects the first'),
    createdAt: z.string(),
    lastSignInAt: z.string().nullable(),
    lockedUntil: z
      .string()
      .nullable()
      .describe('Until when sign-in to this account is slowed down by failed attempts; null when it is not'),
  })
  .meta({ id: 'User' });

const updateUserBody = z
  .object({
    disabled: z.boolean().optional().describe('Disable (signed out at once) or enable the person'),
    operator: z.boolean().optional().describe('Promote to operator or demote to member'),
    workspaceIds: z
      .array(z.string().max(200))
      .max(100)
      .optional()
      .describe("The person's workspaces, replacing the current ones (a member needs at least one)"),
  })
  .strict();

const linkSchema = (id: string, what: string) =>
  z
    .object({
      url: z.string().describe(`The ${what}: shown in this answer only; it works once`),
      expiresAt: z.string(),
    })
    .meta({ id });

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

export function userOperatorRoutes(people: PeopleService, baseUrl: string) {
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
          errors: [400, 401, 404, 409, 413, 415],
        }),
      },
      async (request, reply) => {
        const principal = principalOf(request);
        const user = await people.create(principal, request.body);
        return reply.status(201).send(await people.get(principal, user.id));
      },
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
      async (request) => ({ items: await people.list(principalOf(request)) }),
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
      async (request) => people.get(principalOf(request), request.params.id),
    );
    app.patch(
      '/admin/v1/users/:id',
      {
        config,
        schema: operation({
          id: 'updateUser',
          summary: 'Disable, enable, promote, demote a user or change their workspaces',
          description:
            "Every change ends the person's sessions (console, and its studio) at once and is audited. " +
            'A change that would leave no enabled operator answers 409 `CONFLICT`; a member without a ' +
            'workspace 400; an unknown workspace 404.',
          tag,
          params: idParams,
          body: updateUserBody,
          response: { 200: userSchema },
          errors: [400, 401, 404, 409, 413, 415],
        }),
      },
      async (request) => people.update(principalOf(request), request.params.id, request.body),
    );
    app.delete(
      '/admin/v1/users/:id',
      {
        config,
        schema: operation({
          id: 'deleteUser',
          summary: 'Delete a user',
          description:
            'The person is signed out at once and can no longer sign in; the audit trail keeps their ' +
            'entries. Never the last enabled operator (409 `CONFLICT`).',
          tag,
          params: idParams,
          response: { 204: z.null() },
          errors: [401, 404, 409],
        }),
      },
      async (request, reply) => {
        await people.remove(principalOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );
    app.post(
      '/admin/v1/users/:id/password-reset',
      {
        config,
        schema: operation({
          id: 'createPasswordResetLink',
          summary: 'Issue a one-time password-reset link for a user',
          description:
            'Hand the link to the person: it works once, for 24 hours. Issuing it signs the person ' +
            'out everywhere. A disabled user answers 409 `CONFLICT`.',
          tag,
          params: idParams,
          response: { 201: linkSchema('PasswordResetLink', 'password-reset link') },
          errors: [401, 404, 409],
        }),
      },
      async (request, reply) => {
        const { token, expiresAt } = await people.issuePasswordReset(principalOf(request), request.params.id);
        return reply.status(201).send({ url: `${baseUrl}${PASSWORD_RESET_PATH}/${token}`, expiresAt });
      },
    );
    app.post(
      '/admin/v1/users/:id/unlock',
      {
        config,
        schema: operation({
          id: 'unlockUser',
          summary: "Forget a user's failed sign-in attempts",
          description: 'Sign-in to the account is no longer slowed down, from any address.',
          tag,
          params: idParams,
          response: { 204: z.null() },
          errors: [401, 404],
        }),
      },
      async (request, reply) => {
        await people.unlock(principalOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );
    app.post(
      '/admin/v1/setup-link',
      {
        config,
        schema: operation({
          id: 'createSetupLink',
          summary: 'Issue a new one-time setup link (while no operator exists)',
          description:
            'For a deployment whose first setup link expired or was lost: the link creates the first ' +
            'operator. Once an operator exists it answers 409 `CONFLICT`. `platen admin setup-link` wraps it.',
          tag,
          response: { 201: linkSchema('SetupLink', 'setup link') },
          errors: [401, 409],
        }),
      },
      async (request, reply) => {
        const { token, expiresAt } = await people.issueSetupLink(principalOf(request));
        return reply.status(201).send({ url: `${baseUrl}${SETUP_PATH}?token=${token}`, expiresAt });
      },
    );
  };
}
