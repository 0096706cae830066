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
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Principal } from '../auth/index.ts';
import { AppError, isAppError } from '../core/errors.ts';
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
    capabilities: { tools: { listChanged: false } },
    instructions:
      'Platen renders design templates to PNG, JPEG or PDF, and animated ones to MP4, WebM or GIF. List or create templates, then render_template with `modifications` to fill in variables. Each rendered file costs one credit; get_workspace shows the balance.',
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: TOOLS.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description + (tool.scope ? ` Needs the scope ${tool.scope}.` : ''),
      inputSchema: inputJsonSchema(tool),
      annotations: {
        readOnlyHint: tool.scope === null || tool.scope.endsWith(':read'),
        openWorldHint: false,
      },
    })),
  }));
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
