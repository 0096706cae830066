/**
 * `new Platen({ baseUrl, apiKey })`: the machine API with a workspace API key. Each feature is a
 * namespace (`templates`, `assets`…); `api` is the raw openapi-fetch client, typed by the generated
 * `paths`, for anything the helpers do not wrap.
 */
import { Assets } from './assets.ts';
import { PlatenConnectionError } from './errors.ts';
import { Templates } from './templates.ts';
import { type ApiClient, createTransport, type TransportOptions } from './transport.ts';

export interface PlatenOptions extends TransportOptions {
  /** A workspace API key, `plt_…`. */
  apiKey: string;
}

export class Platen {
  readonly api: ApiClient;
  readonly templates: Templates;
  readonly assets: Assets;

  constructor(readonly options: PlatenOptions) {
    if (!options.apiKey) throw new TypeError('apiKey is required (a workspace API key, plt_…)');
    this.api = createTransport(options, { authorization: `Bearer ${options.apiKey}` });
    this.templates = new Templates(this.api);
    this.assets = new Assets(this.api, (url) => this.fetchFile(url));
  }

  /** A rendered file or an asset, by its capability URL (no credential needed or sent). */
  protected async fetchFile(url: string): Promise<Response> {
    const fetchImpl = this.options.fetch ?? globalThis.fetch;
    try {
      return await fetchImpl(url);
    } catch (cause) {
      throw new PlatenConnectionError(url, cause);
    }
  }
}
