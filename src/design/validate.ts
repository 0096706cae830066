/**
 * The one entry point that turns untrusted JSON into a stored design document: migrate, check the
 * deployment limits that are cheap to check first, parse with the schema (filling defaults), then
 * the cross-field rules. Returns a result and never throws, whatever the input.
 */
import { formatIssuePath, type ValidationIssue } from '../core/errors.ts';
import { type DesignLimits, defaultDesignLimits, designBounds } from './bounds.ts';
import type { TextElement } from './elements.ts';
import { capIssues, fromZodIssues } from './issues.ts';
import { migrateToCurrent } from './migrations.ts';
import { DEFAULT_PAGE_DURATION_MS, motionBounds } from './motion.ts';
import { type DesignDocument, designDocumentSchema, type Page, SCHEMA_VERSION } from './schema.ts';
import { walkElements } from './tree.ts';

export type ParseResult = { ok: true; document: DesignDocument } | { ok: false; issues: ValidationIssue[] };

const issue = (path: ReadonlyArray<PropertyKey>, message: string): ValidationIssue => ({
  path: formatIssuePath(path),
  message,
});

const asArray = (value: unknown, key: string): unknown[] | null => {
  if (typeof value !== 'object' || value === null) return null;
  const field = (value as Record<string, unknown>)[key];
  return Array.isArray(field) ? field : null;
};

/**
 * One page's elements on the raw JSON, iteratively (a hostile document may nest groups thousands
 * deep): every element counts against the page's limit wherever it sits, a group deeper than
 * designBounds.groupDepth is refused at its path, and spans are counted. Stops at the first issue.
 */
function checkPageTree(
  page: unknown,
  pageIndex: number,
  limits: DesignLimits,
  spans: { total: number; keyframes: number },
): ValidationIssue | null {
  const root = asArray(page, 'elements');
  if (!root) return null;
  const stack: { list: unknown[]; path: PropertyKey[]; depth: number }[] = [
    { list: root, path: ['pages', pageIndex, 'elements'], depth: 0 },
  ];
  let count = 0;
  while (stack.length > 0) {
    const { list, path, depth } = stack.pop() as (typeof stack)[number];
    count += list.length;
    if (count > limits.maxElementsPerPage)
      return issue(path, `at most ${limits.maxElementsPerPage} elements a page, nested ones included`);
    list.forEach((element, index) => {
      const elementSpans = asArray(element, 'spans');
      if (elementSpans) spans.total += Math.min(elementSpans.length, designBounds.spansPerElement + 1);
      const keyframes = asArray(element, 'keyframes');
      if (keyframes) spans.keyframes += Math.min(keyframes.length, motionBounds.keyframesPerElement + 1);
      const children = asArray(element, 'elements');
      if (children) stack.push({ list: children, path: [...path, index, 'elements'], depth: depth + 1 });
    });
    if (spans.total > designBounds.documentSpans)
      return issue(path, `at most ${designBounds.documentSpans} text spans in a document`);
    if (spans.keyframes > motionBounds.documentKeyframes)
      return issue(path, `at most ${motionBounds.documentKeyframes} keyframes in a document`);
    if (depth > designBounds.groupDepth)
      return issue(path, `groups nest at most ${designBounds.groupDepth} deep`);
  }
  return null;
}

/** Count and depth limits, checked on the raw JSON so a huge array is refused before the schema walks it. */
function checkCounts(raw: unknown, limits: DesignLimits): ValidationIssue[] {
  const pages = asArray(raw, 'pages');
  if (!pages) return [];
  if (pages.length > limits.maxPages) return [issue(['pages'], `at most ${limits.maxPages} pages`)];
  const issues: ValidationIssue[] = [];
  const spans = { total: 0, keyframes: 0 };
  pages.forEach((page: unknown, index) => {
    const found = checkPageTree(page, index, limits, spans);
    if (found) issues.push(found);
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

/** Characters of a text element: its text or its spans together. */
export function textLength(element: TextElement): number {
  return element.spans ? element.spans.reduce((sum, span) => sum + span.text.length, 0) : element.text.length;
}

/** All text together within designBounds.documentText, so every saved document can be rendered. */
function checkTextTotal(doc: DesignDocument): ValidationIssue[] {
  let total = 0;
  for (const [p, page] of doc.pages.entries()) {
    for (const { element, path } of walkElements(page.elements)) {
      if (element.type !== 'text') continue;
      const length = textLength(element);
      if (element.spans && length > designBounds.textLength)
        return [
          issue(
            ['pages', p, ...path, 'spans'],
            `hold ${length} characters; the limit is ${designBounds.textLength}`,
          ),
        ];
      total += length;
      if (total > designBounds.documentText) {
        return [
          issue(
            ['pages', p, ...path, element.spans ? 'spans' : 'text'],
            `takes the document's text over ${designBounds.documentText} characters`,
          ),
        ];
      }
    }
  }
  return [];
}

/**
 * Motion's cross-field rules: `typewriter` reveals text only, and a transition fits inside both
 * scenes it joins (it overlaps them).
 */
function checkMotion(doc: DesignDocument): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  doc.pages.forEach((page, p) => {
    for (const { element, path } of walkElements(page.elements)) {
      (element.animations ?? []).forEach((animation, a) => {
        if (animation.preset === 'typewriter' && element.type !== 'text')
          issues.push(
            issue(['pages', p, ...path, 'animations', a, 'preset'], 'typewriter animates text elements only'),
          );
      });
    }
    const next = doc.pages[p + 1];
    if (page.transition && next) {
      const longest = Math.min(
        page.durationMs ?? DEFAULT_PAGE_DURATION_MS,
        next.durationMs ?? DEFAULT_PAGE_DURATION_MS,
      );
      if (page.transition.durationMs > longest)
        issues.push(
          issue(
            ['pages', p, 'transition', 'durationMs'],
            `must be at most ${longest}, the shorter of the two scenes it joins`,
          ),
        );
    }
  });
  return issues;
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
    for (const { element, path: at } of walkElements(page.elements)) {
      const path = formatIssuePath(['pages', p, ...at, 'id']);
      const first = elementIds.get(element.id);
      if (first) issues.push({ path, message: `duplicate element id "${element.id}" (also ${first})` });
      else elementIds.set(element.id, path);
    }
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
    ...checkMotion(parsed.data),
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
