/** What every route plugin receives, and the typing of route options and request principals. */
import type { Principal } from '../auth/principal.ts';
import type { Scope } from '../auth/scopes.ts';
import type { Config } from '../core/config.ts';
import type { FileStore } from '../files/index.ts';
import type { RateLimiter } from '../ratelimit/index.ts';
import type { RenderService } from '../renders/service.ts';
import type { Store } from '../store/index.ts';

export interface AppDeps {
  config: Config;
  store: Store;
  files: FileStore;
  renders: RenderService;
  limiter: RateLimiter | null;
}

/** How a route authenticates: every /v1 and /admin route must say so, or the app refuses to start. */
export type RouteAuth = 'none' | 'apiKey' | 'admin' | 'embedSession' | 'oauth';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
    scope?: Scope;
  }
  interface FastifyRequest {
    principal?: Principal;
  }
}
