/**
 * The studio's only door to the service: the embed routes on its own origin, with the session's
 * bearer token. When the token is refused (401 INVALID_SESSION) it reports `token-expired` once and
 * parks every request until the host hands over a new token, then retries them: nothing is lost,
 * callers just wait. Network failures surface as `NetworkError` (autosave retries those).
 */
import type {
  Asset,
  EmbedInfo,
  ErrorBody,
  ErrorCode,
  Page,
  RenderOutput,
  RenderResult,
  Schemas,
  Template as TemplateRecord,
  TemplateWithDocument,
} from '@platen/client';
import type { DesignDocument } from '../../src/engine/browser.ts';
import type { StudioAsset } from './editor/contract.ts';
import type { Side, TemplateDiff, TemplateVersion } from './history/changes.ts';

// The service's own types, generated from its OpenAPI document, under the studio's names.
export type { EmbedInfo, RenderResult, TemplateRecord };
/** A template with its document, typed as the engine's design document rather than a plain object. */
export type Template = Omit<TemplateWithDocument, 'document'> & { document: DesignDocument };
export type RenderResponse = RenderOutput;
export type WorkspaceFontFile = Schemas['EmbedFontFaces']['items'][number];
export type PreflightReport = Schemas['PreflightReport'];

export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** One of the API's codes; `HTTP_<status>` when the answer was not the API's error body. */
    readonly code: ErrorCode | `HTTP_${number}`,
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
    body: { format: 'png' | 'jpeg' | 'pdf' | 'mp4' | 'webm' | 'gif'; pageId?: string; allPages?: boolean },
  ): Promise<RenderResponse>;
  listAssets(): Promise<StudioAsset[]>;
  uploadAsset(file: File): Promise<StudioAsset>;
  /** An image a design names (`asset:<id>` or an https URL), as the renderer would draw it. */
  image(src: string): Promise<Blob>;
  /** The workspace's uploaded fonts that renders for this session use. */
  fonts(): Promise<WorkspaceFontFile[]>;
  /** The template's published versions, newest first (the history panel shows the newest 100). */
  listVersions(id: string): Promise<TemplateVersion[]>;
  /** Publishes the saved draft; `created` is false when it equals the latest version already. */
  publish(id: string, note: string | null): Promise<{ version: TemplateVersion; created: boolean }>;
  /** The draft becomes a copy of version `n`, if it is still at `revision` (else 412). */
  rollback(id: string, n: number, revision: number): Promise<Template>;
  diff(id: string, from: Side, to: Side): Promise<TemplateDiff>;
  diffImage(id: string, from: Side, to: Side): Promise<Blob>;
  /** What a render of the saved draft would get wrong (docs/preflight.md): the studio's warnings. */
  preflight(id: string): Promise<PreflightReport>;
  setToken(token: string): void;
}

async function errorOf(response: Response): Promise<ApiError> {
  // The API's error envelope, unless the answer came from elsewhere (a proxy's error page).
  const body = (await response.json().catch(() => null)) as Partial<ErrorBody> | null;
  const error = body?.error;
  const code = typeof error?.code === 'string' ? error.code : (`HTTP_${response.status}` as const);
  const message = typeof error?.message === 'string' ? error.message : response.statusText;
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
        const page: Page<TemplateRecord> = await json(`${base}/templates${query}`);
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
      const page = await json<Page<Asset>>(`${base}/assets?limit=100`);
      return page.items;
    },
    uploadAsset: (file) =>
      json<Asset>(`${base}/assets`, {
        method: 'POST',
        headers: { 'content-type': file.type || 'application/octet-stream' },
        body: file,
      }),
    image: async (src) => (await send(`${base}/images?src=${encodeURIComponent(src)}`, {}, true)).blob(),
    fonts: async () => (await json<{ items: WorkspaceFontFile[] }>(`${base}/fonts`)).items,
    listVersions: async (id) =>
      (await json<Page<TemplateVersion>>(`${base}/templates/${encodeURIComponent(id)}/versions?limit=100`))
        .items,
    async publish(id, note) {
      const response = await send(
        `${base}/templates/${encodeURIComponent(id)}/versions`,
        body('POST', note ? { note } : {}),
        true,
      );
      return { version: (await response.json()) as TemplateVersion, created: response.status === 201 };
    },
    preflight: (id) =>
      json<PreflightReport>(`${base}/templates/${encodeURIComponent(id)}/preflight`, body('POST', {})),
    rollback: (id, n, revision) =>
      json<Template>(`${base}/templates/${encodeURIComponent(id)}/versions/${n}/rollback`, {
        method: 'POST',
        headers: { 'if-match': `"${revision}"` },
      }),
    diff: (id, from, to) =>
      json<TemplateDiff>(`${base}/templates/${encodeURIComponent(id)}/diff?from=${from}&to=${to}`),
    diffImage: async (id, from, to) =>
      (
        await send(`${base}/templates/${encodeURIComponent(id)}/diff.png?from=${from}&to=${to}`, {}, true)
      ).blob(),
    setToken(next) {
      token = next;
      expiredReported = false;
      for (const resolve of waiting.splice(0)) resolve();
      waiting = [];
    },
  };
}
