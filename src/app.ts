/**
 * The HTTP application: the kernel with this deployment's authenticators and readiness checks,
 * and every feature plugin. The one place that knows the list of features.
 */
import type { Logger } from 'pino';
import { operatorFeature } from './admin/index.ts';
import { assetsFeature } from './assets/index.ts';
import { auditFeature } from './audit/index.ts';
import {
  apiKeyAuthenticator,
  embedSessionAuthenticator,
  oauthBearerAuthenticator,
  operatorTokenAuthenticator,
  signedUrlAuthenticator,
} from './auth/index.ts';
import { batchesFeature } from './batches/index.ts';
import { consoleFeature } from './console/index.ts';
import { embedConfigFeature, embedsFeature } from './embeds/index.ts';
import { fileServingFeature } from './files/serve.ts';
import type { Feature } from './http/context.ts';
import { buildKernel, type Kernel, type RequestTracer } from './http/kernel.ts';
import { mcpFeature } from './mcp/index.ts';
import { oauthFeature } from './oauth/index.ts';
import { metricsFeature } from './observability/index.ts';
import { signInFeature, usersFeature } from './people/index.ts';
import { preflightFeature } from './preflight/index.ts';
import { renderUrlsFeature, urlSecretsFeature } from './render-urls/index.ts';
import { renderHistoryFeature, rendersFeature } from './renders/index.ts';
import type { Services } from './services.ts';
import { studioFeature } from './studio/index.ts';
import { templatesFeature } from './templates/index.ts';
import { versionsFeature } from './versions/index.ts';
import { webhooksFeature } from './webhooks/index.ts';

export function buildApp(
  services: Services,
  logger: Logger,
  options: { tracer?: RequestTracer; workerOnly?: boolean } = {},
): Promise<Kernel> {
  const { config, store, files } = services;
  const mcpChallenge = mcpChallengeOf(services);
  return buildKernel({
    logger,
    baseUrl: config.baseUrl,
    maxBodyBytes: config.PLATEN_MAX_BODY_BYTES,
    trustProxy: config.PLATEN_TRUST_PROXY,
    authenticators: {
      apiKey: services.consoleSessions.machineApi(apiKeyAuthenticator(store)),
      operator: services.consoleSessions.operatorApi(operatorTokenAuthenticator(config.PLATEN_ADMIN_TOKEN)),
      console: services.consoleSessions.authenticator(),
      embedSession: embedSessionAuthenticator(store, services.embedTokens),
      oauth: oauthBearerAuthenticator(store, services.oauth, mcpChallenge),
      signedUrl: signedUrlAuthenticator(store),
    },
    workspaceSuspended: async (id) => (await store.workspaces.get(id))?.suspended ?? false,
    readiness: { database: () => store.ping(), files: () => files.ready() },
    onResponse: (observation) => services.metrics.observeRequest(observation),
    tracer: options.tracer,
    features: options.workerOnly ? [metricsFeature(services.metrics)] : allFeatures(services, logger),
  });
}

/** RFC 9728: where an MCP client learns which authorization server protects /v1/mcp. */
function mcpChallengeOf(services: Services) {
  return {
    resource: services.oauth.settings.resource,
    resourceMetadataUrl: services.oauth.settings.resourceMetadataUrl,
  };
}

/** Every feature an API instance serves. */
function allFeatures(services: Services, logger: Logger): Feature[] {
  const { config, files } = services;
  const mcpChallenge = mcpChallengeOf(services);
  return [
    fileServingFeature(files),
    templatesFeature(services.templates),
    versionsFeature(services.templateVersions, services.limiter),
    preflightFeature(services.preflight, services.limiter),
    assetsFeature(services.assets, config.PLATEN_MAX_ASSET_BYTES),
    rendersFeature(services.renders, services.background, services.limiter),
    renderHistoryFeature(services.renderHistory),
    renderUrlsFeature(services.renderUrls, services.limiter),
    batchesFeature(services.batches, files, services.limiter),
    embedsFeature({ ...services, maxAssetBytes: config.PLATEN_MAX_ASSET_BYTES }),
    operatorFeature(services),
    urlSecretsFeature(services.renderUrls),
    metricsFeature(services.metrics),
    embedConfigFeature(services.embeds),
    webhooksFeature(services),
    usersFeature(services.people, config.baseUrl),
    signInFeature(services.people, config.baseUrl),
    consoleFeature({ ...services, baseUrl: config.baseUrl }),
    auditFeature(services.audit),
    oauthFeature(services.oauth, services.people),
    mcpFeature({ ...services, baseUrl: config.baseUrl, challenge: mcpChallenge, logger }),
    studioFeature(),
  ];
}
