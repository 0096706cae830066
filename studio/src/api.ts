/**
 * The studio's only door to the service: the embed routes on its own origin, with the session's
 * bearer token. When the token is refused (401 INVALID_SESSION) it reports `token-expired` once and
 * parks every request until the host hands over a new token, then retries them: nothing is lost,
 * callers just wait. Network failures surface as `NetworkError` (autosave retries those).
 */
import type { DesignDocument } from '../../src/engine/browser.ts';
import type { StudioAsset } from './editor/contract.ts';

export interface EmbedInfo {
  enabled: boolean;
  brandTitle: string;
  brandIconUrl: string;
  brandAccentColor: string;
  downloadsEnabled: boolean;
  assetPickerEnabled: boolean;
  smartResizeEnabled: boolean;
}

export interface TemplateRecord {
  id: string;
  name: string;
  width: number;
  height: number;
  pageCount: number;
  revision: number;
  shared: boolean;
  ownerUserId: string | null;
  thumbnailUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Template extends TemplateRecord {
  document: DesignDocument;
}

export interface RenderResult {
  id: string;
  templateId: string;
  format: 'png' | 'jpeg' | 'pdf';
  url: string | null;
  byteSize: number;
  width: number;
  height: number;
  credits: { charged: number; balanceAfter: number };
}

export type RenderResponse = RenderResult | { pages: RenderResult[] };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export class NetworkError extends Error {}

export interface Api {
  info(): Promise<EmbedInfo>;
  listTemplates(): Promise<TemplateRecord[]>;
  createTemplate(
    body: { name: string; width: number; height: number } | { name: string; document: DesignDocument },
  ): Promise<Template>;
  getTemplate(id: string): Promise<Template>;
  saveTemplate(
    id: string,
    body: { document: DesignDocument; name?: string },
    revision: number | null,
  ): Promise<Template>;
  render(
    id: string,
    body: { format: 'png' | 'jpeg' | 'pdf'; pageId?: string; allPages?: boolean },
  ): Promise<RenderResponse>;
  listAssets(): Promise<StudioAsset[]>;
  uploadAsset(file: File): Promise<StudioAsset>;
  /** An image a design names (`asset:<id>` or an https URL), as the renderer would draw it. */
  image(src: string): Promise<Blob>;
  /** The workspace's uploaded fonts that renders for this session use. */
  fonts(): Promise<WorkspaceFontFile[]>;
  setToken(token: string): void;
}

export interface WorkspaceFontFile {
  family: string;
  assetId: string;
  mimeType: string;
  url: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

async function errorOf(response: Response): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => null);
  const error = isRecord(body) && isRecord(body.error) ? body.error : {};
  const code = typeof error.code === 'string' ? error.code : `HTTP_${response.status}`;
  const message = typeof error.message === 'string' ? error.message : response.statusText;
  return new ApiError(response.status, code, message);
}

export function createApi(embedId: string, onTokenExpired: () => void): Api {
  const base = `/v1/embed/${encodeURIComponent(embedId)}`;
  let token: string | null = null;
  let expiredReported = false;
  // Requests waiting for a (new) token; each resolves when setToken is called.
  let waiting: (() => void)[] = [];

  const tokenArrived = () => new Promise<void>((resolve) => waiting.push(resolve));

  async function send(path: string, init: RequestInit, authed: boolean): Promise<Response> {
    for (;;) {
      if (authed && token === null) await tokenArrived();
      const used = token;
      const headers = new Headers(init.headers);
      if (authed && used) headers.set('authorization', `Bearer ${used}`);
      let response: Response;
      try {
        response = await fetch(path, { ...init, headers, cache: 'no-store' });
      } catch (error) {
        throw new NetworkError(error instanceof Error ? error.message : 'network error');
      }
      if (authed && response.status === 401) {
        const error = await errorOf(response);
        if (error.code !== 'INVALID_SESSION') throw error;
        // A token set while this request was in flight is tried at once; otherwise wait for one.
        if (token === used) {
          token = null;
          if (!expiredReported) {
            expiredReported = true;
            onTokenExpired();
          }
        }
        continue;
      }
      if (!response.ok) throw await errorOf(response);
      return response;
    }
  }

  const json = async <T>(path: string, init: RequestInit = {}, authed = true): Promise<T> =>
    (await (await send(path, init, authed)).json()) as T;

  const body = (method: string, value: unknown, headers: Record<string, string> = {}): RequestInit => ({
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(value),
  });

  return {
    info: () => json<EmbedInfo>(base, {}, false),
    async listTemplates() {
      const items: TemplateRecord[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const page: { items: TemplateRecord[]; nextCursor: string | null } = await json(
          `${base}/templates${query}`,
        );
        items.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor && items.length < 1000);
      return items;
    },
    createTemplate: (value) => json<Template>(`${base}/templates`, body('POST', value)),
    getTemplate: (id) => json<Template>(`${base}/templates/${encodeURIComponent(id)}`),
    saveTemplate: (id, value, revision) =>
      json<Template>(
        `${base}/templates/${encodeURIComponent(id)}`,
        body('PUT', value, revision === null ? {} : { 'if-match': `"${revision}"` }),
      ),
    render: (id, value) =>
      json<RenderResponse>(`${base}/templates/${encodeURIComponent(id)}/render`, body('POST', value)),
    async listAssets() {
      const page = await json<{ items: StudioAsset[] }>(`${base}/assets?limit=100`);
      return page.items;
    },
    uploadAsset: (file) =>
      json<StudioAsset>(`${base}/assets`, {
        method: 'POST',
        headers: { 'content-type': file.type || 'application/octet-stream' },
        body: file,
      }),
    image: async (src) => (await send(`${base}/images?src=${encodeURIComponent(src)}`, {}, true)).blob(),
    fonts: async () => (await json<{ items: WorkspaceFontFile[] }>(`${base}/fonts`)).items,
    setToken(next) {
      token = next;
      expiredReported = false;
      for (const resolve of waiting.splice(0)) resolve();
      waiting = [];
    },
  };
}
