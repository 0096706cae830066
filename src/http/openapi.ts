/**
 * The OpenAPI document's shared parts: its header and tags, the error envelope, `operation()` that
 * builds a route's `schema` block (operationId, summary, tag, its error responses), and the
 * transforms that give every documented operation the security requirement its route enforces
 * (from `config.auth` and `config.scope`, so the document cannot drift from the check), add the
 * reference's request samples (`x-codeSamples`) and the `webhooks` section, and keep only the
 * components something references. Features import these; the kernel registers them.
 */
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { type ZodType, z } from 'zod';
import type { AuthKind } from '../auth/index.ts';
import { codeToStatus, type ErrorCode } from '../core/errors.ts';
import { PLATEN_LOGO } from './api-reference.ts';
import { codeSamplesOf } from './openapi-samples.ts';
import { webhookEventsTag, webhookSection } from './openapi-webhooks.ts';

export const errorEnvelopeSchema = z
  .object({
    error: z.object({
      code: z
        .enum(Object.keys(codeToStatus) as [ErrorCode, ...ErrorCode[]])
        .describe('Stable, UPPER_SNAKE: branch on this, never on `message`'),
      message: z.string().describe('A human sentence'),
      requestId: z.string().describe('Finds the request in the logs (also the `X-Request-Id` header)'),
      details: z.unknown().optional().describe('Per code, e.g. `[{path, message}]` for VALIDATION_FAILED'),
    }),
  })
  .meta({ id: 'Error' });

/** The error statuses an operation may list, each with what it means. */
const errorStatuses = {
  400: 'The body is not JSON (`INVALID_JSON`) or a field is not valid (`VALIDATION_FAILED`; `details` lists `{path, message}`)',
  401: 'No valid operator token (`UNAUTHORIZED`), or the embed session token is missing, invalid or expired (`INVALID_SESSION`)',
  402: 'Not enough credits (`INSUFFICIENT_CREDITS`); nothing was charged',
  403: 'The API key is missing, unknown or revoked (`INVALID_API_KEY`), its workspace is suspended (`SUBSCRIPTION_SUSPENDED`) or not the one named or addressed (`WORKSPACE_MISMATCH`), or it lacks the scope (`INSUFFICIENT_SCOPE`)',
  404: 'No such resource, or a malformed id (`NOT_FOUND`)',
  409: 'The change conflicts with the current state (`CONFLICT`)',
  412: '`If-Match` names an older revision (`PRECONDITION_FAILED`)',
  413: 'The body or upload is over its limit (`PAYLOAD_TOO_LARGE`)',
  415: 'A body type the route does not take (`UNSUPPORTED_MEDIA_TYPE`)',
  422: 'The render failed and was refunded (`RENDER_FAILED`); `details` names the element and why',
  429: 'Too many render requests (`RATE_LIMITED`); see `Retry-After`',
  500: 'An unexpected error (`INTERNAL`); the `requestId` finds it in the logs',
  503: 'The render queue is full (`OVERLOADED`); see `Retry-After`. Nothing was charged',
} as const;

export type ErrorStatus = keyof typeof errorStatuses;

/** A response in Fastify's per-content-type form, which carries its own description. */
interface JsonResponse<S> {
  description: string;
  content: { 'application/json': { schema: S } };
}

const jsonResponse = <S extends ZodType>(schema: S, description: string): JsonResponse<S> => ({
  description,
  content: { 'application/json': { schema } },
});

const successDescriptions: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No content',
  304: 'Not modified: the entity tag in If-None-Match is current',
};

/** A group of operations: the document lists it with its description; a feature declares its own. */
export interface OpenApiTag {
  name: string;
  description: string;
}

export interface OperationSpec {
  /** The operationId: unique, camelCase, stable (generated clients name their methods after it). */
  id: string;
  /** One line, shown in every list of operations. */
  summary: string;
  description?: string;
  tag: OpenApiTag;
  params?: ZodType;
  querystring?: ZodType;
  headers?: ZodType;
  body?: ZodType;
  /** False when the route also takes no body at all (Fastify's `body` makes the document say required). */
  bodyRequired?: false;
  /**
   * For a body the route reads itself (no `body` schema, so nothing validates it): how the document
   * describes it, as an OpenAPI request body's `content` map.
   */
  rawBody?: Record<string, { schema: Record<string, unknown> }>;
  /**
   * A 200 the route sends as raw bytes (an image): how the document describes it, as a response's
   * `content` map. Fastify gets no schema for it, so nothing serialises the bytes.
   */
  rawResponse?: Record<string, { schema: Record<string, unknown> }>;
  /** The success responses, by status. */
  response: Record<number, ZodType>;
  /**
   * The error statuses this operation can answer. 500 is added to every operation, and 400, 413 and
   * 415 to every one that reads a body (see `BODY_ERRORS`).
   */
  errors: readonly ErrorStatus[];
}

/**
 * What a body can be refused with: not JSON (400 INVALID_JSON), over the limit (413), a type no
 * parser of the route takes (415). An operation with a body (optional or raw alike) can answer
 * them; so can every operation of a method whose body Fastify reads (POST, PUT, PATCH, DELETE),
 * body or not, when a client sends one: `transformRoute` adds them there. GET, HEAD and TRACE
 * bodies are never read.
 */
const BODY_ERRORS = [400, 413, 415] as const satisfies readonly ErrorStatus[];
const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'TRACE']);

const RAW_BODY = 'x-raw-body';
const RAW_RESPONSE = 'x-raw-response';
const BODY_OPTIONAL = 'x-body-optional';
const EXAMPLES = 'x-examples';

type Json = Record<string, unknown>;

type OperationSchema<T extends OperationSpec> = Omit<
  T,
  'id' | 'tag' | 'errors' | 'response' | 'rawBody' | 'rawResponse' | 'bodyRequired'
> & {
  operationId: string;
  tags: string[];
  response: {
    [S in keyof T['response']]: S extends 204 | 304 ? T['response'][S] : JsonResponse<T['response'][S]>;
  } & { [S in T['errors'][number] | 500]: JsonResponse<typeof errorEnvelopeSchema> };
};

/** A route's `schema` block: the spec's validation schemas plus what documents the operation. */
export function operation<const T extends OperationSpec>(spec: T): OperationSchema<T> {
  const { id, tag, errors, response, rawBody, rawResponse, bodyRequired, ...rest } = spec;
  const readsBody = rest.body !== undefined || rawBody !== undefined || bodyRequired === false;
  const responses: Record<number, unknown> = {};
  for (const [key, schema] of Object.entries(response)) {
    const status = Number(key);
    const description = successDescriptions[status] ?? 'OK';
    // A 204 or 304 has no body: its description rides on the schema (Fastify wants no content map there).
    responses[status] =
      status === 204 || status === 304
        ? schema.meta({ 'x-response-description': description })
        : jsonResponse(schema, description);
  }
  const statuses = new Set<ErrorStatus>([...errors, ...(readsBody ? BODY_ERRORS : []), 500]);
  for (const status of [...statuses].sort((a, b) => a - b))
    responses[status] = jsonResponse(errorEnvelopeSchema, errorStatuses[status]);
  return {
    ...rest,
    ...(rawBody ? { [RAW_BODY]: rawBody } : {}),
    ...(rawResponse ? { [RAW_RESPONSE]: rawResponse } : {}),
    ...(bodyRequired === false ? { [BODY_OPTIONAL]: true } : {}),
    operationId: id,
    tags: [tag.name],
    response: responses,
  } as OperationSchema<T>;
}

/** How each kind of credential appears in the document (kinds not yet documented are left out). */
const securitySchemeOf: Partial<Record<AuthKind, string>> = {
  apiKey: 'apiKey',
  operator: 'adminToken',
  embedSession: 'embedSession',
  signedUrl: 'signedUrl',
};

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

/**
 * Per route: zod to JSON Schema, a raw body's description, then the security requirement the
 * route's authenticator enforces, with its scope (OpenAPI 3.1 lets a requirement name the roles a
 * non-OAuth scheme needs).
 */
export const transformRoute = ((input: TransformInput) => {
  const result = jsonSchemaTransform(input);
  const schema = result.schema as Record<string, unknown> | undefined;
  if (!schema || schema.hide) return result;
  if (schema[RAW_BODY]) {
    schema.body = { content: schema[RAW_BODY] };
    delete schema[RAW_BODY];
  }
  if (schema[RAW_RESPONSE]) {
    schema.response = {
      200: { description: 'OK', content: schema[RAW_RESPONSE] },
      ...(schema.response as Json),
    };
    delete schema[RAW_RESPONSE];
  }
  // A response schema's named examples (`x-examples` meta) belong to its media type.
  for (const response of Object.values((schema.response ?? {}) as Record<string, Json>)) {
    for (const media of Object.values((response.content ?? {}) as Record<string, Json>)) {
      const examples = (media.schema as Json | undefined)?.[EXAMPLES];
      if (!examples) continue;
      media.examples = examples;
      delete (media.schema as Json)[EXAMPLES];
    }
  }
  // Any method whose body Fastify reads can be refused for the body a client sends, declared or not.
  const methods = [input.route.method].flat().map((method) => String(method).toUpperCase());
  const responses = schema.response as Record<string, Json> | undefined;
  const envelope = responses?.[500];
  if (responses && envelope && methods.some((method) => !BODYLESS_METHODS.has(method))) {
    for (const status of BODY_ERRORS)
      responses[status] ??= { ...envelope, description: errorStatuses[status] };
  }
  const config = (input.route as { config?: { auth?: AuthKind; scope?: string } }).config;
  const scheme = config?.auth ? securitySchemeOf[config.auth] : undefined;
  if (config?.auth === 'none') schema.security = [];
  else if (scheme) schema.security = [{ [scheme]: config?.scope ? [config.scope] : [] }];
  return result;
}) satisfies FastifyDynamicSwaggerOptions['transform'];

/** Names of the components `value` references. */
function referencedComponents(value: unknown): Set<string> {
  const names = new Set<string>();
  for (const match of JSON.stringify(value).matchAll(/"#\/components\/schemas\/([^"]+)"/g))
    names.add(match[1] ?? '');
  return names;
}

/**
 * The whole document: optional bodies marked so, request samples on the operations that have them,
 * the webhook events, and the components zod's registry holds, less those nothing references (each
 * registered schema comes as an output and an `…Input` variant).
 */
export const transformDocument = ((input: Parameters<typeof jsonSchemaTransformObject>[0]) => {
  const document = jsonSchemaTransformObject(input) as Json & {
    paths?: Record<string, Record<string, Json>>;
    webhooks?: Record<string, Json>;
    tags?: unknown[];
    components?: Json & { schemas?: Record<string, unknown> };
  };
  for (const operations of Object.values(document.paths ?? {})) {
    for (const op of Object.values(operations)) {
      const samples = codeSamplesOf(String(op.operationId));
      if (samples) op['x-codeSamples'] = samples;
      if (!op[BODY_OPTIONAL]) continue;
      delete op[BODY_OPTIONAL];
      if (op.requestBody) op.requestBody = { ...(op.requestBody as Json), required: false };
    }
  }
  const events = webhookSection(document.components?.schemas ?? {});
  if (Object.keys(events.webhooks).length > 0) {
    document.webhooks = events.webhooks;
    document.tags = [...((document.tags ?? []) as unknown[]), webhookEventsTag];
  }
  const schemas = { ...document.components?.schemas, ...events.components };
  const used = referencedComponents({ ...document, components: { ...document.components, schemas: {} } });
  for (let pending = [...used]; pending.length > 0; ) {
    pending = [...referencedComponents(pending.map((name) => schemas[name]))].filter((n) => !used.has(n));
    for (const name of pending) used.add(name);
  }
  const kept = Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
  return { ...document, components: { ...document.components, schemas: kept } } as ReturnType<
    typeof jsonSchemaTransformObject
  >;
}) satisfies FastifyDynamicSwaggerOptions['transformObject'];

/** The OpenAPI document's fixed part; the features add their tags and operations. */
export function openApiDocument(baseUrl: string, tags: readonly OpenApiTag[]) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Platen API',
      version: '1.0.0',
      // Redoc shows it atop the reference at /docs (an inline SVG: the page loads nothing elsewhere).
      'x-logo': { url: PLATEN_LOGO, altText: 'Platen' },
      description:
        'Template rendering: design templates rendered to PNG, JPEG and PDF. Every error answers ' +
        '`{"error": {"code", "message", "requestId", "details"?}}`, its `requestId` also in the ' +
        '`X-Request-Id` header; operationIds are stable names for generated clients. Besides the ' +
        'statuses each operation lists, any request can be refused before it reaches one: HTTP ' +
        'that is not well-formed, 400 `VALIDATION_FAILED`; headers over 16 KB, 413 ' +
        '`PAYLOAD_TOO_LARGE`; an `Expect` other than `100-continue`, 417 `EXPECTATION_FAILED`; ' +
        '`CONNECT`, 405 `METHOD_NOT_ALLOWED`.',
    },
    servers: [{ url: baseUrl, description: 'This deployment (PLATEN_BASE_URL)' }],
    tags: [...tags],
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http' as const,
          scheme: 'bearer',
          description:
            'An API key (`plt_…`) as `Authorization: Bearer plt_…` (or `X-Api-Key: plt_…`). ' +
            'The requirement lists the scope the operation needs.',
        },
        adminToken: {
          type: 'http' as const,
          scheme: 'bearer',
          description: 'The operator token, PLATEN_ADMIN_TOKEN, as `Authorization: Bearer …`.',
        },
        embedSession: {
          type: 'http' as const,
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            'An embed session token from `POST /v1/embed/{embedId}/session`, for that embed only. ' +
            'The requirement lists the scope the operation needs; the embed toggles decide it at each request.',
        },
        signedUrl: {
          type: 'apiKey' as const,
          in: 'query' as const,
          name: 'sig',
          description:
            'A signed render URL: `sig` is the hex HMAC-SHA256, with a URL-signing secret of the ' +
            "template's workspace, of the path, `?` and the URL's other parameters sorted (docs/api.md).",
        },
      },
    },
  };
}
