/** MCP tools for template versions (docs/versions.md): list them, publish the draft. */
import { z } from 'zod';
import { json, parsed, type ToolDefinition, templateId } from './tool-kit.ts';

const listArgs = {
  templateId,
  limit: z.number().int().min(1).max(100).default(20).describe('Versions per page (newest first)'),
  cursor: z.string().max(500).optional().describe('`nextCursor` of the previous page'),
};
const publishArgs = {
  templateId,
  note: z.string().trim().min(1).max(500).optional().describe('What changed, for the history'),
};

export const VERSION_TOOLS: ToolDefinition[] = [
  {
    name: 'list_versions',
    title: 'List template versions',
    description:
      "Lists a template's published versions, newest first. Render one with render_template's " +
      '`version` (a number, or "latest"); without it the draft renders.',
    scope: 'template:read',
    inputSchema: listArgs,
    call: async (principal, args, { templateVersions }) => {
      const { templateId: id, limit, cursor } = parsed(z.object(listArgs).strict(), args);
      return [json(await templateVersions.list(principal, id, { limit, ...(cursor ? { cursor } : {}) }))];
    },
  },
  {
    name: 'publish_template',
    title: 'Publish a template version',
    description:
      "Freezes the template's draft as its next numbered version, which renders can pin so later " +
      'edits do not change them. Publishing an unchanged draft returns the existing version ' +
      '(`created: false`). Free: no credits.',
    scope: 'template:write',
    inputSchema: publishArgs,
    call: async (principal, args, { templateVersions }) => {
      const { templateId: id, note } = parsed(z.object(publishArgs).strict(), args);
      const { version, created } = await templateVersions.publish(principal, id, note ? { note } : {});
      const { document: _document, ...record } = version;
      return [json({ ...record, created })];
    },
  },
];
