/**
 * Embeds: configurations (operator), public info and end-user sessions, and the spec's embed routes
 * as one more entry point onto the template, asset and render services (routes.ts). Browsers may call
 * the public info and the session-token routes (CORS); minting a session is for servers only.
 */
import type { Feature } from '../http/context.ts';
import { embedConfigTag, embedOperatorRoutes } from './operator-routes.ts';
import { type EmbedRouteServices, embedRoutes, embedTag } from './routes.ts';

export { EMBED_DEFAULTS, EmbedService, type PublicEmbedInfo } from './service.ts';

/** Every `/v1/embed/…` path but the session-minting one. */
const browserPaths = (url: string): boolean => /^\/v1\/embed\/[^/]+(\/(templates|assets)(\/.*)?)?$/.test(url);

export function embedsFeature(services: EmbedRouteServices): Feature {
  return { name: 'embeds', openApiTag: embedTag, corsPaths: browserPaths, routes: embedRoutes(services) };
}

export function embedConfigFeature(embeds: EmbedRouteServices['embeds']): Feature {
  return { name: 'embed configuration', openApiTag: embedConfigTag, routes: embedOperatorRoutes(embeds) };
}
