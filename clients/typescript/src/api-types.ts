/**
 * Names for the generated types (openapi.ts): a schema by its name, and an operation's JSON body,
 * query and answer by its operationId. Every helper's types are spelled with these, so they are the
 * document's own and follow it whenever `npm run openapi:types` regenerates it.
 */
import type { components, operations, webhooks } from './openapi.ts';

export type Schemas = components['schemas'];

/** The operations of the document's `webhooks`: requests Platen makes to you, not you to Platen. */
type WebhookOperation = {
  // (A document without webhooks types them as `Record<string, never>`: no operation.)
  [Event in keyof webhooks]: [webhooks[Event]] extends [never]
    ? never
    : webhooks[Event] extends { post: infer Op }
      ? Op
      : never;
}[keyof webhooks];
/** The API's operations, by operationId (the webhook events' operations aside). */
export type OperationId = {
  [Id in keyof operations]: operations[Id] extends WebhookOperation ? never : Id;
}[keyof operations];

/** The JSON request body of an operation. */
export type JsonBody<Id extends OperationId> = operations[Id] extends {
  requestBody?: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;

/** The query parameters of an operation. */
export type QueryOf<Id extends OperationId> = NonNullable<operations[Id]['parameters']['query']>;

/** The JSON an operation answers with `status` (200 unless given). */
export type JsonAnswer<Id extends OperationId, Status extends number = 200> = operations[Id] extends {
  responses: { [S in Status]: { content: { 'application/json': infer Answer } } };
}
  ? Answer
  : never;
