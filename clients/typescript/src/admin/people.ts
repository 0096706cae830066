/**
 * Operator API: the people who sign in to the console (members of workspaces, or operators) and
 * their lifecycle (disable, enable, promote, demote, workspaces, delete, password reset, unlock),
 * a new setup link while no operator exists, and the audit log of every sensitive action.
 */
import type { JsonAnswer, JsonBody, QueryOf, Schemas } from '../api-types.ts';
import { type ApiClient, call } from '../transport.ts';

export type User = Schemas['User'];
export type AuditEntry = Schemas['AuditEntry'];
export type CreateUser = JsonBody<'createUser'>;
export type UserChange = JsonBody<'updateUser'>;
export type PasswordResetLink = Schemas['PasswordResetLink'];
export type SetupLink = Schemas['SetupLink'];
export type AuditQuery = QueryOf<'listAuditLog'>;
export type AuditPage = JsonAnswer<'listAuditLog'>;

export class Users {
  constructor(private readonly api: ApiClient) {}

  list(): Promise<JsonAnswer<'listUsers'>> {
    return call(this.api.GET('/admin/v1/users'));
  }

  /** A taken email is `CONFLICT`; a member needs at least one workspace. */
  create(body: CreateUser): Promise<User> {
    return call(this.api.POST('/admin/v1/users', { body }));
  }

  get(id: string): Promise<User> {
    return call(this.api.GET('/admin/v1/users/{id}', { params: { path: { id } } }));
  }

  /** Disable or enable, promote or demote, replace the workspaces; the person is signed out. */
  update(id: string, body: UserChange): Promise<User> {
    return call(this.api.PATCH('/admin/v1/users/{id}', { params: { path: { id } }, body }));
  }

  /** Never the last enabled operator (`CONFLICT`). */
  async delete(id: string): Promise<void> {
    await call(this.api.DELETE('/admin/v1/users/{id}', { params: { path: { id } } }));
  }

  /** A one-time link (24 hours) where the person chooses a new password. */
  passwordReset(id: string): Promise<PasswordResetLink> {
    return call(this.api.POST('/admin/v1/users/{id}/password-reset', { params: { path: { id } } }));
  }

  /** Forgets the account's failed sign-ins. */
  async unlock(id: string): Promise<void> {
    await call(this.api.POST('/admin/v1/users/{id}/unlock', { params: { path: { id } } }));
  }

  /** A new setup link, while no operator exists (`CONFLICT` once one does). */
  setupLink(): Promise<SetupLink> {
    return call(this.api.POST('/admin/v1/setup-link'));
  }
}

export class AuditLog {
  constructor(private readonly api: ApiClient) {}

  /** Newest first. */
  list(query: AuditQuery = {}): Promise<AuditPage> {
    return call(this.api.GET('/admin/v1/audit-log', { params: { query } }));
  }
}
