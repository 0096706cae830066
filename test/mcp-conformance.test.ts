/**
 * The MCP conformance suite (`@modelcontextprotocol/conformance`) against our authorization
 * server: its `authorization` command runs both authorization-server scenarios together
 * (authorization-server-metadata-endpoint, authorization-code-grant) against a real test server.
 * The client is pre-registered with the tool's callback as redirect URI; the person signs in and
 * presses Allow at the real pages (no auto-approve); the tool then exchanges the code itself and
 * checks the token answer. The tool needs Node 22, so this runs in CI's Node 22 and Node 24 passes only.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killConformance, runConformanceAuthorization } from './harness/conformance.ts';
import { authorizeInBrowser, createUser } from './harness/oauth.ts';
import { freePort, http, startTestServer, type TestServer, workspaceWithKey } from './harness/server.ts';

const nodeMajor = Number(process.versions.node.split('.')[0]);
const skip = nodeMajor < 22 ? "needs Node 22: runs in CI's Node 22 and 24 passes" : false;
const SCENARIOS = ['authorization-server-metadata-endpoint', 'authorization-code-grant'];

describe.skipIf(skip)(`MCP conformance: authorization server${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let server: TestServer;
  let outputDir: string;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
    outputDir = await mkdtemp(join(tmpdir(), 'platen-conformance-'));
  });
  afterAll(async () => {
    killConformance();
    await server?.close();
    if (outputDir) await rm(outputDir, { recursive: true, force: true });
  });

  it('passes authorization-server-metadata-endpoint and authorization-code-grant', {
    timeout: 120_000,
  }, async () => {
    const { base } = server;
    const metadata = await http(base, 'GET', '/.well-known/oauth-authorization-server');
    expect(metadata.status).toBe(200);
    const issuer: string = metadata.json.issuer;

    const { workspaceId } = await workspaceWithKey(base, { name: 'conformance' });
    const person = { email: 'conformance@example.com', password: 'a password long enough' };
    await createUser(base, { ...person, workspaceIds: [workspaceId] });

    const port = await freePort();
    const registration = await http(base, 'POST', '/oauth/register', {
      body: {
        client_name: 'MCP conformance suite',
        redirect_uris: [`http://127.0.0.1:${port}/callback`],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      },
    });
    expect(registration.status, registration.bytes.toString()).toBe(201);

    const run = await runConformanceAuthorization({
      issuer,
      clientId: registration.json.client_id,
      resource: `${base}/v1/mcp`,
      port,
      outputDir,
      timeoutMs: 100_000,
      async onAuthorizationUrl(url) {
        const callback = await authorizeInBrowser(url, { ...person, workspaceId });
        // The browser lands on the tool's own callback server, which takes the code from there.
        const landed = await fetch(callback);
        await landed.text();
        if (!landed.ok) throw new Error(`callback ${callback}: ${landed.status}`);
      },
    });

    console.info(`conformance authorization (exit ${run.exitCode}):\n${run.summary.join('\n')}`);
    const warnings = run.scenarios.flatMap((s) => s.checks.filter((c) => c.status === 'WARNING'));
    for (const w of warnings) console.info(`conformance warning: ${w.name}: ${w.description ?? ''}`);
    const failures = run.scenarios.flatMap((s) => s.checks.filter((c) => c.status === 'FAILURE'));
    const output = `${run.stdout}\n${run.stderr}`;

    expect(failures, output).toEqual([]);
    expect(run.scenarios.map((s) => [s.scenario, s.passed > 0, s.failed]).sort(), output).toEqual(
      SCENARIOS.map((s) => [s, true, 0]).sort(),
    );
    expect(run.summary.join('\n'), output).toMatch(/Total: [1-9]\d* passed, 0 failed/);
    expect(run.exitCode, output).toBe(0);
  });
});
