/**
 * Observability: Prometheus metrics (`/metrics`, metrics.ts) and optional OpenTelemetry traces
 * (tracing.ts: the provider, the exporter and request spans). Features report metrics through plain
 * callbacks the composition root wires here, and open spans through core/tracing.ts (the
 * OpenTelemetry API, a no-op without a provider); nothing in a feature imports this folder.
 */
import type { Feature } from '../http/context.ts';
import type { Metrics } from './metrics.ts';

export { startTracing, type Tracing, tracingRequested } from './tracing.ts';

import { metricsRoutes, metricsTag } from './routes.ts';

export {
  type MetricSources,
  Metrics,
  type RenderObservation,
  type RequestObservation,
  type WebhookAttemptOutcome,
} from './metrics.ts';

export function metricsFeature(metrics: Metrics): Feature {
  return { name: 'metrics', openApiTag: metricsTag, routes: metricsRoutes(metrics) };
}
