/**
 * The design document as `tools/list` shows it to an agent (create_template, update_template): the
 * document's own zod schema, so the JSON Schema names every element type, field and bound (nested
 * groups through a `$ref`), with a description of the essentials and the version 2 example. It is
 * only shown: arguments are still checked by the template service's parseDesignDocument, whose
 * errors carry exact paths (`document.pages[0].elements[2].fill`).
 */
import { z } from 'zod';
import { designDocumentInputSchema } from '../design/index.ts';
import { designDocumentExample } from '../templates/document-example.ts';

const DESCRIPTION =
  'A Platen design document (docs/design-document.md). Units are pixels at scale 1, the origin is ' +
  'the top-left corner, and elements draw in array order (later on top). Element types: text ' +
  '(`text`, or rich-text `spans` that inherit what they omit from the element), image (`src`: ' +
  '`asset:<id>` from list_assets, an https URL or a data:image URI; `crop`, `filters`), rect, ' +
  'ellipse, line, svg, qr, barcode (`format`, `value`) and group (`elements` placed relative to ' +
  "the group's box, up to 8 deep). Rect/ellipse `fill`, text `color` and page `background` take a " +
  "colour or a gradient ({type: 'linear', angle, stops} or {type: 'radial', stops}). Every element " +
  'takes rotation, opacity, shadow, blur, flipX and flipY. To vary a render, write `{{variable}}` ' +
  'placeholders in text and name elements: render modifications then set a name (its text, src, ' +
  'fill or value) and `name.visible`, `name.color` or `name.fill`.';

/** Version 1 documents are accepted too (a stored one comes back from get_template as it was). */
const schemaVersion = z
  .union([z.literal(1), z.literal(2)])
  .optional()
  .describe('Write 2. Version 1 (also when absent) is accepted and migrated with no visible change.');

export const designDocumentToolSchema = designDocumentInputSchema
  .extend({ schemaVersion })
  .describe(DESCRIPTION)
  .meta({ examples: [designDocumentExample] });
