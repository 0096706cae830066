/**
 * Table shapes as Kysely sees them. Column types are chosen to mean the same on SQLite and
 * PostgreSQL: timestamps are ISO-8601 text, booleans are 0/1 integers, JSON is text.
 */
import type { Generated } from 'kysely';

export interface WorkspacesTable {
  id: string;
  name: string;
  credit_balance: number;
  suspended: number;
  created_at: string;
  updated_at: string;
}

export interface ApiKeysTable {
  id: string;
  workspace_id: string;
  name: string;
  key_hash: string;
  prefix: string;
  scopes: string;
  created_at: string;
  revoked_at: string | null;
}

export interface TemplatesTable {
  id: string;
  workspace_id: string;
  name: string;
  document: string;
  width: number;
  height: number;
  page_count: number;
  revision: number;
  shared: number;
  owner_user_id: string | null;
  embed_id: string | null;
  created_at: string;
  updated_at: string;
  document_hash: string | null;
  page_ids: string | null;
  active_page_id: string | null;
  thumbnail_key: string | null;
}

export interface AssetsTable {
  id: string;
  workspace_id: string;
  kind: string;
  mime_type: string;
  byte_size: number;
  width: number | null;
  height: number | null;
  font_family: string | null;
  file_key: string;
  created_at: string;
  /** The embed end-user who uploaded it (multi-tenant embeds), or null for a workspace asset. */
  owner_user_id: string | null;
  /** The embed it was uploaded through (end-user ids are per embed). */
  embed_id: string | null;
}

export interface RendersTable {
  id: string;
  workspace_id: string;
  template_id: string;
  identity_hash: string;
  status: string;
  format: string;
  file_count: number;
  result: string | null;
  error: string | null;
  file_keys: string;
  charged: number;
  actor: string;
  created_at: string;
  finished_at: string | null;
  expired: number;
  instance_id: string | null;
}

export interface RenderOutputsTable {
  id: string;
  render_id: string;
  workspace_id: string;
  position: number;
  file_key: string;
  result: string;
  created_at: string;
}

export interface RenderClaimsTable {
  workspace_id: string;
  identity_hash: string;
  render_id: string;
}

export interface InstancesTable {
  id: string;
  heartbeat_at: string;
}

export interface CreditLedgerTable {
  seq: Generated<number>;
  id: string;
  workspace_id: string;
  delta: number;
  balance_after: number;
  reason: string;
  actor: string;
  render_id: string | null;
  created_at: string;
}

export interface MetaTable {
  key: string;
  value: string;
}

export interface EmbedsTable {
  id: string;
  workspace_id: string;
  brand_title: string;
  brand_icon_url: string;
  brand_accent_color: string;
  enabled: number;
  downloads_enabled: number;
  asset_picker_enabled: number;
  smart_resize_enabled: number;
  multi_tenant: number;
  session_ttl_seconds: number;
  mint_requires_api_key: number;
  created_at: string;
  updated_at: string;
}

export interface WebhooksTable {
  id: string;
  workspace_id: string;
  url: string;
  /** JSON array of event types. */
  events: string;
  /** `whsec_…`: kept in clear, as signing needs it (like any HMAC key). */
  secret: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface WebhookOutboxTable {
  seq: Generated<number>;
  id: string;
  webhook_id: string;
  event_type: string;
  /** The exact body to send (JSON text), fixed when the event happened. */
  payload: string;
  status: string;
  attempts: number;
  next_attempt_at: string;
  locked_until: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface WebhookDeliveriesTable {
  seq: Generated<number>;
  id: string;
  webhook_id: string;
  message_id: string;
  event_type: string;
  attempt: number;
  status_code: number | null;
  ok: number;
  latency_ms: number;
  error: string | null;
  created_at: string;
}

export interface Database {
  workspaces: WorkspacesTable;
  api_keys: ApiKeysTable;
  templates: TemplatesTable;
  assets: AssetsTable;
  renders: RendersTable;
  credit_ledger: CreditLedgerTable;
  platen_meta: MetaTable;
  render_outputs: RenderOutputsTable;
  render_claims: RenderClaimsTable;
  platen_instances: InstancesTable;
  embeds: EmbedsTable;
  webhooks: WebhooksTable;
  webhook_outbox: WebhookOutboxTable;
  webhook_deliveries: WebhookDeliveriesTable;
}
