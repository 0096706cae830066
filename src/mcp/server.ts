/**
 * One MCP server per request (the transport is stateless: no `Mcp-Session-Id`, every request
 * stands alone with its bearer token), bound to that request's principal. The low-level SDK
 * `Server` is used rather than `McpServer.registerTool` so that arguments are validated by our own
 * schemas: a bad argument is a tool error carrying `VALIDATION_FAILED` and `{path, message}`
 * details, exactly as the API answers, not the SDK's protocol message.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Principal } from '../auth/index.ts';
import { AppError, isAppError } from '../core/errors.ts';
import { readTemplateApp, TEMPLATE_APP_URI, templateAppResource } from './app/template-app.ts';
import { TOOLS, type ToolDefinition, type ToolServices, toolByName } from './tools.ts';

export const SERVER_INFO = { name: 'platen', title: 'Platen', version: '1.0.0' };

/** JSON Schema (2020-12, what MCP 2025-11-25 assumes) of a tool's arguments, as a client sends them. */
export function inputJsonSchema(tool: ToolDefinition): { type: 'object'; [key: string]: unknown } {
  const schema = z.toJSONSchema(z.object(tool.inputSchema).strict(), { io: 'input' }) as Record<
    string,
    unknown
  >;
  return { ...schema, type: 'object' };
}

/** MCP's code for an unknown resource URI (the spec's -32002; the SDK names no constant for it). */
const RESOURCE_NOT_FOUND = -32002;

/** The API's error envelope, as a tool error: same code, message and details. */
function toolError(error: AppError): CallToolResult {
  const body = {
    code: error.code,
    message: error.message,
    ...(error.details ? { details: error.details } : {}),
  };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: body }) }] };
}

export function buildMcpServer(principal: Principal, services: ToolServices, logger: Logger): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
    instructions:
      'Platen renders design templates to PNG, JPEG or PDF, and animated ones to MP4, WebM or GIF. List or create templates, read what a template takes with get_template_variables, then render_template with `modifications` to fill in variables. Credits: each rendered file costs one credit (PNG or JPEG with `allPages`: one per page; a PDF or a video: one); a render identical to an earlier one is free, and a failed render is refunded. Reading, estimating (estimate_credits), signing URLs and publishing are free. get_workspace shows the balance.',
  });
  // Only what the token may call: an agent is not offered tools it would be refused (a client that
  // wants more asks for the scope; a call of a hidden tool still answers 403 naming it).
  const allowed = TOOLS.filter((tool) => tool.scope === null || principal.scopes.has(tool.scope));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: allowed.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description + (tool.scope ? ` Needs the scope ${tool.scope}.` : ''),
      inputSchema: inputJsonSchema(tool),
      annotations: {
        readOnlyHint: tool.scope === null || tool.scope.endsWith(':read'),
        openWorldHint: false,
      },
      ...(tool._meta ? { _meta: tool._meta } : {}),
    })),
  }));
  // The MCP App's HTML (docs/mcp.md, "MCP Apps"): listed so hosts can fetch and review it ahead.
  // It holds no workspace data, so any valid token may read it; what it does goes through tools.
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [templateAppResource(services.baseUrl)],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    if (request.params.uri !== TEMPLATE_APP_URI)
      throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${request.params.uri}`);
    return readTemplateApp(services.baseUrl);
  });
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = toolByName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    try {
      // The route refused a missing scope already (403); this keeps the tool closed on its own.
      if (tool.scope && !principal.scopes.has(tool.scope))
        throw new AppError('INSUFFICIENT_SCOPE', undefined, { requiredScope: tool.scope });
      const content = await tool.call(principal, request.params.arguments ?? {}, services);
      return { content };
    } catch (error) {
      if (isAppError(error)) return toolError(error);
      logger.error({ err: error, tool: tool.name }, 'MCP tool failed');
      return toolError(new AppError('INTERNAL'));
    }
  });
  return server;
}
