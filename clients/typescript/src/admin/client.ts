/**
 * `new PlatenAdmin({ baseUrl, adminToken })`: the operator API (`/admin/v1/*`) with the service's
 * admin token (`PLATEN_ADMIN_TOKEN`), one namespace per resource. Keep it on the server: it manages
 * every workspace. `api` is the raw typed client for anything the helpers do not wrap.
 */
import { type ApiClient, createTransport, type TransportOptions } from '../transport.ts';
import { AdminEmbeds } from './embeds.ts';
import { AuditLog, Users } from './people.ts';
import { UrlSigningSecrets } from './url-signing-secrets.ts';
import { AdminWebhooks } from './webhooks.ts';
import { ApiKeys, Credits, Ledger, Workspaces } from './workspaces.ts';

export interface PlatenAdminOptions extends TransportOptions {
  /** The operator token (`PLATEN_ADMIN_TOKEN`). */
  adminToken: string;
}

export class PlatenAdmin {
  readonly api: ApiClient;
  readonly workspaces: Workspaces;
  readonly credits: Credits;
  readonly ledger: Ledger;
  readonly apiKeys: ApiKeys;
  readonly embeds: AdminEmbeds;
  readonly webhooks: AdminWebhooks;
  readonly urlSigningSecrets: UrlSigningSecrets;
  readonly users: Users;
  readonly auditLog: AuditLog;

  constructor(readonly options: PlatenAdminOptions) {
    if (!options.adminToken) throw new TypeError('adminToken is required (the PLATEN_ADMIN_TOKEN)');
    this.api = createTransport(options, { authorization: `Bearer ${options.adminToken}` });
    this.workspaces = new Workspaces(this.api);
    this.credits = new Credits(this.api);
    this.ledger = new Ledger(this.api);
    this.apiKeys = new ApiKeys(this.api);
    this.embeds = new AdminEmbeds(this.api);
    this.webhooks = new AdminWebhooks(this.api);
    this.urlSigningSecrets = new UrlSigningSecrets(this.api);
    this.users = new Users(this.api);
    this.auditLog = new AuditLog(this.api);
  }
}
