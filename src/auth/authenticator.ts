/**
 * The shape every credential check takes. The HTTP kernel calls the authenticator a route declares
 * (`config.auth`) before the body is read and puts its principal on the request; a route kind with
 * no authenticator refuses to register, so nothing is ever served unauthenticated by mistake.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { AppError } from '../core/errors.ts';
import type { Principal } from './principal.ts';
import type { Scope } from './scopes.ts';

/** How a route authenticates: every /v1 and /admin route says so. */
export type AuthKind =
  | 'none'
  | 'apiKey'
  | 'operator'
  | 'embedSession'
  | 'oauth'
  | 'signedUrl'
  /** A person's console session (cookie, and the CSRF header on every change). */
  | 'console';

export interface AuthInput {
  headers: IncomingHttpHeaders;
  /** The path and query as requested (a signed URL signs exactly these bytes). */
  url: string;
  method: string;
  /** Route parameters (an embed session is bound to the `:embedId` in its path). */
  params: Readonly<Record<string, string | undefined>>;
  /** The scope the route needs, or null. */
  requiredScope: Scope | null;
  /** The client's address (the forwarded one behind a trusted proxy: PLATEN_TRUST_PROXY). */
  address: string;
}

/**
 * What a credential check answers: the principal, and its workspace's suspension when the check
 * read the workspace anyway (an API key's lookup joins it). The kernel reads the suspension itself
 * when the check did not: one query fewer on every request of the hot paths, never one skipped.
 */
export interface Authenticated {
  principal: Principal;
  /** Absent when the check did not read the workspace. */
  workspaceSuspended?: boolean;
}

/**
 * Checks the credential and answers its principal, or throws the credential's AppError. What
 * follows the credential in the order of checks (docs/api.md, Errors: the workspace's suspension,
 * a named workspace, the scope) is the kernel's, once for every kind (http/auth-hook.ts);
 * `insufficientScope` words the scope refusal where a protocol says how (OAuth's challenge).
 */
export type Authenticator = ((input: AuthInput) => Promise<Authenticated>) & {
  insufficientScope?: (scope: Scope) => AppError;
};

export type Authenticators = Partial<Record<Exclude<AuthKind, 'none'>, Authenticator>>;
