/**
 * The document's `webhooks` section (OpenAPI 3.1): the events Platen POSTs to subscribed URLs,
 * their Standard Webhooks headers and bodies, each with samples that verify the signature with the
 * SDKs. The bodies name the components the features register (Template, RenderJob, Batch) rather
 * than copy them; an event whose component this deployment does not document is left out, so the
 * section never points at nothing. docs/api.md#webhooks is the prose.
 */
import { type CodeSample, python, typescript } from './code-samples.ts';

type Json = Record<string, unknown>;

export const webhookEventsTag = {
  name: 'webhook events',
  description:
    'What Platen POSTs to a URL subscribed with `POST /admin/v1/workspaces/{id}/webhooks`, signed per ' +
    '[Standard Webhooks](https://www.standardwebhooks.com). Verify `webhook-signature` over the raw body ' +
    'before trusting it, deduplicate on `webhook-id` (delivery is at least once), and answer 2xx within ' +
    '`PLATEN_WEBHOOK_TIMEOUT_MS` (10 s by default): anything else is retried with backoff for 24 hours.',
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The summary `batch.completed` carries: the batch without its rows. */
const BATCH_SUMMARY = 'BatchSummary';

function batchSummary(batch: Json): Json {
  const { rows: _rows, ...properties } = (batch.properties ?? {}) as Json;
  const required = ((batch.required ?? []) as string[]).filter((name) => name !== 'rows');
  return {
    ...batch,
    description: 'A batch without its `rows` (`GET /v1/batches/{id}` lists them)',
    properties,
    required,
  };
}

interface EventSpec {
  summary: string;
  description: string;
  /** The components the body names. */
  needs: string[];
  data: Json;
  /** An example of `data`, shown as the payload. */
  example: Json;
  /** How the samples act on the verified event. */
  handle: { typescript: string; python: string };
}

const templateData = (verb: string) => ({
  type: 'object',
  properties: {
    template: { ...ref('Template'), description: `The template as ${verb}` },
    embedId: { type: 'string', description: 'The embed whose session made the change' },
    userId: { type: ['string', 'null'], description: "The embed session's end-user, if any" },
  },
  required: ['template', 'embedId', 'userId'],
  additionalProperties: false,
});

const AT = '2026-05-04T09:30:00.000Z';
const TEMPLATE_ID = 'tpl_3Jd8Wn5QpZr1YkVc6MxBt2';

const templateExample = (revision: number) => ({
  template: {
    id: TEMPLATE_ID,
    name: 'Promo card',
    width: 1080,
    height: 1080,
    pageCount: 1,
    revision,
    shared: false,
    ownerUserId: 'user-42',
    thumbnailUrl: null,
    createdAt: AT,
    updatedAt: AT,
  },
  embedId: 'emb_8Rt3Lm6QwZx1VcKp4NdHs9',
  userId: 'user-42',
});

const renderExample = (outcome: Json) => ({
  render: {
    id: 'rnd_7Hc2Kq9VbXe4LmTz0RsPa1',
    templateId: TEMPLATE_ID,
    format: 'png',
    createdAt: AT,
    ...outcome,
  },
});

const renderData = (description: string) => ({
  type: 'object',
  properties: { render: { ...ref('RenderJob'), description } },
  required: ['render'],
  additionalProperties: false,
});

const events: Record<string, EventSpec> = {
  'template.create': {
    summary: 'A template was created through an embed',
    description:
      '`POST /v1/embed/{embedId}/templates` created a template. The machine API sends no template events.',
    needs: ['Template'],
    data: templateData('created'),
    example: templateExample(1),
    handle: {
      typescript:
        "if (event.type === 'template.create')\n    console.log('created', event.data.template.id);",
      python:
        'if event["type"] == "template.create":\n        print("created", event["data"]["template"]["id"])',
    },
  },
  'template.update': {
    summary: 'A template was saved through an embed',
    description:
      '`PUT /v1/embed/{embedId}/templates/{templateId}` saved a template (its `revision` went up by one).',
    needs: ['Template'],
    data: templateData('saved'),
    example: templateExample(4),
    handle: {
      typescript:
        "if (event.type === 'template.update') {\n    const { id, revision } = event.data.template;\n    console.log('saved', id, revision);\n  }",
      python:
        'if event["type"] == "template.update":\n        template = event["data"]["template"]\n        print("saved", template["id"], template["revision"])',
    },
  },
  'render.completed': {
    summary: 'A background render is done',
    description:
      'A render requested with `async: true` is done; `data.render.result` is the result, ' +
      'as the render route answers it.',
    needs: ['RenderJob'],
    data: renderData('The render, `status: "done"`, with its `result`'),
    example: renderExample({
      status: 'done',
      result: {
        id: 'rnd_7Hc2Kq9VbXe4LmTz0RsPa1',
        templateId: TEMPLATE_ID,
        format: 'png',
        url: 'https://platen.example.com/files/renders/ws_9Fh2Lq7TcVx3NbRz5KdMw1/Qp4Zr8Wd2Kx6Vn1Jc5Hb/rnd_7Hc2Kq9VbXe4LmTz0RsPa1.png',
        byteSize: 48213,
        width: 1080,
        height: 1080,
        createdAt: AT,
        credits: { charged: 1, balanceAfter: 97 },
      },
    }),
    handle: {
      typescript: "if (event.type === 'render.completed')\n    console.log(event.data.render.result);",
      python: 'if event["type"] == "render.completed":\n        print(event["data"]["render"]["result"])',
    },
  },
  'render.failed': {
    summary: 'A background render failed (and was refunded)',
    description:
      'A render requested with `async: true` failed and its credit was refunded; `data.render.error` is ' +
      '`{code, details}`, as the render route would have answered.',
    needs: ['RenderJob'],
    data: renderData('The render, `status: "failed"`, with its `error`'),
    example: renderExample({
      status: 'failed',
      error: {
        code: 'RENDER_FAILED',
        details: { pageId: 'p1', elementId: 'photo', reason: 'image URL refused' },
      },
    }),
    handle: {
      typescript: "if (event.type === 'render.failed')\n    console.error(event.data.render.error);",
      python: 'if event["type"] == "render.failed":\n        print(event["data"]["render"]["error"])',
    },
  },
  'batch.completed': {
    summary: 'A batch has no pending row (or was cancelled)',
    description:
      'Every row of the batch is done or failed, or the batch was cancelled (`status: "cancelled"`). ' +
      '`data.batch` is its summary; `GET /v1/batches/{id}` lists the rows and `GET /v1/batches/{id}/files.zip` ' +
      'downloads the files.',
    needs: [BATCH_SUMMARY],
    data: {
      type: 'object',
      properties: { batch: ref(BATCH_SUMMARY) },
      required: ['batch'],
      additionalProperties: false,
    },
    example: {
      batch: {
        id: 'bat_5Vn2Qx8KcRt4WmZp1LdHj7',
        templateId: TEMPLATE_ID,
        format: 'png',
        status: 'completed',
        total: 2,
        progress: { done: 2, failed: 0, pending: 0 },
        createdAt: AT,
        finishedAt: '2026-05-04T09:30:04.000Z',
      },
    },
    handle: {
      typescript:
        "if (event.type === 'batch.completed') {\n    const { id, status, progress } = event.data.batch;\n    console.log(id, status, progress);\n  }",
      python:
        'if event["type"] == "batch.completed":\n        batch = event["data"]["batch"]\n        print(batch["id"], batch["status"], batch["progress"])',
    },
  },
};

/** Verification with each SDK: the raw body as received, never re-serialised JSON. */
function verificationSamples(handle: EventSpec['handle']): CodeSample[] {
  return [
    {
      lang: 'typescript',
      label: 'TypeScript',
      source: typescript(
        ['type WebhookEvent', 'verifyWebhook', 'WebhookVerificationError'],
        `import express from 'express';

const secret = process.env.PLATEN_WEBHOOK_SECRET!;
const app = express();
// The raw body: the signature covers the bytes as sent
const raw = express.raw({ type: 'application/json' });
app.post('/platen-events', raw, (req, res) => {
  const body = req.body.toString('utf8');
  let event: WebhookEvent;
  try {
    event = verifyWebhook(secret, req.headers, body);
  } catch (e) {
    if (!(e instanceof WebhookVerificationError)) throw e;
    // A wrong signature, an old timestamp or a changed body
    return res.sendStatus(400);
  }
  // At least once: skip a webhook-id you handled already
  ${handle.typescript}
  res.sendStatus(204);
});`,
        false,
      ),
    },
    {
      lang: 'python',
      label: 'Python',
      source: python(
        ['WebhookVerificationError', 'verify_webhook'],
        `from flask import Flask, abort, request

SECRET = os.environ["PLATEN_WEBHOOK_SECRET"]
app = Flask(__name__)


@app.post("/platen-events")
def platen_events():
    body = request.get_data()  # the bytes as sent
    try:
        event = verify_webhook(SECRET, request.headers, body)
    except WebhookVerificationError:
        # A wrong signature, an old timestamp or a changed body
        abort(400)
    # At least once: skip a webhook-id you handled already
    ${handle.python}
    return "", 204`,
        false,
      ),
    },
  ];
}

const header = (name: string, description: string) => ({
  name,
  in: 'header',
  required: true,
  schema: { type: 'string' },
  description,
});

const signatureHeaders = [
  header('webhook-id', 'The message id, the same on every retry of this event: deduplicate on it'),
  header('webhook-timestamp', 'Unix seconds of this attempt'),
  header(
    'webhook-signature',
    '`v1,` + base64 of HMAC-SHA256 over `"<webhook-id>.<webhook-timestamp>.<raw body>"`, keyed by the ' +
      'base64-decoded part of the `whsec_…` secret',
  ),
];

function eventOperation(type: string, spec: EventSpec): Json {
  return {
    post: {
      operationId: `on${type.replace(/(^|\.)(\w)/g, (_m, _dot, c: string) => c.toUpperCase())}`,
      summary: spec.summary,
      description: spec.description,
      tags: [webhookEventsTag.name],
      security: [],
      parameters: signatureHeaders,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: {
                type: { type: 'string', const: type },
                timestamp: {
                  type: 'string',
                  format: 'date-time',
                  description: 'When it happened (ISO 8601)',
                },
                data: spec.data,
              },
              required: ['type', 'timestamp', 'data'],
              additionalProperties: false,
            },
            example: { type, timestamp: AT, data: spec.example },
          },
        },
      },
      responses: {
        '204': { description: 'Received: any 2xx within the timeout delivers the event' },
        '400': {
          description:
            'The signature does not verify: refuse the body. Any answer but a 2xx (or none) is retried',
        },
      },
      'x-codeSamples': verificationSamples(spec.handle),
    },
  };
}

/**
 * The `webhooks` section for the components this document holds, and the components it adds
 * (the batch summary). Empty when none of the events' components are documented.
 */
export function webhookSection(schemas: Record<string, unknown>): {
  webhooks: Record<string, Json>;
  components: Record<string, Json>;
} {
  const components: Record<string, Json> = {};
  const batch = schemas.Batch as Json | undefined;
  if (batch) components[BATCH_SUMMARY] = batchSummary(batch);
  const known = (name: string) => name in schemas || name in components;
  const webhooks = Object.fromEntries(
    Object.entries(events)
      .filter(([, spec]) => spec.needs.every(known))
      .map(([type, spec]) => [type, eventOperation(type, spec)]),
  );
  return { webhooks, components };
}

export const WEBHOOK_EVENT_TYPES = Object.keys(events);
