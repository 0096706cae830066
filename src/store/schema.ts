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
  /** When a request last used it (written at most once a minute). */
  last_used_at: string | null;
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
  /** The revision the thumbnail last answered for (rendered or failed); null: never attempted. */
  thumbnail_revision: number | null;
}

/** A published, immutable copy of a template's document (migration 015). */
export interface TemplateVersionsTable {
  template_id: string;
  number: number;
  workspace_id: string;
  document: string;
  document_hash: string;
  page_ids: string;
  active_page_id: string;
  width: number;
  height: number;
  page_count: number;
  note: string | null;
  /** The draft's revision that was published. */
  draft_revision: number;
  /** Who published it, as the audit trail names actors. */
  published_by: string;
  created_at: string;
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
  /** Video and audio assets (014_media_assets): the upload's probe; null for images and fonts. */
  duration_ms: number | null;
  /** 0 or 1. */
  has_video: number | null;
  has_audio: number | null;
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
  /** `sync` (a request waits) or `async` (a background job, run from the queue). */
  mode: Generated<string>;
  /** A background render's job (JSON): who asked, the modified document, pages and options. */
  job: string | null;
  /** Until when the instance executing a background render holds it. */
  locked_until: string | null;
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
  /** Migration 016: the workspace's templates show as their latest published version only. */
  published_only: number;
  created_at: string;
  updated_at: string;
  /** 1 for the console's own embed of the workspace (hidden from lists). */
  console: Generated<number>;
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

export interface UsersTable {
  id: string;
  /** Lower-cased. */
  email: string;
  /** PHC string (`$argon2id$v=19$m=…,t=…,p=…$…`): the parameters travel with the hash. */
  password_hash: string;
  /** 1: an operator (manages every workspace and the users), 0: a member of its workspaces. */
  operator: Generated<number>;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** When an operator disabled the person (signed out, refused at sign-in); null while enabled. */
  disabled_at: string | null;
  last_sign_in_at: string | null;
}

export interface PasswordResetsTable {
  /** SHA-256 (hex) of the link's token; the token itself is shown once. */
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface SetupLinksTable {
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface AuditLogTable {
  id: string;
  at: string;
  /** Who, as one string (kept for entries written before the columns below): `person:<user id>`… */
  actor: string;
  /** `person`, `operator_token`, `api_key`, `setup_link`, `system`… (src/audit/actions.ts) */
  actor_type: Generated<string>;
  /** The person's or the API key's id; null for the operator token and the system. */
  actor_id: string | null;
  /** Readable: the person's email then, the key's prefix, `operator token`. */
  actor_label: Generated<string>;
  action: string;
  workspace_id: string | null;
  target: string | null;
  details: string | null;
  /** The client address the action came from; null when not over the network. */
  address: string | null;
}

export interface UserWorkspacesTable {
  user_id: string;
  workspace_id: string;
  /** Order given at creation (the consent page preselects the first). */
  position: number;
  created_at: string;
}

export interface WebSessionsTable {
  /** SHA-256 (hex) of the cookie's value. */
  token_hash: string;
  user_id: string;
  /** Key of the session's CSRF tokens (HMAC over what a form is for). */
  csrf_secret: string;
  created_at: string;
  expires_at: string;
}

export interface SigninFailuresTable {
  id: string;
  /** `account:<email>` or `address:<ip>`. */
  subject: string;
  created_at: string;
}

export interface OAuthClientsTable {
  /** The client_id. */
  id: string;
  /** SHA-256 (hex) of the client_secret; null for public clients. */
  secret_hash: string | null;
  auth_method: string;
  /** The registered metadata (RFC 7591 §2) as JSON, as echoed to the client. */
  metadata: string;
  /** Client address of the registration (rate limit per address). */
  registered_from: string;
  created_at: string;
}

export interface OAuthRequestsTable {
  id: string;
  client_id: string;
  redirect_uri: string;
  state: string | null;
  code_challenge: string;
  resource: string;
  /** Space-separated. */
  scopes: string;
  created_at: string;
  expires_at: string;
}

export interface OAuthCodesTable {
  /** SHA-256 (hex) of the code. */
  code_hash: string;
  /** The grant: every token issued from this code carries it. */
  family_id: string;
  client_id: string;
  user_id: string;
  workspace_id: string;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  scopes: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface OAuthTokensTable {
  /** SHA-256 (hex) of the token. */
  token_hash: string;
  kind: 'access' | 'refresh';
  family_id: string;
  client_id: string;
  user_id: string;
  workspace_id: string;
  scopes: string;
  /** The audience (RFC 8707 resource). */
  resource: string;
  created_at: string;
  expires_at: string;
  /** Refresh tokens: when it was exchanged for a new one (a second use revokes the family). */
  rotated_at: string | null;
  revoked_at: string | null;
}

export interface UrlSigningSecretsTable {
  id: string;
  workspace_id: string;
  name: string;
  secret: string;
  previous_secret: string | null;
  previous_valid_until: string | null;
  render_cap: number | null;
  renders: Generated<number>;
  created_at: string;
  rotated_at: string | null;
  revoked_at: string | null;
}

export interface BatchesTable {
  id: string;
  workspace_id: string;
  template_id: string;
  format: string;
  status: string;
  total: number;
  created_at: string;
  finished_at: string | null;
}

export interface BatchRowsTable {
  batch_id: string;
  row_number: number;
  render_id: string | null;
  /** A row that failed on its own (never rendered): `{code, details}` JSON. */
  error: string | null;
  charged: Generated<number>;
}

export interface Database {
  workspaces: WorkspacesTable;
  api_keys: ApiKeysTable;
  templates: TemplatesTable;
  template_versions: TemplateVersionsTable;
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
  users: UsersTable;
  setup_links: SetupLinksTable;
  audit_log: AuditLogTable;
  password_resets: PasswordResetsTable;
  user_workspaces: UserWorkspacesTable;
  web_sessions: WebSessionsTable;
  signin_failures: SigninFailuresTable;
  oauth_clients: OAuthClientsTable;
  oauth_requests: OAuthRequestsTable;
  oauth_codes: OAuthCodesTable;
  oauth_tokens: OAuthTokensTable;
  url_signing_secrets: UrlSigningSecretsTable;
  batches: BatchesTable;
  batch_rows: BatchRowsTable;
}
