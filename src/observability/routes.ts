/** `GET /metrics`: the Prometheus text format, for the operator token only (usage figures are private). */
import type { FastifyInstance } from 'fastify';
import { type OpenApiTag, operation } from '../http/openapi.ts';
import type { Metrics } from './metrics.ts';

export const metricsTag: OpenApiTag = {
  name: 'metrics',
  description:
    'Prometheus metrics (`Authorization: Bearer $PLATEN_ADMIN_TOKEN`): requests, renders, credits, ' +
    'render processes and webhook delivery. docs/operations.md lists them.',
};

export function metricsRoutes(metrics: Metrics) {
  return async function register(app: FastifyInstance): Promise<void> {
    app.get(
      '/metrics',
      {
        config: { auth: 'operator' },
        schema: operation({
          id: 'getMetrics',
          summary: 'Prometheus metrics of this instance',
          description:
            'The Prometheus text exposition format. Each instance answers for itself (scrape every ' +
            'instance); the webhook backlog gauges read the shared outbox.',
          tag: metricsTag,
          rawResponse: { 'text/plain': { schema: { type: 'string' } } },
          response: {},
          errors: [401],
        }),
      },
      async (_request, reply) => {
        const { contentType, body } = await metrics.scrape();
        return reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
      },
    );
  };
}
