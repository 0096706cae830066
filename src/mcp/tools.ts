/**
 * The MCP tools (docs/mcp.md): each is one call to the same feature service an API
 * route calls, with the token's principal, so scopes, visibility, credits, identical renders and
 * errors are the API's own. A tool names the scope it needs; the route checks it before the call
 * reaches the MCP server (403 `insufficient_scope`), and the handler checks it again (fail closed).
 */
import { z } from 'zod';
import { AppError } from '../core/errors.ts';
import { createTemplateBody } from '../templates/schemas.ts';
import { AGENT_TOOLS } from './agent-tools.ts';
import { templateAppToolMeta } from './app/template-app.ts';
import { designDocumentToolSchema } from './document-schema.ts';
import { RENDER_TOOLS } from './render-tools.ts';
import { json, parsed, type ToolDefinition, templateId } from './tool-kit.ts';
import { VERSION_TOOLS } from './version-tools.ts';

export type { ToolContent, ToolDefinition, ToolServices } from './tool-kit.ts';

const paging = {
  limit: z.number().int().min(1).max(100).default(20).describe('Items per page (1-100)'),
  cursor: z.string().min(1).max(500).optional().describe('`nextCursor` of the previous page'),
};
/** How a document argument is read: as any object, so the template service validates it with exact paths. */
const documentArg = z.record(z.string(), z.unknown());

export const TOOLS: ToolDefinition[] = [
  {
    name: 'list_templates',
    title: 'List templates',
    description: "Lists the workspace's templates, newest first, a page at a time.",
    scope: 'template:read',
    inputSchema: paging,
    call: async (principal, args, { templates }) => {
      const { limit, cursor } = parsed(z.object(paging), args);
      return [json(await templates.list(principal, { limit, ...(cursor ? { cursor } : {}) }))];
    },
  },
  {
    name: 'get_template',
    title: 'Get a template',
    description: 'Returns a template record and its design document.',
    scope: 'template:read',
    inputSchema: { templateId },
    _meta: templateAppToolMeta(),
    call: async (principal, args, { templates }) => [
      json(await templates.get(principal, parsed(z.object({ templateId }), args).templateId)),
    ],
  },
  {
    name: 'create_template',
    title: 'Create a template',
    description:
      'Creates a template from a design document (see the `document` schema and its example), or a blank page of width × height design units.',
    scope: 'template:write',
    inputSchema: {
      name: z.string().min(1).max(200),
      document: designDocumentToolSchema.optional(),
      width: z.number().int().min(1).max(10000).optional().describe('Blank page width, without document'),
      height: z.number().int().min(1).max(10000).optional().describe('Blank page height, without document'),
    },
    call: async (principal, args, { templates }) => [
      json(await templates.create(principal, parsed(createTemplateBody, args))),
    ],
  },
  {
    name: 'update_template',
    title: 'Update a template',
    description:
      'Saves a new design document (the draft; revision + 1) and/or renames the template. Pass `ifRevision` to fail with PRECONDITION_FAILED when someone saved in between.',
    scope: 'template:write',
    inputSchema: {
      templateId,
      document: designDocumentToolSchema.optional(),
      name: z.string().min(1).max(200).optional(),
      ifRevision: z.number().int().min(1).optional().describe('The revision you last read'),
    },
    call: async (principal, args, { templates }) => {
      const input = parsed(
        z.object({
          templateId,
          document: documentArg.optional(),
          name: z.string().trim().min(1).max(200).optional(),
          ifRevision: z.number().int().min(1).optional(),
        }),
        args,
      );
      if (input.document) {
        const ifMatch = input.ifRevision === undefined ? undefined : `"${input.ifRevision}"`;
        return [
          json(
            await templates.save(principal, input.templateId, {
              document: input.document,
              name: input.name,
              ifMatch,
            }),
          ),
        ];
      }
      if (input.name === undefined)
        throw new AppError('VALIDATION_FAILED', 'Give a document, a name, or both.', [
          { path: 'document', message: 'Required without name' },
        ]);
      return [json(await templates.updateMeta(principal, input.templateId, { name: input.name }))];
    },
  },
  ...RENDER_TOOLS,
  ...AGENT_TOOLS,
  ...VERSION_TOOLS,
  {
    name: 'list_assets',
    title: 'List assets',
    description: "Lists the workspace's uploaded images and fonts (use an image as `asset:<id>`).",
    scope: 'asset:read',
    inputSchema: paging,
    call: async (principal, args, { assets }) => {
      const { limit, cursor } = parsed(z.object(paging), args);
      return [json(await assets.list(principal, { limit, ...(cursor ? { cursor } : {}) }))];
    },
  },
  {
    name: 'get_workspace',
    title: 'Get the workspace',
    description: "The token's workspace: its name and credit balance.",
    scope: null,
    inputSchema: {},
    call: async (principal, _args, { workspaces }) => {
      const { id, name, creditBalance } = await workspaces.mine(principal);
      return [json({ id, name, creditBalance })];
    },
  },
];

export const toolByName = new Map(TOOLS.map((tool) => [tool.name, tool]));
