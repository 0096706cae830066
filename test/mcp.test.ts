/**
 * The MCP server driven by the official MCP TypeScript SDK client, with OAuth through the real
 * pages: discovery, registration, PKCE, sign-in and consent, token, tool calls (a render whose
 * image comes back), refresh. Then what a client no one wrote might send: no token, a narrow
 * token, a suspended workspace, GET, bad arguments.
 */

import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleDocument } from './fixtures/samples.ts';
import { accessTokenFor, type Person, PersonPlayingProvider, rawMcp } from './harness/mcp.ts';
import { createUser } from './harness/oauth.ts';
import { admin, bearer, http, startTestServer, type TestServer, workspaceWithKey } from './harness/server.ts';
import { eventually } from './harness/webhooks.ts';

let server: TestServer;
let workspace: { workspaceId: string; key: string };
let person: Person;
let templateId: string;

interface ToolResult {
  isError?: boolean;
  content: Array<{ type: string; text?: string; data?: string; mimeType?: string }>;
}

const textOf = (result: ToolResult) => JSON.parse(result.content[0]?.text ?? 'null');

/** Connects as the SDK's own examples do: an UnauthorizedError, finishAuth(code), connect again. */
async function connect(provider: PersonPlayingProvider): Promise<Client> {
  const url = new URL(`${server.base}/v1/mcp`);
  const client = new Client({ name: 'platen-test', version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
    return client;
  } catch (error) {
    if (!(error instanceof UnauthorizedError)) throw error;
  }
  const code = provider.callback?.searchParams.get('code');
  if (!code) throw new Error(`no code in ${provider.callback?.href}`);
  const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await transport.finishAuth(code);
  const again = new Client({ name: 'platen-test', version: '1.0.0' });
  await again.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  return again;
}

beforeAll(async () => {
  server = await startTestServer();
  workspace = await workspaceWithKey(server.base, { credits: 10 });
  person = {
    email: 'agent-owner@example.com',
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

describe('the MCP server through the SDK client', () => {
  let provider: PersonPlayingProvider;
  let client: Client;

  beforeAll(async () => {
    provider = new PersonPlayingProvider(person);
    client = await connect(provider);
  });
  afterAll(() => client.close());

  it('signs in once and lists the tools with precise input schemas', async () => {
    expect(provider.authorizations).toBe(1);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        'create_template',
        'estimate_credits',
        'get_batch',
        'get_render',
        'get_template',
        'get_template_variables',
        'get_workspace',
        'list_assets',
        'list_templates',
        'list_versions',
        'preflight_template',
        'preview_template',
        'publish_template',
        'render_batch',
        'render_template',
        'sign_render_url',
        'update_template',
        'upload_asset_from_url',
      ].sort(),
    );
    const render = tools.find((t) => t.name === 'render_template');
    const props = render?.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(props.format?.enum).toEqual(['png', 'jpeg', 'pdf', 'mp4', 'webm', 'gif']);
    expect(props.scale).toMatchObject({ minimum: 1, maximum: 4 });
    expect(render?.inputSchema.required).toEqual(['templateId']);
  });

  it('acts in the chosen workspace: lists, reads, creates and updates templates', async () => {
    const list = textOf((await client.callTool({ name: 'list_templates', arguments: {} })) as ToolResult);
    expect(list.items.map((t: { id: string }) => t.id)).toContain(templateId);
    const got = textOf(
      (await client.callTool({ name: 'get_template', arguments: { templateId } })) as ToolResult,
    );
    expect(got).toMatchObject({ id: templateId, name: 'Card', revision: 1 });
    expect(got.document.pages).toHaveLength(1);
    const made = textOf(
      (await client.callTool({
        name: 'create_template',
        arguments: { name: 'From agent', width: 200, height: 100 },
      })) as ToolResult,
    );
    const saved = textOf(
      (await client.callTool({
        name: 'update_template',
        arguments: { templateId: made.id, document: simpleDocument('Agent {{name}}'), ifRevision: 1 },
      })) as ToolResult,
    );
    expect(saved.revision).toBe(2);
    // The machine API sees what the agent made, in the same workspace.
    const seen = await http(server.base, 'GET', `/v1/templates/${made.id}`, {
      headers: bearer(workspace.key),
    });
    expect([seen.status, seen.json.revision]).toEqual([200, 2]);
  });

  it('renders with credits like the API and returns the PNG as image content', async () => {
    const args = { templateId, format: 'png', modifications: { name: 'Ada' } };
    const first = (await client.callTool({ name: 'render_template', arguments: args })) as ToolResult;
    expect(first.isError).toBeFalsy();
    const result = textOf(first);
    expect(result.credits).toEqual({ charged: 1, balanceAfter: 9 });
    const image = first.content[1];
    expect(image).toMatchObject({ type: 'image', mimeType: 'image/png' });
    const meta = await sharp(Buffer.from(image?.data ?? '', 'base64')).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 400, 300]);
    const again = textOf((await client.callTool({ name: 'render_template', arguments: args })) as ToolResult);
    expect([again.id, again.credits.charged]).toEqual([result.id, 0]);
    const pdf = (await client.callTool({
      name: 'render_template',
      arguments: { templateId, format: 'pdf' },
    })) as ToolResult;
    expect([textOf(pdf).format, pdf.content.length]).toEqual(['pdf', 1]);
    const ws = textOf((await client.callTool({ name: 'get_workspace', arguments: {} })) as ToolResult);
    expect(ws).toMatchObject({ id: workspace.workspaceId, creditBalance: 8 });
  });

  it('renders in the background and in batches, with the API credits, and follows both', async () => {
    const call = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as ToolResult;
    const accepted = textOf(
      await call('render_template', { templateId, modifications: { name: 'Cy' }, async: true }),
    );
    expect(accepted).toMatchObject({ status: 'pending', credits: { charged: 1, balanceAfter: 7 } });
    await eventually(async () => textOf(await call('get_render', { renderId: accepted.id })).url, 15_000);
    expect(textOf(await call('get_render', { renderId: accepted.id }))).toMatchObject({
      id: accepted.id,
      format: 'png',
      credits: { charged: 0 },
    });

    // 'Ada' was rendered before (free), 'Bo' twice (one credit), and a value over the limits fails alone.
    const rows = [{ name: 'Ada' }, { name: 'Bo' }, { name: 'Bo' }, { name: 'x'.repeat(10_001) }];
    const batch = textOf(await call('render_batch', { templateId, rows }));
    expect(batch).toMatchObject({ status: 'running', total: 4 });
    let seen: { status?: string; progress?: unknown; rows?: Array<{ status: string; url?: string }> } = {};
    await eventually(async () => {
      seen = textOf(await call('get_batch', { batchId: batch.id }));
      return seen.status === 'completed';
    }, 15_000);
    expect(seen.progress).toEqual({ done: 3, failed: 1, pending: 0 });
    expect(seen.rows?.[1]?.url).toMatch(/\/files\/renders\//);

    const tooDear = await call('render_batch', {
      templateId,
      rows: Array.from({ length: 7 }, (_, i) => ({ name: `n${i}` })),
    });
    expect([tooDear.isError, textOf(tooDear).error.code]).toEqual([true, 'INSUFFICIENT_CREDITS']);
    const stranger = await call('get_render', { renderId: 'rnd_doesnotexist00000000' });
    expect(textOf(stranger).error.code).toBe('NOT_FOUND');
    const ws = textOf(await call('get_workspace', {}));
    expect(ws.creditBalance).toBe(6);
  });

  it("answers bad arguments and unknown ids with the API's codes as tool errors", async () => {
    const bad = (await client.callTool({
      name: 'render_template',
      arguments: { templateId, format: 'bmp' },
    })) as ToolResult;
    expect([bad.isError, textOf(bad).error.code]).toEqual([true, 'VALIDATION_FAILED']);
    expect(textOf(bad).error.details[0].path).toBe('format');
    const missing = (await client.callTool({
      name: 'get_template',
      arguments: { templateId: 'tpl_doesnotexist000000000000' },
    })) as ToolResult;
    expect([missing.isError, textOf(missing).error.code]).toEqual([true, 'NOT_FOUND']);
    const stale = (await client.callTool({
      name: 'update_template',
      arguments: { templateId, document: simpleDocument(), ifRevision: 99 },
    })) as ToolResult;
    expect(textOf(stale).error.code).toBe('PRECONDITION_FAILED');
  });

  it('publishes a version, lists it, and renders the latest published one', async () => {
    const call = async (name: string, args: Record<string, unknown>) =>
      textOf((await client.callTool({ name, arguments: args })) as ToolResult);
    const published = await call('publish_template', { templateId, note: 'from an agent' });
    expect(published).toMatchObject({ number: 1, note: 'from an agent', created: true });
    expect(published.publishedBy).toMatch(/^oauth:/);
    expect(await call('publish_template', { templateId })).toMatchObject({ number: 1, created: false });
    const listed = await call('list_versions', { templateId });
    expect(listed.items.map((v: { number: number }) => v.number)).toEqual([1]);
    const rendered = (await client.callTool({
      name: 'render_template',
      arguments: { templateId, format: 'png', version: 'latest', modifications: { name: 'pinned' } },
    })) as ToolResult;
    expect(rendered.isError).toBeFalsy();
    expect(textOf(rendered)).toMatchObject({ version: 1 });
    const missing = (await client.callTool({
      name: 'render_template',
      arguments: { templateId, format: 'png', version: 9 },
    })) as ToolResult;
    expect(missing.isError).toBe(true);
    expect(JSON.stringify(textOf(missing))).toContain('NOT_FOUND');
  });

  it('tells an agent what a template takes, what renders would cost, and signs a URL to hand on', async () => {
    const call = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as ToolResult;
    const variables = textOf(await call('get_template_variables', { templateId }));
    const name = variables.variables.find((v: { name: string }) => v.name === 'name');
    expect(name).toMatchObject({
      kind: 'text',
      targets: [{ elementId: 't1', box: { width: 320, height: 100 } }],
    });
    expect(variables.variables.map((v: { name: string }) => v.name)).toContain('card.visible');

    const balance = textOf(await call('get_workspace', {})).creditBalance;
    const estimate = textOf(
      await call('estimate_credits', {
        templateId,
        format: 'png',
        rows: [{ name: 'Ann' }, { name: 'Bob' }, { name: 'Ann' }],
      }),
    );
    expect(estimate).toEqual({
      renders: 3,
      files: 3,
      credits: 2,
      identical: 1,
      balance,
      enough: balance >= 2,
    });
    // Estimating is free.
    expect(textOf(await call('get_workspace', {})).creditBalance).toBe(balance);
    const both = await call('estimate_credits', { templateId, rows: [{}], modifications: {} });
    expect([both.isError, textOf(both).error.code]).toEqual([true, 'VALIDATION_FAILED']);

    const preview = await call('preview_template', { templateId, modifications: { name: 'Peek' } });
    expect(preview.isError).toBeFalsy();
    expect(textOf(preview)).toMatchObject({ width: 400, height: 300, watermarked: true, credits: 0 });
    const image = preview.content[1];
    expect(image?.mimeType).toBe('image/png');
    expect((await sharp(Buffer.from(image?.data ?? '', 'base64')).metadata()).width).toBe(400);
    expect(textOf(await call('get_workspace', {})).creditBalance).toBe(balance);

    const checked = textOf(
      await call('preflight_template', { templateId, rows: [{ name: 'Ann' }, { name: 'ᎣᏏᏲ' }] }),
    );
    expect(checked).toMatchObject({ ok: false, rows: 2, checkedRows: 2, rowsWithErrors: [1] });
    expect(checked.findings[0]).toMatchObject({ code: 'missing-glyphs', elementId: 't1', row: 1 });
    expect(textOf(await call('get_workspace', {})).creditBalance).toBe(balance);

    // An asset from a URL (the test server allows loopback URLs; the SSRF refusals are in agent-api.test.ts).
    const source = await http(server.base, 'POST', '/v1/assets', {
      raw: await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
        .png()
        .toBuffer(),
      headers: { ...bearer(workspace.key), 'content-type': 'image/png' },
    });
    const copied = textOf(await call('upload_asset_from_url', { url: source.json.url }));
    expect(copied).toMatchObject({ kind: 'image', width: 8, height: 8 });
    expect(copied.id).not.toBe(source.json.id);

    const unsigned = await call('sign_render_url', { templateId, format: 'png' });
    expect([unsigned.isError, textOf(unsigned).error.code]).toEqual([true, 'CONFLICT']);
    await admin(server.base, 'POST', `/workspaces/${workspace.workspaceId}/url-signing-secrets`, {});
    const signed = textOf(
      await call('sign_render_url', {
        templateId,
        format: 'png',
        modifications: { name: 'Link' },
        expiresInSeconds: 600,
      }),
    );
    expect(signed.url).toMatch(new RegExp(`^${server.base}/v1/templates/${templateId}/image\\.png\\?`));
    expect(new URL(signed.url).searchParams.get('name')).toBe('Link');
    const fetched = await fetch(signed.url);
    expect([fetched.status, fetched.headers.get('content-type')]).toEqual([200, 'image/png']);
  });

  it('refreshes an expired access token with its refresh token, without a new sign-in', async () => {
    const before = provider.tokens();
    if (!before?.refresh_token) throw new Error('no refresh token was issued');
    provider.saveTokens({ ...before, access_token: 'expired-or-revoked-token' });
    const ws = textOf((await client.callTool({ name: 'get_workspace', arguments: {} })) as ToolResult);
    expect(ws.id).toBe(workspace.workspaceId);
    const after = provider.tokens();
    expect(after?.access_token).not.toBe('expired-or-revoked-token');
    expect(after?.refresh_token).not.toBe(before.refresh_token);
    expect(provider.authorizations).toBe(1);
  });
});

describe('the MCP endpoint for hand-made requests', () => {
  const call = (name: string, args: Record<string, unknown> = {}) => ({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name, arguments: args },
  });

  it('answers no token or a bad one 401 with the resource metadata challenge', async () => {
    for (const token of [null, 'not-a-token']) {
      const res = await rawMcp(server.base, token, call('get_workspace'));
      expect(res.status).toBe(401);
      const challenge = res.headers.get('www-authenticate') ?? '';
      expect(challenge).toContain(
        `resource_metadata="${server.base}/.well-known/oauth-protected-resource/v1/mcp"`,
      );
      if (token) expect(challenge).toContain('error="invalid_token"');
    }
    const metadata = await http(server.base, 'GET', '/.well-known/oauth-protected-resource/v1/mcp');
    expect(metadata.json.resource).toBe(`${server.base}/v1/mcp`);
  });

  it('answers a tool outside the token scopes 403 insufficient_scope naming the scope', async () => {
    const token = await accessTokenFor(server.base, person, 'template:read');
    const listed = await rawMcp(server.base, token, call('list_templates'));
    expect(listed.status).toBe(200);
    const res = await rawMcp(server.base, token, call('render_template', { templateId }));
    expect([res.status, (res.json as { error: { code: string } }).error.code]).toEqual([
      403,
      'INSUFFICIENT_SCOPE',
    ]);
    const challenge = res.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="render:write"');
    const get = await rawMcp(server.base, token, null, 'GET');
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
  });

  it('lists only the tools the token may call', async () => {
    const token = await accessTokenFor(server.base, person, 'template:read');
    const res = await rawMcp(server.base, token, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    const names = (res.json as { result: { tools: Array<{ name: string }> } }).result.tools.map(
      (t) => t.name,
    );
    expect(names).toEqual(
      expect.arrayContaining([
        'list_templates',
        'get_template_variables',
        'estimate_credits',
        'preflight_template',
        'get_workspace',
      ]),
    );
    for (const hidden of [
      'render_template',
      'render_batch',
      'sign_render_url',
      'create_template',
      'list_assets',
    ])
      expect(names).not.toContain(hidden);
  });

  it('refuses every call once the workspace is suspended, and serves it again after', async () => {
    const token = await accessTokenFor(server.base, person, 'template:read');
    await admin(server.base, 'PATCH', `/workspaces/${workspace.workspaceId}`, { suspended: true });
    const res = await rawMcp(server.base, token, call('list_templates'));
    expect([res.status, (res.json as { error: { code: string } }).error.code]).toEqual([
      403,
      'SUBSCRIPTION_SUSPENDED',
    ]);
    await admin(server.base, 'PATCH', `/workspaces/${workspace.workspaceId}`, { suspended: false });
    expect((await rawMcp(server.base, token, call('list_templates'))).status).toBe(200);
  });
});
