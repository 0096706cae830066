/**
 * Observability: Prometheus metrics (`/metrics`, metrics.ts) and optional OpenTelemetry traces
 * (tracing.ts). Features report through plain callbacks the composition root wires here; nothing
 * in a feature imports this folder.
 */
import type { Feature } from '../http/context.ts';
import type { Metrics } from './metrics.ts';
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
