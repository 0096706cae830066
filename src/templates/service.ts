/**
 * Templates for every entry point (API-key routes, embed routes, MCP tools, the studio through
 * the API): document validation, visibility and ownership for the asking principal (access.ts),
 * revision preconditions. Entry points turn their input into one call here and never touch the
 * store.
 */

import type { Transaction } from 'kysely';
import type { Actor, Principal } from '../auth/index.ts';
import { assertSameWorkspace } from '../auth/index.ts';
import { AppError, type ValidationIssue } from '../core/errors.ts';
import { isIdOf } from '../core/ids.ts';
import {
  createBlankDocument,
  type DesignDocument,
  parseDesignDocument,
  type TemplateVariable,
  templateVariables,
} from '../design/index.ts';
import type { Store } from '../store/index.ts';
import { decodeCursor } from '../store/paging.ts';
import type { Database } from '../store/schema.ts';
import type {
  TemplateRecord as StoredRecord,
  TemplateRenderMeta,
  TemplateWithDocument,
} from '../store/templates.ts';
import { accessOf } from './access.ts';

/** The template record every entry point shows (docs/api.md, Templates). */
export type TemplateRecord = Omit<StoredRecord, 'thumbnailKey'> & { thumbnailUrl: string | null };
export type TemplateView = TemplateRecord & { document: DesignDocument };

/** A change an embed session made (the spec's Events table: embed routes emit, the machine API does not). */
export interface TemplateEvent {
  type: 'template.create' | 'template.update';
  workspaceId: string;
  template: TemplateRecord;
  embedId: string;
  userId: string | null;
}

/** Records an event inside the transaction of the change (the webhook outbox). */
export type TemplateEventSink = (trx: Transaction<Database>, event: TemplateEvent) => Promise<void>;

/** Told after a template's draft was created or saved (thumbnails); must not throw or block. */
export type TemplateChangeListener = (template: TemplateWithDocument) => void;

export interface TemplateServiceOptions {
  baseUrl: string;
  events?: TemplateEventSink;
}

export interface CreateTemplateInput {
  name: string;
  document?: unknown;
  width?: number;
  height?: number;
  shared?: boolean;
}

/** A render's version pin (docs/versions.md): a published number, or `latest`. */
export type VersionPin = number | 'latest';

/** What a render draws from: the draft, or a pinned version's document. */
export type RenderableDocument = Pick<TemplateWithDocument, 'id' | 'document' | 'documentHash'>;

const noVersion = (number: number) =>
  new AppError('NOT_FOUND', `Version ${number} of this template was not found.`);

export interface SaveTemplateInput {
  document: unknown;
  name?: string;
  /** The `If-Match` header as sent: `"3"`, `3`, `W/"3"` or `*`. */
  ifMatch?: string;
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
  private readonly listeners: TemplateChangeListener[] = [];

  constructor(
    private readonly store: Store,
    private readonly options: TemplateServiceOptions,
  ) {}

  /** Calls `listener` after every create and save, whoever made it. */
  onChange(listener: TemplateChangeListener): void {
    this.listeners.push(listener);
  }

  async list(
    principal: Principal,
    query: { limit: number; cursor?: string },
  ): Promise<{ items: TemplateRecord[]; nextCursor: string | null }> {
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    if (after === null) {
      throw new AppError('VALIDATION_FAILED', 'The cursor is not valid.', [
        { path: 'cursor', message: 'Invalid cursor' },
      ]);
    }
    const page = { limit: query.limit, ...(after ? { after } : {}) };
    const found = await this.store.templates.list(
      principal.workspaceId,
      page,
      accessOf(principal).visibility,
    );
    const access = accessOf(principal);
    return {
      // A template shown as published: its thumbnail is the draft's picture, so none is shown.
      items: found.items.map((t) =>
        access.pinsPublished(t) ? { ...this.record(t), thumbnailUrl: null } : this.record(t),
      ),
      nextCursor: found.nextCursor,
    };
  }

  async create(principal: Principal, input: CreateTemplateInput): Promise<TemplateView> {
    const access = accessOf(principal);
    // A workspace template made here would be an unpublished draft it could neither see nor save.
    if (access.pinsPublished({ ownerUserId: access.ownerOnCreate }))
      throw new AppError('FORBIDDEN', 'This embed shows published templates only; it creates none.');
    const document =
      input.document !== undefined
        ? validateDocument(input.document)
        : createBlankDocument(input.width ?? 1080, input.height ?? 1080);
    const template = await this.store.templates.create(
      {
        workspaceId: principal.workspaceId,
        name: input.name,
        document,
        shared: input.shared,
        ownerUserId: access.ownerOnCreate,
        embedId: embedIdOf(principal.actor),
      },
      this.eventHook(principal, 'template.create'),
    );
    this.changed(template);
    return this.view(template);
  }

  async get(principal: Principal, id: string): Promise<TemplateView> {
    const template = await this.visible(principal, id, (templateId) => this.store.templates.get(templateId));
    if (!accessOf(principal).pinsPublished(template)) return this.view(template);
    // An embed that shows published templates only: the latest version, never the draft.
    const number = await this.versionNumber(id, 'latest');
    const version = await this.store.templateVersions.get(id, number);
    if (!version) throw noVersion(number);
    const { width, height, pageCount } = version;
    return {
      ...this.view(template),
      width,
      height,
      pageCount,
      thumbnailUrl: null,
      document: version.document,
    };
  }

  async save(principal: Principal, id: string, input: SaveTemplateInput): Promise<TemplateView> {
    const document = validateDocument(input.document);
    await this.changeable(principal, id);
    // The template is looked up first: an unknown id is 404 whatever the If-Match says.
    const expectedRevision = parseIfMatch(input.ifMatch);
    const outcome = await this.store.templates.saveDocument(
      id,
      { document, name: input.name, expectedRevision },
      this.eventHook(principal, 'template.update'),
    );
    if (outcome.kind === 'missing') throw new AppError('NOT_FOUND', 'The template was not found.');
    if (outcome.kind === 'stale')
      throw new AppError('PRECONDITION_FAILED', undefined, { revision: outcome.revision });
    this.changed(outcome.template);
    return this.view(outcome.template);
  }

  async updateMeta(
    principal: Principal,
    id: string,
    patch: { name?: string; shared?: boolean },
  ): Promise<TemplateView> {
    await this.changeable(principal, id);
    const updated = await this.store.templates.updateMeta(id, patch);
    if (!updated) throw new AppError('NOT_FOUND', 'The template was not found.');
    return this.view(updated);
  }

  async remove(principal: Principal, id: string): Promise<void> {
    await this.changeable(principal, id);
    await this.store.templates.delete(id);
  }

  /**
   * What rendering needs to know first (no document), under the same checks as `get`. With a
   * `version` pin (a number, or `latest`: the last published), the facts are that version's and
   * `version` names it; 404 when the template has no such version (docs/versions.md).
   */
  async renderMeta(principal: Principal, id: string, version?: VersionPin): Promise<TemplateRenderMeta> {
    const meta = await this.visible(principal, id, (templateId) =>
      this.store.templates.renderMeta(templateId),
    );
    // An embed that shows published templates only renders the workspace's as published.
    const pin = version ?? (accessOf(principal).pinsPublished(meta) ? 'latest' : undefined);
    if (pin === undefined) return meta;
    const number = await this.versionNumber(id, pin);
    const facts = await this.store.templateVersions.renderFacts(id, number);
    if (!facts) throw noVersion(number);
    const { documentHash, pageIds, activePageId } = facts;
    return { ...meta, documentHash, pageIds, activePageId, version: number };
  }

  /**
   * The modification keys the draft (or a pinned version) takes, with kinds, defaults and the boxes
   * they fill (src/design/variables.ts), under the same checks as `get`.
   */
  async variables(
    principal: Principal,
    id: string,
    version?: VersionPin,
  ): Promise<{ templateId: string; version: number | null; variables: TemplateVariable[] }> {
    const meta = await this.renderMeta(principal, id, version);
    const { document } = await this.draftOf(meta);
    return { templateId: id, version: meta.version ?? null, variables: templateVariables(document) };
  }

  /** The number a pin names: itself, or the last published (404 when none is). */
  async versionNumber(id: string, version: VersionPin): Promise<number> {
    if (version !== 'latest') return version;
    const latest = await this.store.templateVersions.latestNumber(id);
    if (latest === null) throw new AppError('NOT_FOUND', 'This template has no published version yet.');
    return latest;
  }

  /**
   * The document a template `renderMeta` already admitted renders (no second check): the current
   * draft, or the pinned version's.
   */
  async draftOf(meta: TemplateRenderMeta): Promise<RenderableDocument> {
    if (meta.version !== undefined) {
      const version = await this.store.templateVersions.get(meta.id, meta.version);
      if (!version) throw noVersion(meta.version);
      return { id: meta.id, document: version.document, documentHash: version.documentHash };
    }
    const template = await this.store.templates.get(meta.id);
    if (!template) throw new AppError('NOT_FOUND', 'The template was not found.');
    return template;
  }

  /** The record as shown: the stored thumbnail key becomes its capability URL. */
  record(template: StoredRecord): TemplateRecord {
    const { thumbnailKey, ...rest } = template;
    return { ...rest, thumbnailUrl: thumbnailKey ? `${this.options.baseUrl}/files/${thumbnailKey}` : null };
  }

  view(template: TemplateWithDocument): TemplateView {
    const { workspaceId: _ws, embedId: _embed, documentHash: _hash, document, ...rest } = template;
    return { ...this.record(rest), document };
  }

  /** The outbox write for a change an embed session makes; none for other principals. */
  private eventHook(principal: Principal, type: TemplateEvent['type']) {
    const { events } = this.options;
    const actor = principal.actor;
    if (!events || actor.type !== 'embed_session') return undefined;
    return (trx: Transaction<Database>, template: TemplateWithDocument) =>
      events(trx, {
        type,
        workspaceId: principal.workspaceId,
        template: this.record(template),
        embedId: actor.embedId,
        userId: actor.userId,
      });
  }

  private changed(template: TemplateWithDocument): void {
    for (const listener of this.listeners) listener(template);
  }

  /**
   * 404 when absent, malformed, or invisible to this principal (another end-user's template does
   * not exist for a session); 403 WORKSPACE_MISMATCH when another workspace's.
   */
  private async visible<
    T extends { workspaceId: string; ownerUserId: string | null; embedId: string | null; shared: boolean },
  >(principal: Principal, id: string, read: (id: string) => Promise<T | null>): Promise<T> {
    const row = isIdOf('template', id) ? await read(id) : null;
    if (!row) throw new AppError('NOT_FOUND', 'The template was not found.');
    assertSameWorkspace(principal, row.workspaceId);
    const access = accessOf(principal);
    if (!access.canSee(row)) throw new AppError('NOT_FOUND', 'The template was not found.');
    // Shown as published only: one never published does not exist for this principal.
    if (access.pinsPublished(row) && (await this.store.templateVersions.latestNumber(id)) === null)
      throw new AppError('NOT_FOUND', 'The template was not found.');
    return row;
  }

  /** Visible and the principal's to change (a shared template is read-only to a tenant: 403). */
  async changeable(principal: Principal, id: string): Promise<TemplateRenderMeta> {
    const meta = await this.renderMeta(principal, id);
    const access = accessOf(principal);
    if (access.pinsPublished(meta))
      throw new AppError('FORBIDDEN', 'This embed shows published templates only; they are read-only here.');
    if (!access.canChange(meta)) {
      throw new AppError('FORBIDDEN', 'This template is shared with you read-only.');
    }
    return meta;
  }
}
