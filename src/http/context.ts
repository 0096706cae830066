/**
 * What the kernel and the features agree on: a feature is a plugin that adds routes, each route
 * declares how it authenticates (`config.auth`) and which scope it needs (`config.scope`), and an
 * authenticated request carries its principal. The kernel knows no feature by name.
 */
import type { FastifyInstance } from 'fastify';
import type { AuthKind, Principal, Scope } from '../auth/index.ts';
import type { OpenApiTag } from './openapi.ts';

export interface Feature {
  /** For logs and errors, e.g. `templates`. */
  name: string;
  /** The tag its documented operations carry; the OpenAPI document lists it with its description. */
  openApiTag?: OpenApiTag;
  /**
   * Which of its paths browsers on other origins may call (CORS). Credentials are bearer headers,
   * never cookies, so any origin may be allowed where a feature says so. Asked of its routes'
   * patterns as they register (`/v1/embed/:embedId`) and of preflights' paths.
   */
  corsPaths?: (url: string) => boolean;
  routes(app: FastifyInstance): Promise<void>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthKind;
    scope?: Scope;
    /** Set by the kernel on every route closed to other origins (@fastify/cors reads it). */
    cors?: false;
  }
  interface FastifyRequest {
    principal?: Principal;
  }
}
