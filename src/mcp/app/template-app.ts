/**
 * The MCP App (the MCP Apps extension, SEP-1865) that render_template and get_template declare:
 * one self-contained HTML document, served as `text/html;profile=mcp-app` under a `ui://` URI. A
 * host that supports the extension shows it beside the tool's result; every action it takes is a
 * plain tools/call through the host, under the token's scopes. Hosts without the extension ignore
 * `_meta` and keep the tools' text and image content.
 */
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import type { ReadResourceResult, Resource } from '@modelcontextprotocol/sdk/types.js';
import { templateAppScript } from './view-bundle.ts';

export const TEMPLATE_APP_URI = 'ui://platen/template-app';
export { RESOURCE_MIME_TYPE };

// The package's `McpUiToolMeta` and `McpUiResourceMeta`, as far as this server uses them: its type
// declarations re-export them through extensionless paths that NodeNext resolution cannot follow.
interface AppToolMeta {
  resourceUri: string;
}
interface AppResourceMeta {
  csp: { resourceDomains?: string[]; connectDomains?: string[] };
  prefersBorder?: boolean;
}

/**
 * A tool's `_meta` naming the app. The nested `ui.resourceUri` is the spec's key; the flat
 * `ui/resourceUri` is the deprecated one older hosts read, set as the package's `registerAppTool`
 * sets it (the helper itself wants an `McpServer`; this server is the low-level `Server`).
 */
export function templateAppToolMeta(): Record<string, unknown> {
  const ui: AppToolMeta = { resourceUri: TEMPLATE_APP_URI };
  return { ui, [RESOURCE_URI_META_KEY]: TEMPLATE_APP_URI };
}

/**
 * What the host's Content Security Policy must allow: images from the service's origin (a render's
 * file URL, when it is too big to come back inline). Inline `data:` images are in the spec's
 * default `img-src`. No `connectDomains`: the app fetches nothing itself, it calls tools.
 */
export function templateAppResourceMeta(baseUrl: string): AppResourceMeta {
  return { csp: { resourceDomains: [new URL(baseUrl).origin] }, prefersBorder: true };
}

export function templateAppResource(baseUrl: string): Resource {
  return {
    uri: TEMPLATE_APP_URI,
    name: 'template-app',
    title: 'Platen template',
    description:
      "A template's rendered image with its variables as a form: a free preview on each change, a paid render on demand, and a link to the template in the studio.",
    mimeType: RESOURCE_MIME_TYPE,
    _meta: { ui: templateAppResourceMeta(baseUrl) },
  };
}

/** The service's public base URL goes into the page: the view links to the studio with it. */
export interface TemplateAppConfig {
  baseUrl: string;
}

/** JSON safe inside a <script> element: no `</script>` or `<!--` can close or confuse it. */
const scriptSafeJson = (value: unknown) =>
  JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');

export function templateAppHtml(script: string, config: TemplateAppConfig): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    '<title>Platen template</title>',
    `<script type="application/json" id="platen-app-config">${scriptSafeJson(config)}</script>`,
    '</head>',
    '<body>',
    '<main id="platen-app" aria-live="polite"><p class="status">Waiting for the template…</p></main>',
    // The bundle is an IIFE; a `</script` inside it would end the element early, so it is escaped.
    `<script>${script.replace(/<\/script/gi, '<\\/script')}</script>`,
    '</body>',
    '</html>',
  ].join('\n');
}

export async function readTemplateApp(baseUrl: string): Promise<ReadResourceResult> {
  return {
    contents: [
      {
        uri: TEMPLATE_APP_URI,
        mimeType: RESOURCE_MIME_TYPE,
        text: templateAppHtml(await templateAppScript(), { baseUrl }),
        _meta: { ui: templateAppResourceMeta(baseUrl) },
      },
    ],
  };
}
