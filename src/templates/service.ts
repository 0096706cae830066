/**
 * Template operations shared by the machine API, the embed routes and the MCP tools: document
 * validation, workspace checks and revision preconditions live here once.
 */
import { assertSameWorkspace, type Principal } from '../auth/principal.ts';
import { AppError, type ValidationIssue } from '../core/errors.ts';
import { isIdOf } from '../core/ids.ts';
import { createBlankDocument, type DesignDocument, parseDesignDocument } from '../design/index.ts';
import type { Store } from '../store/index.ts';
import type { TemplateRecord, TemplateRenderMeta, TemplateWithDocument } from '../store/templates.ts';

export type TemplateResponse = TemplateRecord & { document: DesignDocument };

export function toResponse(template: TemplateWithDocument): TemplateResponse {
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

export function documentFromCreate(body: {
  document?: unknown;
  width?: number;
  height?: number;
}): DesignDocument {
  if (body.document !== undefined) return validateDocument(body.document);
  return createBlankDocument(body.width ?? 1080, body.height ?? 1080);
}

/** 404 when absent (or the id is malformed), 403 when another workspace's; else the row. */
async function ownedBy<T extends { workspaceId: string }>(
  principal: Principal,
  id: string,
  read: (id: string) => Promise<T | null>,
): Promise<T> {
  const row = isIdOf('template', id) ? await read(id) : null;
  if (!row) throw new AppError('NOT_FOUND', 'The template was not found.');
  assertSameWorkspace(principal, row.workspaceId);
  return row;
}

/** The template with its document, if it is the principal's. */
export function loadTemplate(store: Store, principal: Principal, id: string): Promise<TemplateWithDocument> {
  return ownedBy(principal, id, (templateId) => store.templates.get(templateId));
}

/** What rendering needs to know first (no document), under the same checks as `loadTemplate`. */
export function loadTemplateRenderMeta(
  store: Store,
  principal: Principal,
  id: string,
): Promise<TemplateRenderMeta> {
  return ownedBy(principal, id, (templateId) => store.templates.renderMeta(templateId));
}

/** `If-Match: "3"`, `3` or `W/"3"` → 3; `*` or absent → undefined. */
export function parseIfMatch(header: string | undefined): number | undefined {
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
