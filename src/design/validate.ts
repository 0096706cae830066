/**
 * The one entry point that turns untrusted JSON into a stored design document: migrate, check the
 * deployment limits that are cheap to check first, parse with the schema (filling defaults), then
 * the cross-field rules. Returns a result and never throws, whatever the input.
 */
import { formatIssuePath, type ValidationIssue } from '../core/errors.ts';
import { type DesignLimits, defaultDesignLimits, designBounds } from './bounds.ts';
import { capIssues, fromZodIssues } from './issues.ts';
import { migrateToCurrent } from './migrations.ts';
import { type DesignDocument, designDocumentSchema, type Page, SCHEMA_VERSION } from './schema.ts';

export type ParseResult = { ok: true; document: DesignDocument } | { ok: false; issues: ValidationIssue[] };

const issue = (path: ReadonlyArray<PropertyKey>, message: string): ValidationIssue => ({
  path: formatIssuePath(path),
  message,
});

/** Count limits, checked on the raw JSON so a huge array is refused before the schema walks it. */
function checkCounts(raw: unknown, limits: DesignLimits): ValidationIssue[] {
  if (typeof raw !== 'object' || raw === null) return [];
  const pages = (raw as { pages?: unknown }).pages;
  if (!Array.isArray(pages)) return [];
  if (pages.length > limits.maxPages) return [issue(['pages'], `at most ${limits.maxPages} pages`)];
  const issues: ValidationIssue[] = [];
  pages.forEach((page: unknown, index) => {
    const elements =
      typeof page === 'object' && page !== null ? (page as { elements?: unknown }).elements : null;
    if (Array.isArray(elements) && elements.length > limits.maxElementsPerPage) {
      issues.push(
        issue(['pages', index, 'elements'], `at most ${limits.maxElementsPerPage} elements a page`),
      );
    }
  });
  return issues;
}

function checkPageSizes(doc: DesignDocument, limits: DesignLimits): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  doc.pages.forEach((page, index) => {
    for (const side of ['width', 'height'] as const) {
      if (page[side] > limits.maxPageSide) {
        issues.push(issue(['pages', index, side], `must be at most ${limits.maxPageSide}`));
      }
    }
  });
  return issues;
}

/** All text together within designBounds.documentText, so every saved document can be rendered. */
function checkTextTotal(doc: DesignDocument): ValidationIssue[] {
  let total = 0;
  for (const [p, page] of doc.pages.entries()) {
    for (const [e, element] of page.elements.entries()) {
      if (element.type !== 'text') continue;
      total += element.text.length;
      if (total > designBounds.documentText) {
        return [
          issue(
            ['pages', p, 'elements', e, 'text'],
            `takes the document's text over ${designBounds.documentText} characters`,
          ),
        ];
      }
    }
  }
  return [];
}

function checkIds(doc: DesignDocument): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const pageIds = new Map<string, string>();
  const elementIds = new Map<string, string>();
  doc.pages.forEach((page, p) => {
    const pagePath = formatIssuePath(['pages', p, 'id']);
    const firstPage = pageIds.get(page.id);
    if (firstPage)
      issues.push({ path: pagePath, message: `duplicate page id "${page.id}" (also ${firstPage})` });
    else pageIds.set(page.id, pagePath);
    page.elements.forEach((element, e) => {
      const path = formatIssuePath(['pages', p, 'elements', e, 'id']);
      const first = elementIds.get(element.id);
      if (first) issues.push({ path, message: `duplicate element id "${element.id}" (also ${first})` });
      else elementIds.set(element.id, path);
    });
  });
  if (!pageIds.has(doc.activePageId)) {
    issues.push(issue(['activePageId'], `names no page of this document ("${doc.activePageId}")`));
  }
  return issues;
}

function parse(input: unknown, limits: DesignLimits): ParseResult {
  const migrated = migrateToCurrent(input);
  if (!migrated.ok) return migrated;
  const countIssues = checkCounts(migrated.value, limits);
  if (countIssues.length > 0) return { ok: false, issues: capIssues(countIssues) };
  const parsed = designDocumentSchema.safeParse(migrated.value);
  if (!parsed.success) return { ok: false, issues: fromZodIssues(parsed.error.issues) };
  const issues = [
    ...checkIds(parsed.data),
    ...checkPageSizes(parsed.data, limits),
    ...checkTextTotal(parsed.data),
  ];
  if (issues.length > 0) return { ok: false, issues: capIssues(issues) };
  return { ok: true, document: parsed.data };
}

/** Defaults for every limit not given (an explicit `undefined` also means the default). */
export function resolveLimits(limits: Partial<DesignLimits> = {}): DesignLimits {
  return {
    maxPages: limits.maxPages ?? defaultDesignLimits.maxPages,
    maxElementsPerPage: limits.maxElementsPerPage ?? defaultDesignLimits.maxElementsPerPage,
    maxPageSide: limits.maxPageSide ?? defaultDesignLimits.maxPageSide,
  };
}

/**
 * Validates and normalises a design document. The result's `document` has every default filled
 * and `activePageId` set; parsing it again yields an equal document.
 */
export function parseDesignDocument(input: unknown, limits: Partial<DesignLimits> = {}): ParseResult {
  try {
    return parse(input, resolveLimits(limits));
  } catch {
    // Only exotic inputs get here (a getter or proxy that throws); JSON never does.
    return { ok: false, issues: [{ path: '(root)', message: 'could not be read as a design document' }] };
  }
}

/** A new document with one empty white page `page1`. The caller validates the size. */
export function createBlankDocument(width: number, height: number): DesignDocument {
  return {
    schemaVersion: SCHEMA_VERSION,
    activePageId: 'page1',
    variables: {},
    pages: [{ id: 'page1', name: 'Page 1', width, height, background: '#ffffff', elements: [] }],
  };
}

export function findPage(doc: DesignDocument, pageId: string): Page | undefined {
  return doc.pages.find((page) => page.id === pageId);
}

/** Size of the active page (the first page if the active one is missing) and the page count. */
export function documentSummary(doc: DesignDocument): { width: number; height: number; pageCount: number } {
  const page = findPage(doc, doc.activePageId) ?? doc.pages[0];
  return { width: page?.width ?? 0, height: page?.height ?? 0, pageCount: doc.pages.length };
}
