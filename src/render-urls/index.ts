/**
 * Signed render URLs: URL-signing secrets (operator API) and
 * `GET /v1/templates/:id/image.{png,jpeg,pdf,mp4,webm,gif}`, whose signature (auth/url-signature.ts,
 * verified by the signedUrl authenticator) is the credential.
 */
import type { Feature } from '../http/context.ts';
import type { RateLimiter } from '../ratelimit/index.ts';
import {
  renderUrlRoutes,
  renderUrlsTag,
  urlSecretRoutes,
  urlSecretsTag,
  urlSigningRoutes,
} from './routes.ts';
import type { RenderUrlService } from './service.ts';

export { signRequestSchema } from './routes.ts';
export { RESERVED_PARAMETERS, RenderUrlService } from './service.ts';

export function renderUrlsFeature(service: RenderUrlService, limiter: RateLimiter | null): Feature {
  const routes = [renderUrlRoutes(service, limiter), urlSigningRoutes(service)];
  return {
    name: 'render-urls',
    openApiTag: renderUrlsTag,
    routes: async (app) => {
      for (const register of routes) await register(app);
    },
  };
}

export function urlSecretsFeature(service: RenderUrlService): Feature {
  return { name: 'url-secrets', openApiTag: urlSecretsTag, routes: urlSecretRoutes(service) };
}
