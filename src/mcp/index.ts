/**
 * The MCP server at `/v1/mcp` (docs/mcp.md): tools for AI agents over the same
 * template, asset, render and workspace services as the API, with the OAuth token's principal.
 * The authorization server that issues the tokens is src/oauth; this folder only consumes them.
 */
import type { Feature } from '../http/context.ts';
import { type McpRouteDeps, mcpRoutes } from './routes.ts';

export { MAX_INLINE_IMAGE_BYTES } from './render-tools.ts';
export type { McpRouteDeps } from './routes.ts';
export { TOOLS } from './tools.ts';

export function mcpFeature(deps: McpRouteDeps): Feature {
  return {
    name: 'mcp',
    corsPaths: (url) => url === '/v1/mcp',
    routes: mcpRoutes(deps),
  };
}
