/**
 * Renders of the key's workspace (docs/api.md, Rendering and Background renders): a render the call
 * waits for, a background render (`start`, then `wait`), a render's result or state by id, the
 * recent renders and the usage. A background render that fails throws the `PlatenError` the render
 * route would have thrown, with the render's own error code.
 */
import type { JsonAnswer, JsonBody, QueryOf, Schemas } from './api-types.ts';
import { type ErrorCode, PlatenError } from './errors.ts';
import { everyItem } from './paging.ts';
import { pollUntil, type WaitOptions } from './polling.ts';
import { type ApiClient, call } from './transport.ts';

export type RenderResult = Schemas['RenderResult'];
/** A background render's state: `pending`, `done` (with `result`) or `failed` (with `error`). */
export type RenderJob = Schemas['RenderJob'];
export type CreditEstimate = Schemas['CreditEstimate'];
export type SignedRenderUrl = Schemas['SignedRenderUrl'];
/** One file's result (a video is one file), or `{pages}` (a file per page) for `allPages` in PNG or JPEG. */
export type RenderOutput = JsonAnswer<'renderTemplate', 200>;
/**
 * Format (png, jpeg, pdf, mp4, webm, gif), modifications, page selection, scale, quality, fps,
 * dither, timeMs, idempotency key (`async` is the helpers' call).
 */
export type RenderRequest = Omit<JsonBody<'renderTemplate'>, 'async'>;
/** `{pages}`: a file per page, for `allPages` in PNG or JPEG. */
export type RenderPages = Extract<RenderOutput, { pages: unknown }>;
/**
 * What a render request answers, as far as its type tells: one file unless `allPages` (or with it
 * in PDF or a video format), `{pages}` for `allPages` in PNG (the default format) or JPEG, either
 * when it cannot tell.
 */
export type RenderOutputFor<Request> = 'allPages' extends keyof Request
  ? Request extends { allPages: true }
    ? 'format' extends keyof Request
      ? Request extends { format: 'pdf' | 'mp4' | 'webm' | 'gif' }
        ? RenderResult
        : Request extends { format: 'png' | 'jpeg' }
          ? RenderPages
          : RenderOutput
      : RenderPages
    : Request extends { allPages: false }
      ? RenderResult
      : RenderOutput
  : RenderResult;
export type RenderList = JsonAnswer<'listRenders'>;
export type RenderListItem = RenderList['items'][number];
export type Usage = JsonAnswer<'getUsage'>;

/** A background render's outcome: its result when done, a thrown error when failed, else undefined. */
function outcomeOf(job: RenderJob): RenderOutput | undefined {
  if (job.status === 'pending') return undefined;
  if (job.status === 'failed' || !job.result) {
    const code = job.error?.code ?? 'RENDER_FAILED';
    // The failure is reported by a successful read; 422 is what the render route answers a failed
    // render with. The document types the code as a string: it is one of the catalogue's.
    throw new PlatenError(
      422,
      code as ErrorCode,
      `The background render ${job.id} failed (${code}).`,
      null,
      job.error?.details,
    );
  }
  return job.result;
}

export class Renders {
  constructor(private readonly api: ApiClient) {}

  /** Renders now and answers the file(s); the request lasts as long as the render. */
  async render<Request extends RenderRequest = Record<never, never>>(
    templateId: string,
    request?: Request,
  ): Promise<RenderOutputFor<Request>> {
    const answer = await call(
      this.api.POST('/v1/templates/{id}/render', {
        params: { path: { id: templateId } },
        body: { ...request, async: false },
      }),
    );
    if ('status' in answer) throw new Error(`expected a render result, got the state of render ${answer.id}`);
    // The service answers the shape the request asks for (one file, or a file per page).
    return answer as RenderOutputFor<Request>;
  }

  /**
   * Accepts a background render (202) and answers its state at once: `pending` with what accepting
   * it charged, or `done` with the result of an identical earlier render (`credits.charged` 0). The
   * `render.completed` / `render.failed` webhooks tell its outcome; `wait` polls for it.
   */
  async start(templateId: string, request: RenderRequest = {}): Promise<RenderJob> {
    const answer = await call(
      this.api.POST('/v1/templates/{id}/render', {
        params: { path: { id: templateId } },
        body: { ...request, async: true },
      }),
    );
    if (!('status' in answer)) throw new Error('expected the state of a background render, got a result');
    return answer;
  }

  /**
   * Waits for a background render (its id, or the state `start` answered) and answers its result;
   * throws `PlatenError` with the render's error code if it failed (it was refunded), and
   * `PlatenTimeoutError` after `timeoutMs` (default 5 minutes; polled every 500 ms). Given the state
   * from `start`, a one-file result's `credits` are those of the acceptance: what this render charged.
   * Reading the state takes the `template:read` scope.
   */
  async wait(render: string | RenderJob, options: WaitOptions = {}): Promise<RenderOutput> {
    const accepted = typeof render === 'string' ? undefined : render;
    const id = typeof render === 'string' ? render : render.id;
    const output =
      (accepted && outcomeOf(accepted)) ??
      (await pollUntil(
        `render ${id}`,
        (signal) => call(this.api.GET('/v1/renders/{id}', { params: { path: { id } }, signal })),
        // A done render of one file answers its result itself, which has no `status`.
        (state) => ('status' in state ? outcomeOf(state) : state),
        options,
        { pollIntervalMs: 500, timeoutMs: 300_000 },
      ));
    // Reads of a result show `charged: 0` (reading is free); the acceptance knows what was charged.
    if (accepted?.credits && !('pages' in output)) return { ...output, credits: accepted.credits };
    return output;
  }

  /**
   * What a render, or `rows` of renders as a batch takes them, would cost now, charging nothing:
   * files, credits (identical renders free), the balance and whether it pays.
   */
  estimate(templateId: string, body: JsonBody<'estimateCredits'> = {}): Promise<CreditEstimate> {
    return call(this.api.POST('/v1/templates/{id}/estimate', { params: { path: { id: templateId } }, body }));
  }

  /**
   * A signed render URL made by the service with the workspace's newest URL-signing secret (needs
   * `render:write`; audited). To sign in your own backend with the secret, use signRenderUrl().
   */
  signedUrl(templateId: string, body: JsonBody<'signRenderUrl'> = {}): Promise<SignedRenderUrl> {
    return call(
      this.api.POST('/v1/templates/{id}/signed-url', { params: { path: { id: templateId } }, body }),
    );
  }

  /** A render's result as first answered (`credits.charged` 0), or a background render's state. */
  get(id: string): Promise<RenderResult | RenderJob> {
    return call(this.api.GET('/v1/renders/{id}', { params: { path: { id } } }));
  }

  /** The workspace's renders, newest first. */
  list(query: QueryOf<'listRenders'> = {}): Promise<RenderList> {
    return call(this.api.GET('/v1/renders', { params: { query } }));
  }

  /** Every render, page after page. */
  async *all(pageSize = 100): AsyncGenerator<RenderListItem> {
    yield* everyItem((query) => this.list(query), pageSize);
  }
}
