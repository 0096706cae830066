/**
 * A batch's rows from CSV (RFC 4180, via csv-parse): the header names the variables, each following
 * line is a row. Refused as a whole (400, nothing charged) when a line is malformed (an unclosed
 * quote, a different number of fields than the header), when a column is no variable of the
 * template, or when there are too many rows.
 */
import { CsvError, parse } from 'csv-parse/sync';
import { validationFailed } from '../core/errors.ts';

export const MAX_CSV_BYTES = 2 * 1024 * 1024;

export function rowsFromCsv(
  text: string,
  knownNames: ReadonlySet<string>,
  maxRows: number,
): Array<Record<string, string>> {
  let records: string[][];
  try {
    records = parse(text.replace(/^\uFEFF/, ''), {
      skip_empty_lines: true,
      relax_column_count: false,
      to_line: maxRows + 2,
    });
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const line = (error as CsvError & { lines?: number }).lines;
    throw validationFailed(
      [{ path: line ? `line ${line}` : 'csv', message: error.message }],
      'The CSV is malformed.',
    );
  }
  const [header, ...rows] = records;
  if (!header || header.length === 0)
    throw validationFailed([{ path: 'csv', message: 'a header line naming the variables is required' }]);
  const names = header.map((name) => name.trim());
  const unknown = names.filter((name) => !knownNames.has(name));
  if (unknown.length > 0)
    throw validationFailed(
      unknown.map((name) => ({
        path: `column ${JSON.stringify(name)}`,
        message: 'is no variable of the template',
      })),
      'The CSV names columns the template does not have.',
    );
  if (new Set(names).size !== names.length)
    throw validationFailed([{ path: 'csv', message: 'a column is named twice' }]);
  if (rows.length > maxRows) throw validationFailed([{ path: 'csv', message: `at most ${maxRows} rows` }]);
  return rows.map((fields) => Object.fromEntries(names.map((name, i) => [name, fields[i] ?? ''])));
}
