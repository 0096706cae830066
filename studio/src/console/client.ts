/**
 * The console's door to the service: its own API (`/console/api`), the machine API (`/v1`, naming
 * the workspace) and, for operators, the operator API, all with the session cookie and the CSRF
 * token of `GET /console/api/session` on every call. Errors carry the contract's code.
 */
import type { ErrorBody, ErrorCode, User, Workspace } from '@platen/client';

export type { Page, Template as TemplateRecord, Workspace } from '@platen/client';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** One of the API's codes; `NETWORK` when no answer came, `HTTP_<status>` for a foreign one. */
    readonly code: ErrorCode | 'NETWORK' | `HTTP_${number}`,
    message: string,
  ) {
    super(message);
  }
}

let csrf = '';
export const setCsrf = (token: string) => {
  csrf = token;
};

export interface CallOptions {
  body?: unknown;
  /** Raw bytes (an upload) with their type, instead of JSON. */
  file?: File;
  /** For `/v1`: the workspace acted in. */
  workspaceId?: string;
  /** More headers (`If-Match` on a guarded change). */
  headers?: Record<string, string>;
}

export async function call<T>(method: string, path: string, options: CallOptions = {}): Promise<T> {
  const response = await send(method, path, options);
  if (response.status === 204) return undefined as T;
  return (await response.json().catch(() => null)) as T;
}

/** A binary answer (a picture the page shows through an object URL: an `<img>` sends no CSRF header). */
export async function callBlob(path: string, options: CallOptions = {}): Promise<Blob> {
  return (await send('GET', path, options)).blob();
}

async function send(method: string, path: string, options: CallOptions): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers, 'x-platen-csrf': csrf };
  if (options.workspaceId) headers['x-workspace-id'] = options.workspaceId;
  let body: BodyInit | undefined;
  if (options.file) {
    headers['content-type'] = options.file.type || 'application/octet-stream';
    body = options.file;
  } else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body, cache: 'no-store', credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'NETWORK', 'The service could not be reached. Check the connection and try again.');
  }
  if (!response.ok) {
    // The API's error envelope, unless the answer came from elsewhere (a proxy's error page).
    const body = (await response.json().catch(() => null)) as Partial<ErrorBody> | null;
    const error = body?.error;
    const code = typeof error?.code === 'string' ? error.code : (`HTTP_${response.status}` as const);
    const message = typeof error?.message === 'string' ? error.message : response.statusText;
    throw new ApiError(response.status, code, message);
  }
  return response;
}

export const consoleApi = (workspaceId: string, rest = '') =>
  `/console/api/workspaces/${encodeURIComponent(workspaceId)}${rest}`;

/** `GET /console/api/session` (the console's own route, outside the OpenAPI document). */
export interface Session {
  user: Pick<User, 'id' | 'email' | 'operator'>;
  workspaces: Workspace[];
  csrfToken: string;
}
