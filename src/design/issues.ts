/**
 * Turns zod issues into the service's `{path, message}` validation issues: one issue per unknown
 * key with the key in its path, a readable message for an unknown element type, and a cap on the
 * count so a hostile document cannot make a megabyte of error response.
 */
import type { z } from 'zod';
import { formatIssuePath, type ValidationIssue } from '../core/errors.ts';

export const MAX_ISSUES = 100;

function describe(issue: z.core.$ZodIssue, prefix: readonly PropertyKey[]): ValidationIssue[] {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({ path: formatIssuePath([...path, key]), message: 'unknown key' }));
  }
  if (issue.code === 'invalid_union' && 'discriminator' in issue && 'options' in issue) {
    const options = Array.isArray(issue.options) ? issue.options.map(String).join(', ') : '';
    return [{ path: formatIssuePath(path), message: `must be one of: ${options}` }];
  }
  return [{ path: formatIssuePath(path), message: issue.message }];
}

/** Keeps the first MAX_ISSUES issues and says how many more there were. */
export function capIssues(issues: ValidationIssue[]): ValidationIssue[] {
  if (issues.length <= MAX_ISSUES) return issues;
  const kept = issues.slice(0, MAX_ISSUES);
  kept.push({ path: '(root)', message: `${issues.length - MAX_ISSUES} more issues not shown` });
  return kept;
}

export function fromZodIssues(
  issues: readonly z.core.$ZodIssue[],
  prefix: readonly PropertyKey[] = [],
): ValidationIssue[] {
  return capIssues(issues.flatMap((issue) => describe(issue, prefix)));
}
