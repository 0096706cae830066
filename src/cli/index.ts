/**
 * `platen` subcommands: `serve` starts the service, `worker` a render worker, `admin` wraps the
 * operator API over HTTP, `render` draws a design document locally without a server, `sign-url`
 * prints a signed render URL, `backup` and `restore` copy a whole deployment to a folder and back,
 * `templates` pulls a workspace's templates into a folder, diffs and pushes them back.
 */
import { runAdminCommand } from './admin-command.ts';

const usage = `Usage:
  platen serve                         start the service (same as npm start)
  platen worker                        start a render worker: background renders only (PLATEN_ROLE=worker)
  platen admin <resource> <action> …   operator API (see platen admin help)
  platen render <document.json> [--var name=value] [--format png|jpeg|pdf|mp4|webm|gif] [--out file]
  platen sign-url --template ID [--var name=value] [--format png|jpeg|pdf|mp4|webm|gif] [--expires-in S]
                                       print a signed render URL ($PLATEN_URL_SECRET signs it)
  platen backup --out DIR              database and files into DIR, while the service runs
  platen restore --from DIR            a backup into an empty deployment (service stopped)
  platen templates pull|diff|push DIR [--force] [--url URL] [--key KEY]
                                       templates as JSON files for git (see platen templates help)`;

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      await import('../main.ts');
      return -1;
    case 'worker':
      process.env.PLATEN_ROLE = 'worker';
      await import('../main.ts');
      return -1;
    case 'admin':
      return runAdminCommand(rest);
    case 'render': {
      const { runRenderCommand } = await import('./render-command.ts');
      return runRenderCommand(rest);
    }
    case 'sign-url': {
      const { runSignUrlCommand } = await import('./sign-url-command.ts');
      return runSignUrlCommand(rest);
    }
    case 'backup':
    case 'restore': {
      const { runBackupCommand } = await import('./backup-command.ts');
      return runBackupCommand(command, rest);
    }
    case 'templates': {
      const { runTemplatesCommand } = await import('./templates/command.ts');
      return runTemplatesCommand(rest);
    }
    default:
      process.stdout.write(`${usage}\n`);
      return command === undefined || command === 'help' || command === '--help' ? 0 : 2;
  }
}

const code = await run(process.argv.slice(2));
if (code >= 0) process.exitCode = code;
