/** A tiny argument reader: positionals plus `--name value` / `--name=value` / repeated `--var`. */
export interface ParsedArgs {
  positionals: string[];
  options: Map<string, string[]>;
}

export function parseArgs(argv: string[]): ParsedArgs {
  const positionals: string[] = [];
  const options = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    let value: string = eq > 0 ? arg.slice(eq + 1) : 'true';
    const next = argv[i + 1];
    if (eq < 0 && next !== undefined && !next.startsWith('--')) {
      value = next;
      i++;
    }
    options.set(name, [...(options.get(name) ?? []), value]);
  }
  return { positionals, options };
}

export function option(args: ParsedArgs, name: string): string | undefined {
  return args.options.get(name)?.at(-1);
}
