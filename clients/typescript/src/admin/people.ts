/**
 * Operator API: the people who sign in to the console (members of workspaces, or operators), and
 * the audit log of sensitive actions (keys created and revoked, secrets rotated, operators created).
 */
import type { JsonAnswer, JsonBody, QueryOf, Schemas } from '../api-types.ts';
import { type ApiClient, call } from '../transport.ts';

export type User = Schemas['User'];
export type AuditEntry = Schemas['AuditEntry'];
export type CreateUser = JsonBody<'createUser'>;

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
}

export class AuditLog {
  constructor(private readonly api: ApiClient) {}

  /** Newest first. */
  list(query: QueryOf<'listAuditLog'> = {}): Promise<JsonAnswer<'listAuditLog'>> {
    return call(this.api.GET('/admin/v1/audit-log', { params: { query } }));
  }
}
