/** Liveness (`/healthz`: the process answers) and readiness (`/readyz`: database and files reachable). */
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from './context.ts';

export function healthRoutes({ store, files }: AppDeps) {
  return async function register(app: FastifyInstance): Promise<void> {
    app.get('/healthz', { schema: { hide: true }, logLevel: 'warn' }, async () => ({ status: 'ok' }));
    app.get('/readyz', { schema: { hide: true }, logLevel: 'warn' }, async (request, reply) => {
      const checks: Record<string, 'ok' | 'failing'> = { database: 'ok', files: 'ok' };
      await store.ping().catch((err: unknown) => {
        request.log.warn({ err }, 'database not ready');
        checks.database = 'failing';
      });
      await files.ready().catch((err: unknown) => {
        request.log.warn({ err }, 'file store not ready');
        checks.files = 'failing';
      });
      const ready = Object.values(checks).every((c) => c === 'ok');
      return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks });
    });
  };
}
