/**
 * `new Platen({ baseUrl, apiKey })`: the machine API with a workspace API key. Rendering is on the
 * client itself (`render`, `renderAndWait`, `usage`); each other feature is a namespace
 * (`templates`, `assets`, `renders`, `batches`, `embeds`); `api` is the raw openapi-fetch client,
 * typed by the generated `paths`, for anything the helpers do not wrap.
 */
import type { QueryOf } from './api-types.ts';
import { Assets } from './assets.ts';
import { Batches } from './batches.ts';
import { Embeds } from './embeds.ts';
import { PlatenConnectionError } from './errors.ts';
import type { WaitOptions } from './polling.ts';
import { type RenderOutputFor, type RenderRequest, Renders, type Usage } from './renders.ts';
import { Templates } from './templates.ts';
import { type ApiClient, call, createTransport, type TransportOptions } from './transport.ts';

export interface PlatenOptions extends TransportOptions {
  /** A workspace API key, `plt_…`. */
  apiKey: string;
}

export class Platen {
  readonly api: ApiClient;
  readonly templates: Templates;
  readonly assets: Assets;
  readonly renders: Renders;
  readonly batches: Batches;
  readonly embeds: Embeds;

  constructor(readonly options: PlatenOptions) {
    if (!options.apiKey) throw new TypeError('apiKey is required (a workspace API key, plt_…)');
    this.api = createTransport(options, { authorization: `Bearer ${options.apiKey}` });
    this.templates = new Templates(this.api);
    this.assets = new Assets(this.api, (url) => this.fetchFile(url));
    this.renders = new Renders(this.api);
    this.batches = new Batches(this.api);
    this.embeds = new Embeds(this.api);
  }

  /**
   * Renders the template's draft while the call waits: one credit per file, and an identical
   * earlier render answers again for free (`credits.charged` 0). `{pages}` for `allPages` in PNG or
   * JPEG. A render that fails throws `PlatenError` `RENDER_FAILED` (refunded).
   */
  render<Request extends RenderRequest = Record<never, never>>(
    templateId: string,
    request?: Request,
  ): Promise<RenderOutputFor<Request>> {
    return this.renders.render(templateId, request);
  }

  /**
   * Renders in the background (`async: true`, charged when accepted) and polls until it is done:
   * for renders that may outlast a request's timeout. A failed render throws `PlatenError` with
   * the render's error code; `timeoutMs` (default 5 minutes) throws `PlatenTimeoutError`. The key
   * needs `template:read` besides `render:write`: the wait reads the render's state.
   */
  async renderAndWait<Request extends RenderRequest = Record<never, never>>(
    templateId: string,
    request?: Request,
    options: WaitOptions = {},
  ): Promise<RenderOutputFor<Request>> {
    const output = await this.renders.wait(await this.renders.start(templateId, request), options);
    // The service answers the shape the request asks for (one file, or a file per page).
    return output as RenderOutputFor<Request>;
  }

  /** Finished renders per UTC day, format and source, over the last `days` (default 30). */
  usage(query: QueryOf<'getUsage'> = {}): Promise<Usage> {
    return call(this.api.GET('/v1/usage', { params: { query } }));
  }

  /** A rendered file or an asset, by its capability URL (no credential needed or sent). */
  protected async fetchFile(url: string): Promise<Response> {
    const fetchImpl = this.options.fetch ?? globalThis.fetch;
    // Capability URLs are absolute; a relative one is taken against the service, as Python does.
    const absolute = new URL(url, this.options.baseUrl).href;
    try {
      return await fetchImpl(absolute);
    } catch (cause) {
      throw new PlatenConnectionError(absolute, cause);
    }
  }
}
