/** `@platen/client`: a typed client for the Platen API (types generated from its OpenAPI document). */

export { PlatenAdmin, type PlatenAdminOptions } from './admin/client.ts';
export type { AdminEmbeds, CreateEmbed, EmbedConfig, UpdateEmbed } from './admin/embeds.ts';
export type {
  AuditEntry,
  AuditLog,
  AuditPage,
  AuditQuery,
  CreateUser,
  PasswordResetLink,
  SetupLink,
  User,
  UserChange,
  Users,
} from './admin/people.ts';
export type {
  CreateUrlSigningSecret,
  UpdateUrlSigningSecret,
  UrlSigningSecret,
  UrlSigningSecrets,
  UrlSigningSecretWithKey,
} from './admin/url-signing-secrets.ts';
export type {
  AdminWebhooks,
  CreateWebhook,
  UpdateWebhook,
  Webhook,
  WebhookDelivery,
  WebhookWithSecret,
} from './admin/webhooks.ts';
export type {
  AdjustCredits,
  ApiKey,
  ApiKeys,
  CreateApiKey,
  CreateWorkspace,
  Credits,
  Ledger,
  LedgerEntry,
  NewApiKey,
  UpdateWorkspace,
  Workspace,
  Workspaces,
} from './admin/workspaces.ts';
export type { JsonAnswer, JsonBody, OperationId, QueryOf, Schemas } from './api-types.ts';
export type { Asset, Assets } from './assets.ts';
export type { Batch, Batches, BatchRequest, BatchRow, CsvBatchOptions } from './batches.ts';
export { Platen, type PlatenOptions } from './client.ts';
export type { CreateEmbedSession, EmbedInfo, EmbedSession, Embeds } from './embeds.ts';
export {
  type ErrorBody,
  type ErrorCode,
  PlatenConnectionError,
  PlatenError,
  PlatenTimeoutError,
} from './errors.ts';
export type { components, operations, paths } from './openapi.ts';
export { OPERATIONS, type OperationBinding } from './operations.ts';
export type { Page } from './paging.ts';
export type { WaitOptions } from './polling.ts';
export type {
  CreditEstimate,
  RenderJob,
  RenderList,
  RenderListItem,
  RenderOutput,
  RenderOutputFor,
  RenderPages,
  RenderRequest,
  RenderResult,
  Renders,
  SignedRenderUrl,
  Usage,
} from './renders.ts';
export { type SignRenderUrlInput, signRenderUrl } from './signed-urls.ts';
export type {
  CreateTemplate,
  PreflightFinding,
  PreflightReport,
  SaveTemplate,
  Template,
  Templates,
  TemplateVariables,
  TemplateWithDocument,
  UpdateTemplate,
} from './templates.ts';
export {
  type BatchCompletedEvent,
  type RenderCompletedEvent,
  type RenderFailedEvent,
  type TemplateEvent,
  verifyWebhook,
  type WebhookEvent,
  type WebhookEventType,
  type WebhookHeaders,
  WebhookVerificationError,
} from './webhooks.ts';
