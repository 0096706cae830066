/**
 * Templates for every entry point (API-key routes, embed routes, MCP tools, the studio through
 * the API): document validation, visibility and ownership for the asking principal (access.ts),
 * revision preconditions. Entry points turn their input into one call here and never touch the
 * store.
 */
import type { Actor, Principal } from '../auth/index.ts';
import { assertSameWorkspace } from '../auth/index.ts';
import { AppError, type ValidationIssue } from '../core/errors.ts';
import { isIdOf } from '../core/ids.ts';
import { createBlankDocument, type DesignDocument, parseDesignDocument } from '../design/index.ts';
import type { Store } from '../store/index.ts';
import { decodeCursor, type ResultPage } from '../store/paging.ts';
import type { TemplateRecord, TemplateRenderMeta, TemplateWithDocument } from '../store/templates.ts';
import { accessOf } from './access.ts';

export type { TemplateRecord } from '../store/templates.ts';
export type TemplateView = TemplateRecord & { document: DesignDocument };

export interface CreateTemplateInput {
  name: string;
  document?: unknown;
  width?: number;
  height?: number;
  shared?: boolean;
}

export interface SaveTemplateInput {
  document: unknown;
  name?: string;
  /** The `If-Match` header as sent: `"3"`, `3`, `W/"3"` or `*`. */
  ifMatch?: string;
}

function toView(template: TemplateWithDocument): TemplateView {
  const { workspaceId: _ws, embedId: _embed, documentHash: _hash, ...rest } = template;
  return rest;
}

/** Validates a design document; issues are reported under `document.` so clients find them. */
export function validateDocument(input: unknown): DesignDocument {
  const result = parseDesignDocument(input);
  if (result.ok) return result.document;
  const issues: ValidationIssue[] = result.issues.map((i) => ({
    path: i.path === '(root)' ? 'document' : `document.${i.path}`,
    message: i.message,
  }));
  throw new AppError('VALIDATION_FAILED', 'The design document is not valid.', issues);
}

/** `If-Match: "3"`, `3` or `W/"3"` → 3; `*` or absent → undefined. */
function parseIfMatch(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '*') return undefined;
  const match = /^\s*(?:W\/)?"?(\d{1,12})"?\s*$/.exec(header);
  if (!match?.[1]) {
    throw new AppError('PRECONDITION_FAILED', 'If-Match must name a revision such as "3".');
  }
  return Number(match[1]);
}

export function etagOf(revision: number): string {
  return `"${revision}"`;
}

const embedIdOf = (actor: Actor): string | null => (actor.type === 'embed_session' ? actor.embedId : null);

export class TemplateService {
  constructor(private readonly store: Store) {}

  async list(
    principal: Principal,
    query: { limit: number; cursor?: string },
  ): Promise<ResultPage<TemplateRecord>> {
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    if (after === null) {
      throw new AppError('VALIDATION_FAILED', 'The cursor is not valid.', [
        { path: 'cursor', message: 'Invalid cursor' },
      ]);
    }
    const page = { limit: query.limit, ...(after ? { after } : {}) };
    return this.store.templates.list(principal.workspaceId, page, accessOf(principal).visibility);
  }

  async create(principal: Principal, input: CreateTemplateInput): Promise<TemplateView> {
    const document =
      input.document !== undefined
        ? validateDocument(input.document)
        : createBlankDocument(input.width ?? 1080, input.height ?? 1080);
    const template = await this.store.templates.create({
      workspaceId: principal.workspaceId,
      name: input.name,
      document,
      shared: input.shared,
      ownerUserId: accessOf(principal).ownerOnCreate,
      embedId: embedIdOf(principal.actor),
    });
    return toView(template);
  }

  async get(principal: Principal, id: string): Promise<TemplateView> {
    return toView(await this.visible(principal, id, (templateId) => this.store.templates.get(templateId)));
  }

  async save(principal: Principal, id: string, input: SaveTemplateInput): Promise<TemplateView> {
    const document = validateDocument(input.document);
    await this.changeable(principal, id);
    // The template is looked up first: an unknown id is 404 whatever the If-Match says.
    const expectedRevision = parseIfMatch(input.ifMatch);
    const outcome = await this.store.templates.saveDocument(id, {
      document,
      name: input.name,
      expectedRevision,
    });
    if (outcome.kind === 'missing') throw new AppError('NOT_FOUND', 'The template was not found.');
    if (outcome.kind === 'stale')
      throw new AppError('PRECONDITION_FAILED', undefined, { revision: outcome.revision });
    return toView(outcome.template);
  }

  async updateMeta(
    principal: Principal,
    id: string,
    patch: { name?: string; shared?: boolean },
  ): Promise<TemplateView> {
    await this.changeable(principal, id);
    const updated = await this.store.templates.updateMeta(id, patch);
    if (!updated) throw new AppError('NOT_FOUND', 'The template was not found.');
    return toView(updated);
  }

  async remove(principal: Principal, id: string): Promise<void> {
    await this.changeable(principal, id);
    await this.store.templates.delete(id);
  }

  /** What rendering needs to know first (no document), under the same checks as `get`. */
  renderMeta(principal: Principal, id: string): Promise<TemplateRenderMeta> {
    return this.visible(principal, id, (templateId) => this.store.templates.renderMeta(templateId));
  }

  /** The current draft of a template `renderMeta` already admitted (no second check). */
  async draftOf(meta: TemplateRenderMeta): Promise<TemplateWithDocument> {
    const template = await this.store.templates.get(meta.id);
    if (!template) throw new AppError('NOT_FOUND', 'The template was not found.');
    return template;
  }

  /**
   * 404 when absent, malformed, or invisible to this principal (another end-user's template does
   * not exist for a session); 403 WORKSPACE_MISMATCH when another workspace's.
   */
  private async visible<T extends { workspaceId: string; ownerUserId: string | null; shared: boolean }>(
    principal: Principal,
    id: string,
    read: (id: string) => Promise<T | null>,
  ): Promise<T> {
    const row = isIdOf('template', id) ? await read(id) : null;
    if (!row) throw new AppError('NOT_FOUND', 'The template was not found.');
    assertSameWorkspace(principal, row.workspaceId);
    if (!accessOf(principal).canSee(row)) throw new AppError('NOT_FOUND', 'The template was not found.');
    return row;
  }

  /** Visible and the principal's to change (a shared template is read-only to a tenant: 403). */
  private async changeable(principal: Principal, id: string): Promise<TemplateRenderMeta> {
    const meta = await this.renderMeta(principal, id);
    if (!accessOf(principal).canChange(meta)) {
      throw new AppError('FORBIDDEN', 'This template is shared with you read-only.');
    }
    return meta;
  }
}
