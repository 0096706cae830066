/**
 * The examples of docs/design-document.md (docs/design-document/*.json) are valid, shown unchanged,
 * and pictured: every document parses with the service's own parser, every modifications file
 * applies to its document, the page shows each file verbatim in its marked block, every picture the
 * page names exists, and the version 2 example equals the one the OpenAPI document and the MCP tools
 * show (src/templates/document-example.ts), which the MCP tools' JSON Schema accepts. `node --import tsx scripts/design-doc-pictures.ts`
 * refreshes the page's blocks and the pictures.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import {
  DOC_PATH,
  EXAMPLES_DIR,
  exampleFiles,
  listExamples,
  shownExamples,
} from '../scripts/design-doc-examples.ts';
import { applyModifications, modificationsSchema, parseDesignDocument } from '../src/design/index.ts';
import { inputJsonSchema } from '../src/mcp/server.ts';
import { toolByName } from '../src/mcp/tools.ts';
import { designDocumentExample } from '../src/templates/document-example.ts';

const read = (file: string): string => readFileSync(file, 'utf8');
const markdown = read(DOC_PATH);
const examples = listExamples();

describe('the design document page examples', () => {
  it('has the examples the page needs', () => {
    expect(examples.map((example) => example.name)).toEqual(
      expect.arrayContaining([
        'barcodes',
        'effects',
        'example',
        'example-v1',
        'gradients',
        'groups',
        'image-crop-filters',
        'modifications',
        'rich-text',
        'text-stroke-highlight',
      ]),
    );
  });

  it.each(examples.map((example) => [example.name, example] as const))(
    '%s is a valid document, and its modifications apply',
    (name, example) => {
      const raw = JSON.parse(read(example.documentFile));
      // Only the version 1 example shows the older form.
      expect(raw.schemaVersion).toBe(name === 'example-v1' ? 1 : 2);
      const parsed = parseDesignDocument(raw);
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
      if (!example.modificationsFile) return;
      const modifications = modificationsSchema.parse(JSON.parse(read(example.modificationsFile)));
      const applied = applyModifications(parsed.document, modifications);
      if (!applied.ok) throw new Error(JSON.stringify(applied.issues));
    },
  );

  it('shows every file verbatim in its marked block, and marks no file that is missing', () => {
    const files = exampleFiles();
    const shown = shownExamples(markdown);
    expect([...shown.keys()].sort()).toEqual([...files.keys()].sort());
    for (const [name, file] of files) expect(shown.get(name), name).toBe(read(file));
  });

  it('pictures every example, and every picture it names exists', () => {
    const pictures = [...markdown.matchAll(/!\[[^\]]*\]\((design-document\/[^)]+\.png)\)/g)].map(
      (match) => match[1] ?? '',
    );
    for (const example of examples) {
      expect(pictures).toContain(`design-document/${example.name}.png`);
      if (example.modificationsFile)
        expect(pictures).toContain(`design-document/${example.name}.modified.png`);
    }
    for (const picture of pictures) expect(existsSync(join(EXAMPLES_DIR, '..', picture)), picture).toBe(true);
  });

  it('shows the same version 2 example as the API reference and the MCP tools', () => {
    expect(JSON.parse(read(join(EXAMPLES_DIR, 'example.json')))).toEqual(designDocumentExample);
  });

  it.each(['create_template', 'update_template'])(
    'MCP %s shows a document schema that every example satisfies, with the example',
    (name) => {
      const tool = toolByName.get(name);
      if (!tool) throw new Error(`no tool ${name}`);
      const schema = inputJsonSchema(tool);
      const validate = new Ajv2020({ strict: false }).compile(schema);
      const argsWith = (document: unknown) =>
        name === 'create_template' ? { name: 'Example', document } : { templateId: 'tpl_1', document };
      for (const example of examples) {
        const document = JSON.parse(read(example.documentFile));
        expect(validate(argsWith(document)) || validate.errors, example.name).toBe(true);
      }
      // It describes, it is no blank cheque: an element type the format lacks is refused, in a group too.
      const star = { id: 's', type: 'star', x: 0, y: 0, width: 1, height: 1 };
      const group = { ...star, id: 'g', type: 'group', elements: [star] };
      const page = { id: 'p', width: 10, height: 10, elements: [group] };
      expect(validate(argsWith({ schemaVersion: 2, pages: [page] }))).toBe(false);
      const shown = (schema.properties as Record<string, { examples?: unknown[] }>).document;
      expect(shown?.examples).toEqual([designDocumentExample]);
    },
  );
});
