/**
 * The MCP conformance suite's authorization-server scenarios (`conformance authorization`, from
 * the `@modelcontextprotocol/conformance` devDependency, which needs Node 22) as a child process of
 * the test: the tool prints an authorization URL and waits for a browser to come back to its own
 * callback server on 127.0.0.1:<port>; `onAuthorizationUrl` plays that browser. The child is killed
 * whenever the run fails or outlives its deadline.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

const PACKAGE = '@modelcontextprotocol/conformance';
const URL_MARKER = 'Access the following URL in your browser';

/** The CLI's JS entry point, from the package's `bin` field. */
export function conformanceBin(): string {
  const manifestPath = createRequire(import.meta.url).resolve(`${PACKAGE}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    bin?: string | Record<string, string>;
  };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.conformance;
  if (!bin) throw new Error(`${PACKAGE} has no "conformance" bin in ${manifestPath}`);
  return resolve(dirname(manifestPath), bin);
}

export interface ConformanceCheck {
  id: string;
  name: string;
  description?: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO' | string;
  errorMessage?: string;
}

export interface ScenarioResult {
  scenario: string;
  passed: number;
  failed: number;
  /** The checks from the -o results file; empty when only stdout was parsed. */
  checks: ConformanceCheck[];
}

export interface ConformanceRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Per scenario, from the -o results files if there are any, else from stdout's summary. */
  scenarios: ScenarioResult[];
  /** Stdout from `=== SUMMARY ===` on (the tool's summary lines). */
  summary: string[];
}

export interface AuthorizationRunOptions {
  issuer: string;
  clientId: string;
  resource: string;
  port: number;
  outputDir: string;
  /** Plays the browser at the authorization URL; resolves once the tool's callback was reached. */
  onAuthorizationUrl(url: string): Promise<void>;
  /** Kill the tool and fail after this long (the tool itself waits 5 minutes for the callback). */
  timeoutMs?: number;
}

/** The child of a run still going, so a test's teardown can end it. */
let running: ChildProcess | undefined;

export function killConformance(): void {
  if (running && running.exitCode === null && running.signalCode === null) running.kill('SIGKILL');
  running = undefined;
}

export async function runConformanceAuthorization(options: AuthorizationRunOptions): Promise<ConformanceRun> {
  const args = [
    conformanceBin(),
    'authorization',
    '--url',
    options.issuer,
    '--client-id',
    options.clientId,
    '--resource',
    options.resource,
    '-p',
    String(options.port),
    '-o',
    options.outputDir,
  ];
  const child = spawn(process.execPath, args, {
    cwd: options.outputDir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  running = child;
  let stdout = '';
  let stderr = '';
  let driving: Promise<void> | undefined;
  let failure: unknown;
  const fail = (error: unknown) => {
    failure ??= error;
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };

  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    if (driving) return;
    const url = authorizationUrlIn(stdout);
    if (url) driving = options.onAuthorizationUrl(url).catch(fail);
  });

  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    child.once('error', (error) => {
      fail(error);
      done({ code: null, signal: null });
    });
    child.once('close', (code, signal) => done({ code, signal }));
  });
  const timeoutMs = options.timeoutMs ?? 90_000;
  let timedOut: () => void = () => {};
  const deadline = new Promise<void>((done) => {
    timedOut = done;
  });
  const timer = setTimeout(() => {
    fail(new Error(`conformance did not finish within ${timeoutMs} ms`));
    timedOut();
  }, timeoutMs);
  let exit: { code: number | null; signal: NodeJS.Signals | null };
  try {
    exit = await closed;
    // The browser's last request may still be answering when the tool exits; a browser that hangs
    // is cut off by the deadline.
    if (!failure) await Promise.race([driving, deadline]);
  } finally {
    clearTimeout(timer);
    killConformance();
  }
  const output = `--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`;
  if (failure) {
    const message = failure instanceof Error ? failure.message : String(failure);
    throw new Error(`${message}\n${output}`, { cause: failure });
  }
  if (!driving)
    throw new Error(`conformance exited (${exit.code}) without printing an authorization URL\n${output}`);

  const lines = stdout.split('\n');
  const summaryAt = lines.findIndex((l) => l.includes('=== SUMMARY ==='));
  const summary = summaryAt < 0 ? [] : lines.slice(summaryAt).filter((l) => l.trim() !== '');
  return {
    exitCode: exit.code,
    signal: exit.signal,
    stdout,
    stderr,
    scenarios: resultFiles(options.outputDir) ?? summaryScenarios(summary),
    summary,
  };
}

/** The (complete) line after the tool's "Access the following URL…" line. */
function authorizationUrlIn(stdout: string): string | undefined {
  const at = stdout.indexOf(URL_MARKER);
  if (at < 0) return undefined;
  const rest = stdout.slice(stdout.indexOf('\n', at) + 1);
  const end = rest.indexOf('\n');
  if (end < 0) return undefined;
  const url = rest.slice(0, end).trim();
  return /^https?:\/\//.test(url) ? url : undefined;
}

/** `-o` writes `<dir>/authorization-server-<scenario>-<timestamp>/checks.json` per scenario. */
function resultFiles(outputDir: string): ScenarioResult[] | undefined {
  if (!existsSync(outputDir)) return undefined;
  const results: ScenarioResult[] = [];
  for (const entry of readdirSync(outputDir, { withFileTypes: true })) {
    const file = join(outputDir, entry.name, 'checks.json');
    if (!entry.isDirectory() || !existsSync(file)) continue;
    const match = /^authorization-server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry.name);
    const checks = JSON.parse(readFileSync(file, 'utf8')) as ConformanceCheck[];
    results.push({
      scenario: match?.[1] ?? entry.name,
      passed: checks.filter((c) => c.status === 'SUCCESS').length,
      failed: checks.filter((c) => c.status === 'FAILURE').length,
      checks,
    });
  }
  return results.length > 0 ? results : undefined;
}

/** `✓ <scenario>: <n> passed, <m> failed` lines of the summary. */
function summaryScenarios(summary: string[]): ScenarioResult[] {
  return summary.flatMap((line) => {
    const m = /^[✓✗]\s+(\S+):\s+(\d+) passed, (\d+) failed/.exec(line.trim());
    return m ? [{ scenario: m[1] ?? '', passed: Number(m[2]), failed: Number(m[3]), checks: [] }] : [];
  });
}
