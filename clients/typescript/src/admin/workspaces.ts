/**
 * Operator API (docs/api.md, Operator API): workspaces, their credits and ledger, and their API
 * keys. A new key's secret (`key`) is in the create answer only.
 */
import type { JsonAnswer, JsonBody, Schemas } from '../api-types.ts';
import { type ApiClient, call } from '../transport.ts';

export type Workspace = Schemas['Workspace'];
export type ApiKey = Schemas['ApiKey'];
/** An API key with `key` itself: shown in this answer only. */
export type NewApiKey = Schemas['NewApiKey'];
export type LedgerEntry = Schemas['LedgerEntry'];
export type CreateWorkspace = JsonBody<'createWorkspace'>;
export type UpdateWorkspace = JsonBody<'updateWorkspace'>;
export type AdjustCredits = JsonBody<'adjustCredits'>;
export type CreateApiKey = JsonBody<'createApiKey'>;

export class Workspaces {
  constructor(private readonly api: ApiClient) {}

  list(): Promise<JsonAnswer<'listWorkspaces'>> {
    return call(this.api.GET('/admin/v1/workspaces'));
  }

  create(body: CreateWorkspace): Promise<Workspace> {
    return call(this.api.POST('/admin/v1/workspaces', { body }));
  }

  get(id: string): Promise<Workspace> {
    return call(this.api.GET('/admin/v1/workspaces/{id}', { params: { path: { id } } }));
  }

  /** Renames, suspends (`suspended: true`) or reinstates a workspace. */
  update(id: string, body: UpdateWorkspace): Promise<Workspace> {
    return call(this.api.PATCH('/admin/v1/workspaces/{id}', { params: { path: { id } }, body }));
  }
}

export class Credits {
  constructor(private readonly api: ApiClient) {}

  /** Grants (`amount` > 0) or withdraws (< 0; never below zero: `CONFLICT`) credits. */
  adjust(workspaceId: string, body: AdjustCredits): Promise<JsonAnswer<'adjustCredits'>> {
    return call(
      this.api.POST('/admin/v1/workspaces/{id}/credits', { params: { path: { id: workspaceId } }, body }),
    );
  }
}

export class Ledger {
  constructor(private readonly api: ApiClient) {}

  /** Every credit movement of a workspace, oldest first, with the balance after it. */
  list(workspaceId: string): Promise<JsonAnswer<'getLedger'>> {
    return call(this.api.GET('/admin/v1/workspaces/{id}/ledger', { params: { path: { id: workspaceId } } }));
  }
}

export class ApiKeys {
  constructor(private readonly api: ApiClient) {}

  /** The workspace's keys, masked, with when each was last used. */
  list(workspaceId: string): Promise<JsonAnswer<'listApiKeys'>> {
    return call(
      this.api.GET('/admin/v1/workspaces/{id}/api-keys', { params: { path: { id: workspaceId } } }),
    );
  }

  create(workspaceId: string, body: CreateApiKey): Promise<NewApiKey> {
    return call(
      this.api.POST('/admin/v1/workspaces/{id}/api-keys', { params: { path: { id: workspaceId } }, body }),
    );
  }

  /** The key stops working at once. */
  async revoke(id: string): Promise<void> {
    await call(this.api.DELETE('/admin/v1/api-keys/{id}', { params: { path: { id } } }));
  }
}
