/**
 * Template versions for every entry point (docs/versions.md): publish the draft as an immutable,
 * numbered version; list, read, roll back to one (the draft becomes its copy: a save like any
 * other, with the same revision precondition), and diff two of them or one and the draft, element
 * by element and as a picture. Renders pin a version through TemplateService.renderMeta; this
 * service owns the rest. Visibility and ownership are TemplateService's: a version is seen by who
 * sees its template, published and rolled back by who may change it.
 */
import sharp from 'sharp';
import type { AuditTrail } from '../audit/trail.ts';
import { actorLabel, ownsOrShared, type Principal, tenancyOf } from '../auth/index.ts';
import { AppError } from '../core/errors.ts';
import { type Change, diffDocuments } from '../design/document-diff.ts';
import type { DesignDocument } from '../design/index.ts';
import type { RenderedFile, RenderJob } from '../engine/index.ts';
import type { JobInputLoader } from '../renders/job-inputs.ts';
import type { Store } from '../store/index.ts';
import { decodeCursor, type ResultPage } from '../store/paging.ts';
import type { TemplateVersionRecord, TemplateVersionWithDocument } from '../store/template-versions.ts';
import { accessOf, type TemplateService, type TemplateView, type VersionPin } from '../templates/index.ts';
import { visualDiff } from './visual-diff.ts';

export type TemplateVersionView = TemplateVersionRecord & { document: DesignDocument };

/** One side of a diff: a published number, `latest`, or the current `draft`. */
export type DiffSide = VersionPin | 'draft';

export interface TemplateDiff {
  from: { version: number | null; revision: number | null };
  to: { version: number | null; revision: number | null };
  changes: Change[];
  /** True when the changes list was cut at MAX_CHANGES. */
  truncated: boolean;
}

/** A diff lists at most this many changes: two documents of 2,000 elements each stay bounded. */
export const MAX_CHANGES = 500;

/** The longest side, in pixels, of the pictures a visual diff compares (a free, bounded render). */
export const VISUAL_DIFF_BOX = 800;

export interface TemplateVersionServiceDeps {
  store: Store;
  templates: TemplateService;
  audit: AuditTrail;
  inputs: Pick<JobInputLoader, 'load'>;
  /** The render pool's `render`: the killable, time-bounded processes paid renders use. */
  render(job: RenderJob): Promise<RenderedFile[]>;
  allowPrivateUrls: boolean;
}

const view = ({
  workspaceId: _ws,
  documentHash: _hash,
  ...version
}: TemplateVersionWithDocument): TemplateVersionView => version;

export class TemplateVersionService {
  constructor(private readonly deps: TemplateVersionServiceDeps) {}

  /**
   * Publishes the draft as the next version; an unchanged draft answers the version it already is
   * (`created: false`), so a retried publish never makes two.
   */
  async publish(
    principal: Principal,
    templateId: string,
    input: { note?: string },
  ): Promise<{ version: TemplateVersionView; created: boolean }> {
    const meta = await this.deps.templates.changeable(principal, templateId);
    const outcome = await this.deps.store.templateVersions.publish(templateId, {
      note: input.note ?? null,
      publishedBy: actorLabel(principal.actor),
    });
    if (outcome.kind === 'missing') throw new AppError('NOT_FOUND', 'The template was not found.');
    if (outcome.kind === 'published')
      await this.deps.audit.record(principal, 'template.published', {
        workspaceId: meta.workspaceId,
        target: templateId,
        details: { version: outcome.version.number, ...(input.note ? { note: input.note } : {}) },
      });
    return { version: view(outcome.version), created: outcome.kind === 'published' };
  }

  async list(
    principal: Principal,
    templateId: string,
    page: { limit: number; cursor?: string },
  ): Promise<ResultPage<TemplateVersionRecord>> {
    await this.deps.templates.renderMeta(principal, templateId);
    const position = page.cursor === undefined ? undefined : decodeCursor(page.cursor);
    if (position === null || (position && !/^[1-9]\d{0,6}$/.test(position.id)))
      throw new AppError('VALIDATION_FAILED', 'The cursor is not valid.', [
        { path: 'cursor', message: 'Invalid cursor' },
      ]);
    return this.deps.store.templateVersions.list(templateId, page);
  }

  async get(principal: Principal, templateId: string, pin: VersionPin): Promise<TemplateVersionView> {
    return view(await this.version(principal, templateId, pin));
  }

  /**
   * Makes the draft a copy of a version, as a save: `ifMatch` guards it like any save (412 when the
   * draft moved on), and its revision goes up by one.
   */
  async rollback(
    principal: Principal,
    templateId: string,
    pin: VersionPin,
    ifMatch?: string,
  ): Promise<TemplateView> {
    const version = await this.version(principal, templateId, pin);
    const saved = await this.deps.templates.save(principal, templateId, {
      document: version.document,
      ...(ifMatch !== undefined ? { ifMatch } : {}),
    });
    await this.deps.audit.record(principal, 'template.rolled_back', {
      workspaceId: version.workspaceId,
      target: templateId,
      details: { version: version.number, revision: saved.revision },
    });
    return saved;
  }

  /** What changed from one side to the other, element by element (pages and elements by id). */
  async diff(principal: Principal, templateId: string, from: DiffSide, to: DiffSide): Promise<TemplateDiff> {
    const [before, after] = await Promise.all([
      this.side(principal, templateId, from),
      this.side(principal, templateId, to),
    ]);
    const changes = diffDocuments(before.document, after.document);
    return {
      from: before.label,
      to: after.label,
      changes: changes.slice(0, MAX_CHANGES),
      truncated: changes.length > MAX_CHANGES,
    };
  }

  /**
   * A picture of what changed on one page: both sides rendered small (at most VISUAL_DIFF_BOX on
   * their longest side) through the render pool, the newer shown faded with changed pixels in
   * magenta (visual-diff.ts). Free: it draws no output anyone keeps.
   */
  async diffImage(
    principal: Principal,
    templateId: string,
    from: DiffSide,
    to: DiffSide,
    pageId?: string,
  ): Promise<{ png: Buffer; changedPixels: number; totalPixels: number }> {
    const [before, after] = await Promise.all([
      this.side(principal, templateId, from),
      this.side(principal, templateId, to),
    ]);
    const page = pageId ?? after.document.activePageId;
    const sides = [before, after].map(({ document, workspaceId }) => ({ document, workspaceId }));
    if (!sides.some(({ document }) => document.pages.some((p) => p.id === page)))
      throw new AppError('NOT_FOUND', `The page ${JSON.stringify(page)} is on neither side.`);
    const [beforePng, afterPng] = await Promise.all(
      sides.map(({ document, workspaceId }) => this.picture(principal, workspaceId, document, page)),
    );
    // A side without the page (added or removed since) is a blank pixel: the whole page shows changed.
    const diff = await visualDiff(beforePng ?? (await nothing()), afterPng ?? (await nothing()));
    return { png: diff.png, changedPixels: diff.changedPixels, totalPixels: diff.totalPixels };
  }

  /** One page drawn small, or null when the document has no such page (added or removed). */
  private async picture(
    principal: Principal,
    workspaceId: string,
    document: DesignDocument,
    pageId: string,
  ): Promise<Uint8Array | null> {
    const page = document.pages.find((p) => p.id === pageId);
    if (!page) return null;
    const tenancy = tenancyOf(principal);
    const visible = (asset: { ownerUserId: string | null; embedId: string | null }) =>
      ownsOrShared(tenancy, asset);
    const loaded = await this.deps.inputs.load(workspaceId, document, visible, {
      pageIds: [pageId],
      format: 'png',
    });
    const scale = Math.min(1, VISUAL_DIFF_BOX / Math.max(page.width, page.height, 1));
    const [file] = await this.deps.render({
      document,
      pageIds: [pageId],
      format: 'png',
      scale,
      workspaceId,
      assets: loaded.assets,
      fonts: loaded.fonts,
      allowPrivateUrls: this.deps.allowPrivateUrls,
    });
    if (!file) throw new AppError('RENDER_FAILED', 'The page produced no picture.');
    return file.bytes;
  }

  private async version(
    principal: Principal,
    templateId: string,
    pin: VersionPin,
  ): Promise<TemplateVersionWithDocument> {
    await this.deps.templates.renderMeta(principal, templateId);
    const number = await this.deps.templates.versionNumber(templateId, pin);
    const version = await this.deps.store.templateVersions.get(templateId, number);
    if (!version) throw new AppError('NOT_FOUND', `Version ${number} of this template was not found.`);
    return version;
  }

  private async side(
    principal: Principal,
    templateId: string,
    side: DiffSide,
  ): Promise<{ document: DesignDocument; workspaceId: string; label: TemplateDiff['from'] }> {
    if (side === 'draft') {
      const meta = await this.deps.templates.renderMeta(principal, templateId);
      // Such a principal is shown the latest version as if it were the draft: a diff against it
      // would mislabel one version as the draft, and the draft itself is not theirs to see.
      if (accessOf(principal).pinsPublished(meta))
        throw new AppError('FORBIDDEN', 'This embed shows published versions only; compare two versions.');
      const draft = await this.deps.templates.get(principal, templateId);
      const { workspaceId } = meta;
      return { document: draft.document, workspaceId, label: { version: null, revision: draft.revision } };
    }
    const version = await this.version(principal, templateId, side);
    return {
      document: version.document,
      workspaceId: version.workspaceId,
      label: { version: version.number, revision: version.draftRevision },
    };
  }
}

/** One transparent pixel: the picture of a page a side does not have. */
const nothing = () =>
  sharp({ create: { width: 1, height: 1, channels: 4, background: '#00000000' } })
    .png()
    .toBuffer();
