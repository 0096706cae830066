/**
 * Signed render URLs: URL-signing secrets (operator API) and
 * `GET /v1/templates/:id/image.{png,jpeg,pdf,mp4,webm,gif}`, whose signature (auth/url-signature.ts,
 * verified by the signedUrl authenticator) is the credential.
 */
import type { Feature } from '../http/context.ts';
import type { RateLimiter } from '../ratelimit/index.ts';
import { renderUrlRoutes, renderUrlsTag, urlSecretRoutes, urlSecretsTag } from './routes.ts';
import type { RenderUrlService } from './service.ts';

export { RESERVED_PARAMETERS, RenderUrlService } from './service.ts';

export function renderUrlsFeature(service: RenderUrlService, limiter: RateLimiter | null): Feature {
  return { name: 'render-urls', openApiTag: renderUrlsTag, routes: renderUrlRoutes(service, limiter) };
}

export function urlSecretsFeature(service: RenderUrlService): Feature {
  return { name: 'url-secrets', openApiTag: urlSecretsTag, routes: urlSecretRoutes(service) };
}
