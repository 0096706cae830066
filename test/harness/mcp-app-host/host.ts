/**
 * A minimal MCP Apps host, run in Chromium by test/mcp-apps-host.test.ts: an MCP SDK client with
 * the person's bearer token talks to the real /v1/mcp; the app's HTML (read through the tool's
 * `_meta.ui.resourceUri`) runs in a sandboxed iframe under the CSP its `_meta.ui.csp` declares;
 * the package's `AppBridge` is the host side of the bridge, forwarding the app's tools/call to
 * the server. Then it plays the agent: calls the tool and hands the app its input and result.
 */
import {
  AppBridge,
  getToolUiResourceUri,
  PostMessageTransport,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export interface HostRun {
  base: string;
  token: string;
  /** The tool the agent calls, whose app is shown. */
  tool: string;
  args: Record<string, unknown>;
}

export interface HostLog {
  /** Every tools/call that went to the server, the agent's and the app's, by tool name. */
  toolCalls: string[];
  openedLinks: string[];
  csp: string;
}

declare global {
  interface Window {
    runHost(run: HostRun): Promise<void>;
    hostLog: HostLog;
  }
}

interface DeclaredCsp {
  resourceDomains?: string[];
  connectDomains?: string[];
}

/** The spec's restrictive default policy, widened by exactly the origins the resource declares. */
function policyFor(csp: DeclaredCsp | undefined): string {
  const resources = (csp?.resourceDomains ?? []).join(' ');
  const connect = (csp?.connectDomains ?? []).join(' ') || "'none'";
  return [
    "default-src 'none'",
    "script-src 'unsafe-inline'",
    "style-src 'unsafe-inline'",
    `img-src data: ${resources}`,
    `media-src data: ${resources}`,
    `font-src ${resources || "'none'"}`,
    `connect-src ${connect}`,
    "frame-src 'none'",
    "base-uri 'none'",
    "object-src 'none'",
  ].join('; ');
}

window.hostLog = { toolCalls: [], openedLinks: [], csp: '' };

/** The page's fetch, noting each tools/call it carries. */
const loggingFetch: typeof fetch = (input, init) => {
  if (typeof init?.body === 'string') {
    const message = JSON.parse(init.body) as { method?: string; params?: { name?: string } };
    if (message.method === 'tools/call' && message.params?.name)
      window.hostLog.toolCalls.push(message.params.name);
  }
  return fetch(input, init);
};

window.runHost = async ({ base, token, tool, args }) => {
  const client = new Client({ name: 'platen-test-host', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/v1/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
      fetch: loggingFetch,
    }),
  );
  const { tools } = await client.listTools();
  const uri = getToolUiResourceUri(tools.find((t) => t.name === tool) ?? {});
  if (!uri) throw new Error(`${tool} declares no UI resource`);
  const { contents } = await client.readResource({ uri });
  const content = contents[0] as { text?: string; _meta?: { ui?: { csp?: DeclaredCsp } } } | undefined;
  if (!content?.text) throw new Error(`${uri} has no HTML`);
  window.hostLog.csp = policyFor(content._meta?.ui?.csp);
  const meta = `<meta http-equiv="Content-Security-Policy" content="${window.hostLog.csp}">`;

  const iframe = document.createElement('iframe');
  iframe.id = 'app';
  iframe.title = 'Platen app';
  iframe.setAttribute('sandbox', 'allow-scripts'); // an opaque origin: no access to this page
  iframe.srcdoc = content.text.replace('<head>', `<head>${meta}`);
  document.body.append(iframe);
  const view = iframe.contentWindow;
  if (!view) throw new Error('the iframe has no window');

  const bridge = new AppBridge(
    client,
    { name: 'platen-test-host', version: '1.0.0' },
    { openLinks: {}, serverTools: {}, logging: {} },
  );
  bridge.onopenlink = async ({ url }) => {
    window.hostLog.openedLinks.push(url);
    return {};
  };
  bridge.onsizechange = ({ height }) => {
    if (height) iframe.style.height = `${height}px`;
  };
  const initialized = new Promise<void>((resolve) => {
    bridge.oninitialized = () => resolve();
  });
  await bridge.connect(new PostMessageTransport(view, view));
  await initialized;

  const result = await client.callTool({ name: tool, arguments: args });
  await bridge.sendToolInput({ arguments: args });
  await bridge.sendToolResult(result as Parameters<AppBridge['sendToolResult']>[0]);
};
