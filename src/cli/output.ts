/**
 * How the commands that call a server talk (templates, admin): what was done or would be done goes to stdout, problems to
 * stderr, every message on one line (an API error as its code and message, never a stack trace).
 */
import { PlatenError } from '@platen/client';

export interface Output {
  /** A change made or planned, or the summary. */
  line(text: string): void;
  /** A warning or a failure. */
  problem(text: string): void;
}

/**
 * A line as the terminal should show it: control characters (a template name or a value may carry
 * ANSI escape sequences, put there by anyone who can edit the workspace) are shown escaped, never
 * interpreted.
 */
export function printable(text: string): string {
  return text.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
    /[\u0000-\u001f\u007f-\u009f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export const processOutput: Output = {
  line: (text) => process.stdout.write(`${printable(text)}\n`),
  problem: (text) => process.stderr.write(`${printable(text)}\n`),
};

/** `document.pages[0].width: must be at most 10000 (and 2 more)` from a VALIDATION_FAILED's details. */
function firstIssue(details: unknown): string | null {
  if (!Array.isArray(details) || details.length === 0) return null;
  const [first] = details as Array<{ path?: unknown; message?: unknown }>;
  if (typeof first?.message !== 'string') return null;
  const more = details.length > 1 ? ` (and ${details.length - 1} more)` : '';
  return `${typeof first.path === 'string' ? `${first.path}: ` : ''}${first.message}${more}`;
}

export function oneLine(error: unknown): string {
  let text: string;
  if (error instanceof PlatenError) {
    const issue = firstIssue(error.details);
    text = `${error.code}: ${error.message}${issue ? ` ${issue}` : ''}`;
  } else text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s*\n\s*/g, ' ');
}

/** `1 template`, `2 templates`. */
export const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;
