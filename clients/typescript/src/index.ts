/** `@platen/client`: a typed client for the Platen API (types generated from its OpenAPI document). */
export type { components, operations, paths } from './openapi.ts';
