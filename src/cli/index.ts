/**
 * `platen` subcommands: `serve` starts the service, `admin` wraps the operator API over HTTP,
 * `render` draws a design document locally without a server.
 */
import { runAdminCommand } from './admin-command.ts';

const usage = `Usage:
  platen serve                         start the service (same as npm start)
  platen admin <resource> <action> …   operator API (see platen admin help)
  platen render <document.json> [--var name=value] [--format png|jpeg|pdf] [--out file]`;

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      await import('../main.ts');
      return -1;
    case 'admin':
      return runAdminCommand(rest);
    case 'render': {
      const { runRenderCommand } = await import('./render-command.ts');
      return runRenderCommand(rest);
    }
    default:
      process.stdout.write(`${usage}\n`);
      return command === undefined || command === 'help' || command === '--help' ? 0 : 2;
  }
}

const code = await run(process.argv.slice(2));
if (code >= 0) process.exitCode = code;
