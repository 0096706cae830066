/**
 * `platen templates pull|diff|push <dir>`: templates as code (docs/templates-as-code.md). Reads the
 * server and key from --url/--key or PLATEN_URL/PLATEN_API_KEY, talks to the server only through
 * `@platen/client`, and turns every failure into one line on stderr. Exit codes: 0 done, 1 the
 * server, the network or a refused template, 2 bad usage or a bad file in the folder.
 */
import { Platen } from '@platen/client';
import { option, parseArgs } from '../args.ts';
import { type Output, oneLine, processOutput } from '../output.ts';
import { diff } from './diff.ts';
import { FolderError } from './files.ts';
import { pull } from './pull.ts';
import { push } from './push.ts';

const usage = `Usage: platen templates pull|diff|push DIR [options]
  pull DIR      write every template of the key's workspace into DIR, with the assets they use
  diff DIR      print what push would change, property by property
  push DIR      create and save the templates of DIR on the server
  --force       push over templates changed on the server since DIR was pulled
  --url URL     the service (default $PLATEN_URL, else http://localhost:3000)
  --key KEY     a workspace API key, plt_… (default $PLATEN_API_KEY)
See docs/templates-as-code.md.`;

const ACTIONS = ['pull', 'diff', 'push'] as const;
const OPTIONS = new Set(['url', 'key']);

export async function runTemplatesCommand(argv: string[], out: Output = processOutput): Promise<number> {
  // A flag, not an option: `push --force DIR` must not read DIR as its value.
  const force = argv.includes('--force');
  const args = parseArgs(argv.filter((arg) => arg !== '--force'));
  const [action, dir, ...extra] = args.positionals;
  if (action === undefined || action === 'help' || args.options.has('help')) {
    process.stdout.write(`${usage}\n`);
    return action === undefined ? 2 : 0;
  }
  const unknown = [...args.options.keys()].find((name) => !OPTIONS.has(name));
  const known = (ACTIONS as readonly string[]).includes(action);
  if (
    !known ||
    dir === undefined ||
    extra.length > 0 ||
    unknown !== undefined ||
    (force && action !== 'push')
  ) {
    const reason =
      unknown !== undefined ? `unknown option --${unknown}` : 'expected pull, diff or push and one DIR';
    out.problem(`platen templates: ${reason} (platen templates help)`);
    return 2;
  }
  const key = option(args, 'key') ?? process.env.PLATEN_API_KEY;
  if (!key) {
    out.problem('platen templates: no API key: pass --key or set PLATEN_API_KEY');
    return 2;
  }
  const baseUrl = option(args, 'url') ?? process.env.PLATEN_URL ?? 'http://localhost:3000';
  let platen: Platen;
  try {
    platen = new Platen({ baseUrl, apiKey: key });
  } catch (error) {
    out.problem(`platen templates: --url: ${oneLine(error)}`);
    return 2;
  }
  try {
    if (action === 'pull') return await pull(platen, dir, out);
    if (action === 'diff') return await diff(platen, dir, out);
    return await push(platen, dir, force, out);
  } catch (error) {
    out.problem(`platen templates: ${oneLine(error)}`);
    return error instanceof FolderError ? 2 : 1;
  }
}
