/**
 * The examples of docs/design-document.md: one JSON file per example under docs/design-document/.
 * `<name>.json` is a design document; `<name>.modifications.json`, when present, is a render's
 * `modifications` for it. The page shows each file verbatim in the ```json block that follows its
 * marker `<!-- example: <file name without .json> -->`, so the files are the only copy:
 * scripts/design-doc-pictures.ts copies them into the page and draws their pictures, and
 * test/design-document-examples.test.ts checks every file parses and the page shows it unchanged.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DOC_PATH = join(ROOT, 'docs', 'design-document.md');
export const EXAMPLES_DIR = join(ROOT, 'docs', 'design-document');

const MODIFICATIONS_SUFFIX = '.modifications.json';

export interface DocExample {
  /** The file name without `.json`: the picture is `<name>.png`. */
  name: string;
  documentFile: string;
  /** `<name>.modifications.json`, when the example also shows a render with modifications. */
  modificationsFile: string | null;
}

/** Every example, sorted by name. */
export function listExamples(): DocExample[] {
  const files = readdirSync(EXAMPLES_DIR).filter((file) => file.endsWith('.json'));
  return files
    .filter((file) => !file.endsWith(MODIFICATIONS_SUFFIX))
    .sort()
    .map((file) => {
      const name = file.slice(0, -'.json'.length);
      const modifications = `${name}${MODIFICATIONS_SUFFIX}`;
      return {
        name,
        documentFile: join(EXAMPLES_DIR, file),
        modificationsFile: files.includes(modifications) ? join(EXAMPLES_DIR, modifications) : null,
      };
    });
}

/** Every JSON file the page shows: documents and modifications, by marker name. */
export function exampleFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const example of listExamples()) {
    files.set(example.name, example.documentFile);
    if (example.modificationsFile) files.set(`${example.name}.modifications`, example.modificationsFile);
  }
  return files;
}

const MARKED_BLOCK = /(<!-- example: ([\w.-]+) -->\n+```json\n)([\s\S]*?)(```)/g;

/** The page's example blocks: marker name → the JSON text shown. */
export function shownExamples(markdown: string): Map<string, string> {
  return new Map([...markdown.matchAll(MARKED_BLOCK)].map((match) => [match[2] ?? '', match[3] ?? '']));
}

/** The page with every marked block replaced by its file's text; unknown markers are an error. */
export function withExamples(markdown: string, files: Map<string, string>): string {
  return markdown.replace(MARKED_BLOCK, (_all, open: string, name: string, _old: string, close: string) => {
    const file = files.get(name);
    if (!file) throw new Error(`docs/design-document.md marks an example "${name}" that has no file`);
    return `${open}${readFileSync(file, 'utf8')}${close}`;
  });
}
