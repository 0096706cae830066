/** `@platen/client`: a typed client for the Platen API (types generated from its OpenAPI document). */

export type { Asset } from './assets.ts';
export { Platen, type PlatenOptions } from './client.ts';
export { type ErrorCode, PlatenConnectionError, PlatenError } from './errors.ts';
export type { components, operations, paths } from './openapi.ts';
export type {
  CreateTemplate,
  Page,
  SaveTemplate,
  Template,
  TemplateWithDocument,
  UpdateTemplate,
} from './templates.ts';
