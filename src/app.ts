/**
 * The HTTP application: the kernel with this deployment's authenticators and readiness checks,
 * and every feature plugin. The one place that knows the list of features.
 */
import type { Logger } from 'pino';
import { operatorFeature } from './admin/index.ts';
import { assetsFeature } from './assets/index.ts';
import { apiKeyAuthenticator, embedSessionAuthenticator, operatorTokenAuthenticator } from './auth/index.ts';
import { embedConfigFeature, embedsFeature } from './embeds/index.ts';
import { fileServingFeature } from './files/serve.ts';
import { buildKernel, type Kernel } from './http/kernel.ts';
import { rendersFeature } from './renders/index.ts';
import type { Services } from './services.ts';
import { templatesFeature } from './templates/index.ts';
import { webhooksFeature } from './webhooks/index.ts';

export function buildApp(services: Services, logger: Logger): Promise<Kernel> {
  const { config, store, files } = services;
  return buildKernel({
    logger,
    baseUrl: config.baseUrl,
    maxBodyBytes: config.PLATEN_MAX_BODY_BYTES,
    authenticators: {
      apiKey: apiKeyAuthenticator(store),
      operator: operatorTokenAuthenticator(config.PLATEN_ADMIN_TOKEN),
      embedSession: embedSessionAuthenticator(store, services.embedTokens),
    },
    readiness: { database: () => store.ping(), files: () => files.ready() },
    features: [
      fileServingFeature(files),
      templatesFeature(services.templates),
      assetsFeature(services.assets, config.PLATEN_MAX_ASSET_BYTES),
      rendersFeature(services.renders, services.limiter),
      embedsFeature({ ...services, maxAssetBytes: config.PLATEN_MAX_ASSET_BYTES }),
      operatorFeature(services),
      embedConfigFeature(services.embeds),
      webhooksFeature(services),
    ],
  });
}
