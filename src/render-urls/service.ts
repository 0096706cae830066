/**
 * Signed render URLs: the operator's URL-signing secrets (create, list, rotate with a grace for the
 * previous one, a render cap, revoke), and serving
 * `GET /v1/templates/:id/image.{png,jpeg,pdf,mp4,webm,gif}`:
 * the URL's parameters become a render request for the one render service, so credits, identical
 * renders and limits are the render route's; the file is then streamed from the file store, with an
 * ETag (the render's id: an identical URL is the same file) for CDNs and browsers.
 */
import { randomBytes } from 'node:crypto';
import type { AuditTrail } from '../audit/trail.ts';
import { assertManages, manages, type Principal, signUrl } from '../auth/index.ts';
import { AppError, validationFailed } from '../core/errors.ts';
import { fromZodIssues } from '../design/index.ts';
import type { FileStore } from '../files/index.ts';
import {
  fileKeyOf,
  type RenderFormat,
  type RenderQuota,
  type RenderService,
  renderRequestSchema,
} from '../renders/index.ts';
import type { Store } from '../store/index.ts';
import type { UrlSecretRecord, UrlSecretWithKey } from '../store/url-secrets.ts';
import type { TemplateService } from '../templates/index.ts';

/**
 * Query parameters that are render options or the signature's own, never template variables. The
 * same for every format (an option a format ignores is still an option), so a URL's variables do
 * not depend on its extension.
 */
export const RESERVED_PARAMETERS = [
  'sig',
  'exp',
  'pageId',
  'scale',
  'quality',
  'fps',
  'dither',
  'timeMs',
  'version',
] as const;
const ONE_YEAR_SECONDS = 365 * 86_400;
const newSecret = () => `urlsec_${randomBytes(32).toString('base64url')}`;

/** Every render format has its URL: `image.png` … `image.mp4`, `image.webm`, `image.gif`. */
export type ImageFormat = RenderFormat;
export type Query = Record<string, string | string[] | undefined>;

export type ImageAnswer =
  | { kind: 'not-modified'; etag: string; maxAgeSeconds: number }
  | {
      kind: 'file';
      etag: string;
      maxAgeSeconds: number;
      contentType: string;
      byteSize: number;
      stream: NodeJS.ReadableStream;
    };

const view = ({ secret: _secret, ...record }: UrlSecretWithKey): UrlSecretRecord => record;

const noWorkspace = () => new AppError('NOT_FOUND', 'No such workspace.');
const noSecret = () => new AppError('NOT_FOUND', 'No such URL-signing secret.');

export interface SignInput {
  format: ImageFormat;
  modifications?: Record<string, string>;
  pageId?: string;
  scale?: number;
  quality?: number;
  fps?: number;
  dither?: boolean;
  timeMs?: number;
  version?: number | 'latest';
  /** Adds `exp`: the URL answers 403 after that many seconds. Absent: it never expires. */
  expiresInSeconds?: number;
}

export interface SignedRenderUrl {
  url: string;
  secretId: string;
  expiresAt: string | null;
}

export class RenderUrlService {
  constructor(
    private readonly deps: {
      store: Store;
      renders: RenderService;
      templates: TemplateService;
      files: FileStore;
      audit: AuditTrail;
      graceSeconds: number;
      baseUrl: string;
    },
  ) {}

  async create(
    principal: Principal,
    workspaceId: string,
    input: { name?: string; renderCap?: number | null },
  ): Promise<UrlSecretWithKey> {
    await this.workspace(principal, workspaceId);
    const created = await this.deps.store.urlSecrets.create({
      workspaceId,
      name: input.name ?? 'URL signing',
      secret: newSecret(),
      renderCap: input.renderCap ?? null,
    });
    await this.deps.audit.record(principal, 'url_secret.created', {
      workspaceId,
      target: created.id,
      details: { name: created.name, renderCap: created.renderCap },
    });
    return created;
  }

  async list(principal: Principal, workspaceId: string): Promise<UrlSecretRecord[]> {
    await this.workspace(principal, workspaceId);
    return (await this.deps.store.urlSecrets.list(workspaceId)).map(view);
  }

  async rotate(principal: Principal, id: string): Promise<UrlSecretWithKey> {
    const secret = await this.secret(principal, id);
    const until = new Date(Date.now() + this.deps.graceSeconds * 1000);
    const rotated = await this.deps.store.urlSecrets.rotate(id, newSecret(), until);
    if (!rotated) throw noSecret();
    await this.deps.audit.record(principal, 'url_secret.rotated', {
      workspaceId: secret.workspaceId,
      target: id,
      details: { previousValidUntil: until.toISOString() },
    });
    return rotated;
  }

  async update(
    principal: Principal,
    id: string,
    patch: { renderCap: number | null },
  ): Promise<UrlSecretRecord> {
    const secret = await this.secret(principal, id);
    const updated = await this.deps.store.urlSecrets.setRenderCap(id, patch.renderCap);
    if (!updated) throw noSecret();
    await this.deps.audit.record(principal, 'url_secret.updated', {
      workspaceId: secret.workspaceId,
      target: id,
      details: { renderCap: { from: secret.renderCap, to: patch.renderCap } },
    });
    return view(updated);
  }

  async revoke(principal: Principal, id: string): Promise<void> {
    const secret = await this.secret(principal, id);
    if (!(await this.deps.store.urlSecrets.revoke(id))) throw noSecret();
    await this.deps.audit.record(principal, 'url_secret.revoked', {
      workspaceId: secret.workspaceId,
      target: id,
    });
  }

  private async workspace(principal: Principal, workspaceId: string): Promise<void> {
    assertManages(principal, workspaceId, noWorkspace);
    if (!(await this.deps.store.workspaces.get(workspaceId))) throw noWorkspace();
  }

  /** The secret (never its key), if its workspace is the principal's to manage; else 404. */
  private async secret(principal: Principal, id: string): Promise<UrlSecretRecord> {
    const found = await this.deps.store.urlSecrets.get(id);
    if (!found || !manages(principal, found.workspaceId)) throw noSecret();
    return view(found);
  }

  /**
   * A signed render URL for a template of the principal's workspace, signed with the workspace's
   * newest URL-signing secret (docs/api.md#signed-render-urls). The URL is a capability to spend
   * credits without a key, so signing needs `render:write` (the caller's route or tool checks it),
   * refuses a variable named like a render option, and is audited. 409 when the workspace has no
   * secret: an operator creates one.
   */
  async sign(principal: Principal, templateId: string, input: SignInput): Promise<SignedRenderUrl> {
    const reserved = Object.keys(input.modifications ?? {}).filter((name) =>
      (RESERVED_PARAMETERS as readonly string[]).includes(name),
    );
    if (reserved.length > 0)
      throw validationFailed(
        reserved.map((name) => ({
          path: `modifications.${name}`,
          message: 'is a render option in a signed URL; rename the variable',
        })),
      );
    // The template must be the principal's to render, and a pinned version must exist.
    await this.deps.templates.renderMeta(principal, templateId, input.version);
    const secrets = await this.deps.store.urlSecrets.list(principal.workspaceId);
    const secret = secrets.at(-1);
    if (!secret)
      throw new AppError(
        'CONFLICT',
        'This workspace has no URL-signing secret; an operator creates one (POST /admin/v1/workspaces/:id/url-signing-secrets).',
      );
    const params: Record<string, string> = { ...input.modifications };
    for (const name of ['pageId', 'scale', 'quality', 'fps', 'dither', 'timeMs', 'version'] as const) {
      const value = input[name];
      if (value !== undefined) params[name] = String(value);
    }
    const expiresAt =
      input.expiresInSeconds === undefined ? null : Math.floor(Date.now() / 1000) + input.expiresInSeconds;
    if (expiresAt !== null) params.exp = String(expiresAt);
    const url = signUrl(
      this.deps.baseUrl,
      `/v1/templates/${encodeURIComponent(templateId)}/image.${input.format}`,
      params,
      secret.secret,
    );
    await this.deps.audit.record(principal, 'render_url.signed', {
      workspaceId: principal.workspaceId,
      target: templateId,
      details: { secretId: secret.id, format: input.format, expiresAt, version: input.version ?? null },
    });
    return {
      url,
      secretId: secret.id,
      expiresAt: expiresAt === null ? null : new Date(expiresAt * 1000).toISOString(),
    };
  }

  /** Renders (or replays) what a signed URL names, and answers its file or 304. */
  async image(
    principal: Principal,
    templateId: string,
    format: ImageFormat,
    query: Query,
    ifNoneMatch: string | undefined,
  ): Promise<ImageAnswer> {
    const { actor } = principal;
    if (actor.type !== 'signed_url') throw new AppError('INVALID_SIGNATURE');
    const request = renderRequestOf(format, query);
    const quota: RenderQuota = {
      reserve: async () => {
        if (!(await this.deps.store.urlSecrets.reserveRender(actor.secretId)))
          throw new AppError('RENDER_CAP_REACHED');
      },
      release: () => this.deps.store.urlSecrets.releaseRender(actor.secretId),
    };
    const response = await this.deps.renders.render(principal, templateId, request, quota);
    const result = 'pages' in response ? response.pages[0] : response;
    if (!result) throw new AppError('RENDER_FAILED', 'The render produced no file.');
    const etag = `"${result.id}"`;
    const maxAgeSeconds = maxAgeOf(query);
    if (matches(ifNoneMatch, etag)) return { kind: 'not-modified', etag, maxAgeSeconds };
    const key = fileKeyOf(result);
    const file = key ? await this.deps.files.getStream(key) : null;
    if (!file) throw new AppError('NOT_FOUND', 'The rendered file is no longer stored.');
    return { kind: 'file', etag, maxAgeSeconds, ...file };
  }
}

/** The render request a URL's parameters make: options by their reserved names, variables by theirs. */
export function renderRequestOf(
  format: ImageFormat,
  query: Query,
): ReturnType<typeof renderRequestSchema.parse> {
  const single: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value)) throw validationFailed([{ path: name, message: 'given more than once' }]);
    if (value !== undefined) single[name] = value;
  }
  const { pageId, scale, quality, fps, dither, timeMs, version } = single;
  const modifications = Object.fromEntries(
    Object.entries(single).filter(([name]) => !(RESERVED_PARAMETERS as readonly string[]).includes(name)),
  );
  const number = (value: string) => (value.trim() === '' ? Number.NaN : Number(value));
  // Anything but `true` or `false` stays a string, which the schema refuses with the parameter's name.
  const flag = (value: string) => (value === 'true' ? true : value === 'false' ? false : value);
  const parsed = renderRequestSchema.safeParse({
    format,
    modifications,
    ...(pageId !== undefined ? { pageId } : {}),
    ...(scale !== undefined ? { scale: number(scale) } : {}),
    ...(quality !== undefined ? { quality: number(quality) } : {}),
    ...(fps !== undefined ? { fps: number(fps) } : {}),
    ...(dither !== undefined ? { dither: flag(dither) } : {}),
    ...(timeMs !== undefined ? { timeMs: number(timeMs) } : {}),
    ...(version !== undefined ? { version: version === 'latest' ? version : number(version) } : {}),
  });
  if (!parsed.success) throw validationFailed(fromZodIssues(parsed.error.issues));
  return parsed.data;
}

/** How long caches may keep the answer: a year, or until `exp` when the URL expires sooner. */
function maxAgeOf(query: Query): number {
  const exp = typeof query.exp === 'string' ? Number(query.exp) : Number.NaN;
  if (!Number.isFinite(exp)) return ONE_YEAR_SECONDS;
  return Math.max(0, Math.min(ONE_YEAR_SECONDS, Math.floor(exp - Date.now() / 1000)));
}

/** RFC 9110 §13.1.2: a weak comparison against each listed entity tag, or `*`. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}
