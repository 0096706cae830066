/**
 * A batch's rows from CSV (RFC 4180, via csv-parse): the header names the variables, each following
 * line is a row. Refused as a whole (400, nothing charged) when a line is malformed (an unclosed
 * quote, a different number of fields than the header), when the header has more than
 * MAX_CSV_COLUMNS columns or names one twice, when a column is no variable of the template, or when
 * there are too many rows.
 *
 * Bounded work and answers whatever the body holds: the field counts are checked by a linear scan
 * that stops at the first record with too many fields, before csv-parse builds anything, and at most
 * MAX_CSV_ISSUES issues are reported, each naming at most NAME_SHOWN characters of a column.
 */
import { CsvError, parse } from 'csv-parse/sync';
import { type ValidationIssue, validationFailed } from '../core/errors.ts';

export const MAX_CSV_BYTES = 2 * 1024 * 1024;
/** Columns a CSV header may have (a template has far fewer variables). */
export const MAX_CSV_COLUMNS = 256;
/** Issues a refused CSV reports at most (the last says how many more there were). */
export const MAX_CSV_ISSUES = 20;
/** Characters of a column name or parser message an issue repeats at most. */
const NAME_SHOWN = 100;

const clip = (text: string): string => (text.length > NAME_SHOWN ? `${text.slice(0, NAME_SHOWN)}…` : text);

/** At most MAX_CSV_ISSUES issues: the first ones, and one saying how many were left out. */
function bounded(issues: ValidationIssue[]): ValidationIssue[] {
  if (issues.length <= MAX_CSV_ISSUES) return issues;
  const shown = issues.slice(0, MAX_CSV_ISSUES - 1);
  return [...shown, { path: 'csv', message: `and ${issues.length - shown.length} more like these` }];
}

/**
 * The first record with too many fields: the header beyond `maxColumns`, or a row beyond the
 * header's count; null when there is none. One pass over the text, stopping there, so a header of
 * a million columns costs what its first 257 cost. Quotes as RFC 4180 (a field that starts with `"`
 * runs to the `"` not followed by another; CR, LF or CRLF end a record outside quotes); empty
 * records are skipped, as csv-parse's `skip_empty_lines`. Whatever else is wrong is csv-parse's to
 * report.
 */
function overlongRecord(
  text: string,
  maxColumns: number,
): { header: true; columns: number } | { header: false; line: number; expected: number } | null {
  let limit = maxColumns;
  let isHeader = true;
  let fields = 1;
  let empty = true;
  let line = 1;
  let recordLine = 1;
  let atFieldStart = true;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (atFieldStart && c === 0x22 /* " */) {
      empty = false;
      atFieldStart = false;
      i++;
      while (i < n) {
        const q = text.charCodeAt(i);
        if (q === 0x22) {
          if (text.charCodeAt(i + 1) === 0x22) i += 2;
          else break;
        } else {
          if (q === 0x0a || (q === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) line++;
          i++;
        }
      }
      i++;
      continue;
    }
    if (c === 0x2c /* , */) {
      empty = false;
      atFieldStart = true;
      if (++fields > limit)
        return isHeader
          ? { header: true, columns: fields }
          : { header: false, line: recordLine, expected: limit };
      i++;
      continue;
    }
    if (c === 0x0a || c === 0x0d) {
      if (c === 0x0d && text.charCodeAt(i + 1) === 0x0a) i++;
      i++;
      line++;
      if (!empty) {
        if (isHeader) limit = fields;
        isHeader = false;
      }
      fields = 1;
      empty = true;
      atFieldStart = true;
      recordLine = line;
      continue;
    }
    empty = false;
    atFieldStart = false;
    i++;
  }
  return null;
}

export function rowsFromCsv(
  text: string,
  knownNames: ReadonlySet<string>,
  maxRows: number,
): Array<Record<string, string>> {
  const body = text.replace(/^\uFEFF/, '');
  const overlong = overlongRecord(body, MAX_CSV_COLUMNS);
  if (overlong?.header)
    throw validationFailed(
      [{ path: 'csv', message: `the header has more than ${MAX_CSV_COLUMNS} columns` }],
      `A CSV header may have at most ${MAX_CSV_COLUMNS} columns.`,
    );
  if (overlong)
    throw validationFailed(
      [{ path: `line ${overlong.line}`, message: `more fields than the header's ${overlong.expected}` }],
      'The CSV is malformed.',
    );
  let records: string[][];
  try {
    records = parse(body, {
      skip_empty_lines: true,
      relax_column_count: false,
      to_line: maxRows + 2,
    });
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const line = (error as CsvError & { lines?: number }).lines;
    throw validationFailed(
      [{ path: line ? `line ${line}` : 'csv', message: clip(error.message) }],
      'The CSV is malformed.',
    );
  }
  const [header, ...rows] = records;
  if (!header || header.length === 0)
    throw validationFailed([{ path: 'csv', message: 'a header line naming the variables is required' }]);
  const names = header.map((name) => name.trim());
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const name of names) (seen.has(name) ? twice : seen).add(name);
  if (twice.size > 0)
    throw validationFailed(
      bounded(
        [...twice].map((name) => ({
          path: `column ${JSON.stringify(clip(name))}`,
          message: 'is named twice',
        })),
      ),
      'The CSV names a column twice.',
    );
  const unknown = names.filter((name) => !knownNames.has(name));
  if (unknown.length > 0)
    throw validationFailed(
      bounded(
        unknown.map((name) => ({
          path: `column ${JSON.stringify(clip(name))}`,
          message: 'is no variable of the template',
        })),
      ),
      'The CSV names columns the template does not have.',
    );
  if (rows.length > maxRows) throw validationFailed([{ path: 'csv', message: `at most ${maxRows} rows` }]);
  return rows.map((fields) => Object.fromEntries(names.map((name, i) => [name, fields[i] ?? ''])));
}
