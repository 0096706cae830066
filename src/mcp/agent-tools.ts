/**
 * Tools that let an agent plan before it spends (docs/mcp.md): what a template takes, what renders
 * would cost, and a signed URL to hand on. Each calls the service its API route calls.
 */
import { z } from 'zod';
import { fromUrlBody } from '../assets/index.ts';
import { preflightRequestSchema } from '../preflight/index.ts';
import { signRequestSchema } from '../render-urls/index.ts';
import { estimateRequestSchema, previewRequestSchema, versionPinSchema } from '../renders/index.ts';
import { takeRateToken } from './render-tools.ts';
import { json, parsed, type ToolDefinition, templateId } from './tool-kit.ts';

const variablesArgs = { templateId, version: versionPinSchema.optional() };
const estimateArgs = z.object({ templateId }).extend(estimateRequestSchema.shape).strict();
const previewArgs = z.object({ templateId }).extend(previewRequestSchema.shape).strict();
const preflightArgs = z.object({ templateId }).extend(preflightRequestSchema.shape).strict();
const signArgs = z.object({ templateId }).extend(signRequestSchema.shape).strict();

export const AGENT_TOOLS: ToolDefinition[] = [
  {
    name: 'get_template_variables',
    title: 'Get the variables of a template',
    description:
      'Every `modifications` key the template takes, with its kind (text, image, color, visibility), ' +
      'its default, and the boxes it fills: size, and for text the font size and auto-fit limits ' +
      '(`minFontSize`, `maxLines`), so a value can be chosen to fit. Free.',
    scope: 'template:read',
    inputSchema: variablesArgs,
    call: async (principal, args, { templates }) => {
      const { templateId: id, version } = parsed(z.object(variablesArgs).strict(), args);
      return [json(await templates.variables(principal, id, version))];
    },
  },
  {
    name: 'preview_template',
    title: 'Preview a template',
    description:
      'A free preview of one page with `modifications` applied: at most 512 px on its longest side, ' +
      'watermarked PREVIEW, returned as an image. Costs no credit and stores nothing; it counts ' +
      'against the render rate limit. Use it to check values before render_template, which costs ' +
      'one credit per file.',
    scope: 'template:read',
    inputSchema: previewArgs.shape,
    call: async (principal, args, services) => {
      const { templateId: id, ...input } = parsed(previewArgs, args);
      await takeRateToken(principal, services);
      const preview = await services.renders.preview(principal, id, input);
      return [
        json({ width: preview.width, height: preview.height, watermarked: true, credits: 0 }),
        { type: 'image', data: preview.bytes.toString('base64'), mimeType: preview.mimeType },
      ];
    },
  },
  {
    name: 'preflight_template',
    title: 'Preflight a template',
    description:
      'What a render would get wrong, before paying for it: characters no font covers (per script), ' +
      'text that overflows its box or that auto-fit would shrink below `minFontSize`, text cut by ' +
      '`maxLines`, images too small for the format (150 dpi for PDF), text contrast below WCAG AA, ' +
      'images that fail to load, elements beyond the page. Each finding names the element, a ' +
      'severity (error, warning, info) and a message. With `modifications`, or up to 1,000 sample ' +
      '`rows` (rowsWithErrors lists the rows a batch with `preflight: true` would refuse). Free; it ' +
      'counts against the render rate limit.',
    scope: 'template:read',
    inputSchema: preflightArgs.shape,
    call: async (principal, args, services) => {
      const { templateId: id, ...body } = parsed(preflightArgs, args);
      await takeRateToken(principal, services);
      return [json(await services.preflight.preflight(principal, id, parsed(preflightRequestSchema, body)))];
    },
  },
  {
    name: 'estimate_credits',
    title: 'Estimate the credits of renders',
    description:
      'What render_template (with `modifications`) or render_batch (with `rows`) would cost now, ' +
      'charging nothing: one credit per file; PNG or JPEG with `allPages` is a file per page, a PDF or ' +
      'a video one file; a render identical to one already done, or to an earlier row, is free. ' +
      'Answers files, credits, the balance and whether it pays.',
    scope: 'template:read',
    inputSchema: estimateArgs.shape,
    call: async (principal, args, { renders }) => {
      const { templateId: id, ...body } = parsed(estimateArgs, args);
      const { rows, modifications, ...request } = parsed(estimateRequestSchema, body);
      return [json(await renders.estimate(principal, id, request, rows ?? [modifications ?? {}]))];
    },
  },
  {
    name: 'sign_render_url',
    title: 'Sign a render URL',
    description:
      "A GET URL that renders the template with these variables, signed with the workspace's " +
      'URL-signing secret, for an email, a web page or an Open Graph tag. Signing is free; the first ' +
      'fetch of the URL costs one credit and the same URL again is free. Anyone holding it can render ' +
      'it: set `expiresInSeconds` when it should not live forever. Audited.',
    scope: 'render:write',
    inputSchema: signArgs.shape,
    call: async (principal, args, { renderUrls }) => {
      const { templateId: id, ...input } = parsed(signArgs, args);
      return [json(await renderUrls.sign(principal, id, input))];
    },
  },
  {
    name: 'upload_asset_from_url',
    title: 'Upload an asset from a URL',
    description:
      'Stores the image, font, video or audio file at a public https URL as an asset of the workspace; ' +
      'use the answered id in a template or a render as `asset:<id>`. The service fetches it itself, ' +
      'never from a private or loopback address, at most the upload size. Free: no credits.',
    scope: 'asset:write',
    inputSchema: fromUrlBody.shape,
    call: async (principal, args, { assets }) => {
      const { url, family } = parsed(fromUrlBody, args);
      return [
        json(await assets.uploadFromUrl(principal, { url, ...(family ? { fontFamily: family } : {}) })),
      ];
    },
  },
];
