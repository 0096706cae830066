/**
 * The MCP App (docs/mcp.md, "MCP Apps") through the official SDK client on loopback: the two tools
 * declare it, the resource is listed and read as `text/html;profile=mcp-app` with its CSP, the
 * HTML holds the app, and the tools still answer as before for hosts without the extension. What
 * the app asks is a plain tools/call: outside the token's scopes it is refused as any call is.
 * test/mcp-apps-host.test.ts drives the app itself in Chromium.
 */
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleDocument } from './fixtures/samples.ts';
import { accessTokenFor, type Person } from './harness/mcp.ts';
import { createUser } from './harness/oauth.ts';
import { bearer, http, startTestServer, type TestServer, workspaceWithKey } from './harness/server.ts';

const APP_URI = 'ui://platen/template-app';
const ALL_SCOPES = 'template:read template:write render:write asset:read asset:write';

let server: TestServer;
let person: Person;
let templateId: string;

/** An SDK client holding a bearer token, as a host that did the OAuth dance would. */
async function clientWith(token: string): Promise<Client> {
  const client = new Client({ name: 'platen-apps-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.base}/v1/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

beforeAll(async () => {
  server = await startTestServer();
  const workspace = await workspaceWithKey(server.base, { credits: 10 });
  person = {
    email: 'apps-owner@example.com',
    password: 'correct horse battery',
    workspaceId: workspace.workspaceId,
  };
  await createUser(server.base, { ...person, workspaceIds: [workspace.workspaceId] });
  const created = await http(server.base, 'POST', '/v1/templates', {
    body: { name: 'Card', document: simpleDocument() },
    headers: bearer(workspace.key),
  });
  templateId = created.json.id;
});
afterAll(() => server.close());

describe('the MCP App through the SDK client', () => {
  let client: Client;
  beforeAll(async () => {
    client = await clientWith(await accessTokenFor(server.base, person, ALL_SCOPES));
  });
  afterAll(() => client.close());

  it('advertises resources, and render_template and get_template declare the app in _meta', async () => {
    expect(client.getServerCapabilities()?.resources).toBeDefined();
    const { tools } = await client.listTools();
    const withApp = tools.filter((tool) => tool._meta !== undefined).map((tool) => tool.name);
    expect(withApp.sort()).toEqual(['get_template', 'render_template']);
    for (const name of withApp) {
      const meta = tools.find((tool) => tool.name === name)?._meta;
      expect(meta).toEqual({ ui: { resourceUri: APP_URI }, [RESOURCE_URI_META_KEY]: APP_URI });
    }
  });

  it('lists the app and reads it as one HTML document with its CSP', async () => {
    const { resources } = await client.listResources();
    expect(resources).toEqual([
      expect.objectContaining({ uri: APP_URI, mimeType: RESOURCE_MIME_TYPE, name: 'template-app' }),
    ]);
    expect(RESOURCE_MIME_TYPE).toBe('text/html;profile=mcp-app');
    const { contents } = await client.readResource({ uri: APP_URI });
    expect(contents).toHaveLength(1);
    const [content] = contents as Array<{ uri: string; mimeType: string; text: string; _meta?: unknown }>;
    expect(content?.uri).toBe(APP_URI);
    expect(content?.mimeType).toBe(RESOURCE_MIME_TYPE);
    expect(content?._meta).toEqual({
      ui: { csp: { resourceDomains: [new URL(server.base).origin] }, prefersBorder: true },
    });
    const html = content?.text ?? '';
    expect(html.startsWith('<!doctype html>')).toBe(true);
    // Self-contained: the script and the style are inline, nothing is loaded from elsewhere.
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+stylesheet/i);
    expect(html).toContain(`{"baseUrl":"${server.base}"}`);
    // The view's bundle: the App handshake and the tools it calls through the host.
    for (const text of ['ui/initialize', 'get_template_variables', 'preview_template', 'render_template'])
      expect(html).toContain(text);
    expect(html.match(/<\/script>/g)).toHaveLength(2);
  });

  it('answers an unknown resource with a JSON-RPC error, not a crash', async () => {
    const error = await client.readResource({ uri: 'ui://platen/nope' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32002);
    const bad = await client.readResource({ uri: '' }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(McpError);
  });

  it('keeps the tools as they were for hosts without the extension: JSON text and the image', async () => {
    const result = (await client.callTool({
      name: 'render_template',
      arguments: { templateId, modifications: { name: 'Apps' } },
    })) as { content: Array<{ type: string; text?: string; mimeType?: string }> };
    expect(result.content.map((item) => item.type)).toEqual(['text', 'image']);
    expect(JSON.parse(result.content[0]?.text ?? '{}')).toMatchObject({ templateId, format: 'png' });
    const template = (await client.callTool({ name: 'get_template', arguments: { templateId } })) as {
      content: Array<{ text?: string }>;
    };
    expect(JSON.parse(template.content[0]?.text ?? '{}')).toMatchObject({ id: templateId, name: 'Card' });
  });
});

describe('what the app calls, under a read-only token', () => {
  let client: Client;
  beforeAll(async () => {
    client = await clientWith(await accessTokenFor(server.base, person, 'template:read'));
  });
  afterAll(() => client.close());

  it('reads the app and gets the variables, the preview and the workspace', async () => {
    const { contents } = await client.readResource({ uri: APP_URI });
    expect(contents[0]?.mimeType).toBe(RESOURCE_MIME_TYPE);
    const variables = await client.callTool({ name: 'get_template_variables', arguments: { templateId } });
    expect(variables.isError).toBeFalsy();
    const preview = (await client.callTool({
      name: 'preview_template',
      arguments: { templateId, modifications: { name: 'Free' } },
    })) as { content: Array<{ type: string }> };
    expect(preview.content.map((item) => item.type)).toEqual(['text', 'image']);
    const workspace = await client.callTool({ name: 'get_workspace', arguments: {} });
    expect(workspace.isError).toBeFalsy();
  });

  it("refuses the app's render as any call: HTTP 403 insufficient_scope naming render:write", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).not.toContain('render_template');
    expect(tools.find((tool) => tool.name === 'get_template')?._meta).toBeDefined();
    const error = await client
      .callTool({ name: 'render_template', arguments: { templateId, modifications: { name: 'Paid' } } })
      .catch((e: unknown) => e);
    // The SDK's StreamableHTTPError: the HTTP status as `code`, the API's error body in the message.
    expect(error).toBeInstanceOf(Error);
    expect((error as { code?: number }).code).toBe(403);
    expect((error as Error).message).toContain('"code":"INSUFFICIENT_SCOPE"');
    expect((error as Error).message).toContain('render:write');
  });
});
