/** Liveness (`/healthz`: the process answers) and readiness (`/readyz`: every dependency answers). */
import type { FastifyInstance } from 'fastify';

/** Named checks that throw when their dependency is not ready (database, files, …). */
export type ReadinessChecks = Record<string, () => Promise<void>>;

export async function healthRoutes(app: FastifyInstance, checks: ReadinessChecks): Promise<void> {
  app.get('/healthz', { schema: { hide: true }, logLevel: 'warn' }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true }, logLevel: 'warn' }, async (request, reply) => {
    const results: Record<string, 'ok' | 'failing'> = {};
    for (const [name, check] of Object.entries(checks)) {
      results[name] = await check().then(
        () => 'ok' as const,
        (err: unknown) => {
          request.log.warn({ err }, `${name} not ready`);
          return 'failing' as const;
        },
      );
    }
    const ready = Object.values(results).every((c) => c === 'ok');
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks: results });
  });
}
