/**
 * `/v1/mcp`: the MCP Streamable HTTP transport (MCP 2025-06-18 and 2025-11-25), stateless. The
 * kernel authenticates the bearer token first (`auth: 'oauth'`: 401 with a RFC 9728
 * `resource_metadata` challenge when it is missing or bad). A `tools/call` of a tool whose scope
 * the token lacks answers 403 `insufficient_scope` naming it (RFC 6750 §3.1), so a client can ask
 * for it; everything else goes to a fresh SDK server and transport bound to the principal.
 */

import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import { type BearerChallenge, insufficientScope, requirePrincipal, type Scope } from '../auth/index.ts';
import { AppError } from '../core/errors.ts';
import { buildMcpServer } from './server.ts';
import { type ToolServices, toolByName } from './tools.ts';

export interface McpRouteDeps extends ToolServices {
  challenge: BearerChallenge;
  logger: Logger;
}

/** The scopes the JSON-RPC message(s) in `body` need: those of the tools it calls. */
export function scopesNeeded(body: unknown): Scope[] {
  const messages = Array.isArray(body) ? body : [body];
  const needed = new Set<Scope>();
  for (const message of messages) {
    if (typeof message !== 'object' || message === null) continue;
    const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
    if (method !== 'tools/call' || typeof params?.name !== 'string') continue;
    const scope = toolByName.get(params.name)?.scope;
    if (scope) needed.add(scope);
  }
  return [...needed];
}

/** Fastify's headers so far (request id, CORS) go out too: a hijacked reply skips onSend. */
function carryHeaders(reply: FastifyReply): void {
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) reply.raw.setHeader(name, value);
  }
}

export function mcpRoutes(deps: McpRouteDeps) {
  return async function register(app: FastifyInstance): Promise<void> {
    const config = { auth: 'oauth' } as const;
    app.post('/v1/mcp', { config, schema: { hide: true } }, async (request, reply) => {
      const principal = requirePrincipal(request.principal);
      for (const scope of scopesNeeded(request.body))
        if (!principal.scopes.has(scope)) throw insufficientScope(deps.challenge, scope);
      const server = buildMcpServer(principal, deps, deps.logger);
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      carryHeaders(reply);
      reply.hijack();
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        await transport.handleRequest(request.raw, reply.raw, request.body);
      } catch (error) {
        request.log.error({ err: error }, 'MCP request failed');
        if (!reply.raw.headersSent) {
          reply.raw.writeHead(500, { 'content-type': 'application/json' });
          reply.raw.end(
            JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }),
          );
        }
      }
    });
    // Stateless: no server-sent stream to open (GET) and no session to end (DELETE).
    const notAllowed = async () => {
      throw new AppError('METHOD_NOT_ALLOWED', 'This MCP server is stateless: use POST.', undefined, {
        allow: 'POST',
      });
    };
    app.get('/v1/mcp', { config, schema: { hide: true } }, notAllowed);
    app.delete('/v1/mcp', { config, schema: { hide: true } }, notAllowed);
  };
}
