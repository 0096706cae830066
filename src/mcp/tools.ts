/**
 * The MCP tools (CONTRACT.md, OAuth and MCP): each is one call to the same feature service an API
 * route calls, with the token's principal, so scopes, visibility, credits, identical renders and
 * errors are the API's own. A tool names the scope it needs; the route checks it before the call
 * reaches the MCP server (403 `insufficient_scope`), and the handler checks it again (fail closed).
 */
import { z } from 'zod';
import type { AssetService } from '../assets/index.ts';
import type { Principal, Scope } from '../auth/index.ts';
import { AppError } from '../core/errors.ts';
import type { FileStore } from '../files/index.ts';
import type { RateLimiter } from '../ratelimit/index.ts';
import { type RenderService, rateLimitKeyOf, renderRequestSchema } from '../renders/index.ts';
import type { TemplateService } from '../templates/index.ts';
import { createTemplateBody } from '../templates/schemas.ts';
import type { WorkspaceService } from '../workspaces/service.ts';

export interface ToolServices {
  templates: TemplateService;
  assets: AssetService;
  renders: RenderService;
  workspaces: WorkspaceService;
  files: FileStore;
  limiter: RateLimiter | null;
  baseUrl: string;
}

export type ToolContent = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  /** The scope the tool needs; null: any valid token of the workspace. */
  scope: Scope | null;
  inputSchema: z.ZodRawShape;
  call(principal: Principal, args: Record<string, unknown>, services: ToolServices): Promise<ToolContent[]>;
}

/** An image this small or smaller comes back inline as image content. */
export const MAX_INLINE_IMAGE_BYTES = 1024 * 1024;

const templateId = z.string().min(1).max(200).describe('A template id (`tpl_…`)');
const paging = {
  limit: z.number().int().min(1).max(100).default(20).describe('Items per page (1-100)'),
  cursor: z.string().min(1).max(500).optional().describe('`nextCursor` of the previous page'),
};
const documentArg = z
  .record(z.string(), z.unknown())
  .describe('A design document (see docs/design-document.md); validated like the API does');

const json = (value: unknown): ToolContent => ({ type: 'text', text: JSON.stringify(value) });

function parsed<T extends z.ZodType>(schema: T, args: unknown): z.infer<T> {
  const result = schema.safeParse(args);
  if (result.success) return result.data;
  throw new AppError(
    'VALIDATION_FAILED',
    undefined,
    result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
  );
}

/** The bytes of a render's file, for inline image content; null when too big or not raster. */
async function inlineImage(
  services: ToolServices,
  result: { url: string | null; format: string; byteSize: number },
): Promise<ToolContent | null> {
  if (result.format === 'pdf' || result.url === null || result.byteSize > MAX_INLINE_IMAGE_BYTES) return null;
  const prefix = `${services.baseUrl}/files/`;
  if (!result.url.startsWith(prefix)) return null;
  const file = await services.files.get(result.url.slice(prefix.length));
  if (!file) return null;
  return { type: 'image', data: file.bytes.toString('base64'), mimeType: file.contentType };
}

const renderArgs = z.object({ templateId, ...renderRequestSchema.shape }).strict();

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
    call: async (principal, args, { templates }) => [
      json(await templates.get(principal, parsed(z.object({ templateId }), args).templateId)),
    ],
  },
  {
    name: 'create_template',
    title: 'Create a template',
    description: 'Creates a template from a design document, or a blank page of width × height design units.',
    scope: 'template:write',
    inputSchema: {
      name: z.string().min(1).max(200),
      document: documentArg.optional(),
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
      document: documentArg.optional(),
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
  {
    name: 'render_template',
    title: 'Render a template',
    description:
      'Renders the draft to PNG, JPEG or PDF with variables filled in; one credit per file, an identical repeat is free. The result has the file URL; a PNG or JPEG up to 1 MB also comes back as an image.',
    scope: 'render:write',
    inputSchema: renderArgs.shape,
    call: async (principal, args, services) => {
      const { templateId: id, ...request } = parsed(renderArgs, args);
      if (services.limiter) {
        const decision = await services.limiter.take(rateLimitKeyOf(principal.actor));
        if (!decision.allowed)
          throw new AppError('RATE_LIMITED', undefined, { retryAfterSeconds: decision.retryAfterSeconds });
      }
      const result = await services.renders.render(principal, id, request);
      const files = 'pages' in result ? result.pages : [result];
      const images = await Promise.all(files.map((file) => inlineImage(services, file)));
      return [json(result), ...images.filter((image): image is ToolContent => image !== null)];
    },
  },
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
