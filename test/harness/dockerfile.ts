/**
 * A small Dockerfile reader for the deployment tests: instructions (continuations joined, comments
 * dropped) grouped by stage, and the values tests check (ENV pairs, JSON-form CMD and HEALTHCHECK,
 * COPY sources and destinations).
 */

export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  from: string;
  name: string | null;
  instructions: Instruction[];
}

export function parseDockerfile(text: string): Stage[] {
  const logical = text
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const stages: Stage[] = [];
  for (const line of logical) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    const upper = keyword.toUpperCase();
    if (upper === 'FROM') {
      const [from = '', as, name] = args.split(/\s+/);
      stages.push({ from, name: as?.toUpperCase() === 'AS' ? (name ?? null) : null, instructions: [] });
    } else {
      stages.at(-1)?.instructions.push({ keyword: upper, args });
    }
  }
  return stages;
}

export const instructionsOf = (stage: Stage, keyword: string): string[] =>
  stage.instructions.filter((i) => i.keyword === keyword).map((i) => i.args);

/** `ENV A=1 B=2` pairs of a stage (the `key=value` form only). */
export function envOf(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const args of instructionsOf(stage, 'ENV'))
    for (const pair of args.split(/\s+/)) {
      const eq = pair.indexOf('=');
      if (eq > 0) env[pair.slice(0, eq)] = pair.slice(eq + 1).replace(/^"(.*)"$/, '$1');
    }
  return env;
}

/** The JSON (exec) form of CMD, or of HEALTHCHECK's CMD after its options. */
export function execForm(args: string): string[] {
  const json = args.slice(args.indexOf('['));
  const parsed: unknown = JSON.parse(json);
  if (!Array.isArray(parsed) || !parsed.every((part) => typeof part === 'string'))
    throw new Error(`not an exec form: ${args}`);
  return parsed;
}

export interface Copy {
  from: string | null;
  source: string;
  destination: string;
}

export function copiesOf(stage: Stage): Copy[] {
  return instructionsOf(stage, 'COPY').map((args) => {
    const parts = args.split(/\s+/);
    const from = parts.find((p) => p.startsWith('--from='))?.slice('--from='.length) ?? null;
    const paths = parts.filter((p) => !p.startsWith('--'));
    return { from, source: paths[0] ?? '', destination: paths.at(-1) ?? '' };
  });
}
