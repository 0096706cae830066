/**
 * `platen sign-url`: prints a signed render URL (docs/api.md#signed-render-urls), signed with a
 * URL-signing secret from `--secret` or PLATEN_URL_SECRET. Exit codes: 0 printed, 2 bad usage.
 */
import { signUrl } from '../auth/index.ts';
import { option, parseArgs } from './args.ts';

const usage = `Usage: platen sign-url --template TEMPLATE_ID [options]
  --secret urlsec_…       the URL-signing secret (default $PLATEN_URL_SECRET)
  --format png|jpeg|pdf|mp4|webm|gif   (default png)
  --var name=value        a template variable (repeatable)
  --expires-in SECONDS    adds exp: the URL answers 403 after that
  --scale N | --quality N | --page PAGE_ID   render options
  --fps N | --dither true|false | --time-ms N  motion options (video formats; timeMs for stills)
  --version N|latest       render a published version instead of the draft
  --base URL              the service's public URL (default $PLATEN_BASE_URL or http://localhost:3000)`;

export function runSignUrlCommand(argv: string[], print: (line: string) => void = console.log): number {
  const args = parseArgs(argv);
  const template = option(args, 'template');
  const secret = option(args, 'secret') ?? process.env.PLATEN_URL_SECRET;
  const format = option(args, 'format') ?? 'png';
  if (
    !template ||
    !secret ||
    !['png', 'jpeg', 'pdf', 'mp4', 'webm', 'gif'].includes(format) ||
    !/^[0-9A-Za-z_]+$/.test(template)
  ) {
    process.stderr.write(`${usage}\n`);
    return 2;
  }
  const params: Record<string, string> = {};
  for (const pair of args.options.get('var') ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) {
      process.stderr.write(`--var needs name=value, got ${pair}\n`);
      return 2;
    }
    params[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  for (const [flag, name] of [
    ['scale', 'scale'],
    ['quality', 'quality'],
    ['page', 'pageId'],
    ['fps', 'fps'],
    ['dither', 'dither'],
    ['time-ms', 'timeMs'],
    ['version', 'version'],
  ] as const) {
    const value = option(args, flag);
    if (value !== undefined) params[name] = value;
  }
  const expiresIn = option(args, 'expires-in');
  if (expiresIn !== undefined) {
    if (!/^\d+$/.test(expiresIn)) {
      process.stderr.write('--expires-in takes whole seconds\n');
      return 2;
    }
    params.exp = String(Math.floor(Date.now() / 1000) + Number(expiresIn));
  }
  const base = (option(args, 'base') ?? process.env.PLATEN_BASE_URL ?? 'http://localhost:3000').replace(
    /\/+$/,
    '',
  );
  print(signUrl(base, `/v1/templates/${template}/image.${format}`, params, secret));
  return 0;
}
