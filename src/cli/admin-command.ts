/**
 * `platen admin`: the operator API from a shell. Reads PLATEN_BASE_URL (or --url) and
 * PLATEN_ADMIN_TOKEN (or --token); prints the JSON answer; exits 1 on an error answer.
 */
import { PlatenConnectionError, PlatenError } from '@platen/client';
import { option, parseArgs } from './args.ts';
import { oneLine, processOutput } from './output.ts';

const help = `platen admin — operator API (/admin/v1)
  workspaces create --name NAME [--credits N]
  workspaces list
  workspaces get WORKSPACE_ID
  workspaces update WORKSPACE_ID [--name NAME] [--suspended true|false]
  credits add WORKSPACE_ID AMOUNT [--reason TEXT]      (a negative AMOUNT withdraws)
  ledger WORKSPACE_ID
  keys create WORKSPACE_ID --scopes template:read,render:write [--name NAME]
  keys list WORKSPACE_ID
  keys revoke KEY_ID
  users create --email EMAIL --workspaces WS_ID[,WS_ID…]   (the password is read from PLATEN_USER_PASSWORD)
  users create --email EMAIL --operator                    an operator: every workspace, the users, the audit log
  users list | users get USER_ID
  users disable USER_ID | users enable USER_ID             (disabling signs the person out at once)
  users promote USER_ID | users demote USER_ID             (never the last enabled operator)
  users workspaces USER_ID WS_ID[,WS_ID…]                  replaces the person's workspaces
  users delete USER_ID
  users reset-password USER_ID                             a one-time link for the person (24 hours)
  users unlock USER_ID                                     forgets failed sign-ins
  setup-link                                               a new setup link, while no operator exists
  audit-log list [--workspace WS_ID] [--action ACTION] [--user USER_ID] [--limit N] [--cursor C]
  embeds create WORKSPACE_ID [--multi-tenant true|false] [--mint-requires-api-key true|false]
  embeds list WORKSPACE_ID | embeds get EMBED_ID | embeds delete EMBED_ID
  webhooks create WORKSPACE_ID --target URL [--events template.create,template.update]
  webhooks list WORKSPACE_ID | webhooks deliveries WEBHOOK_ID | webhooks rotate-secret WEBHOOK_ID
Options: --url BASE_URL (default $PLATEN_URL, $PLATEN_BASE_URL or http://localhost:$PORT), --token TOKEN (default $PLATEN_ADMIN_TOKEN)`;

interface Call {
  method: string;
  path: string;
  body?: unknown;
}

function resolveCall(words: string[], args: ReturnType<typeof parseArgs>): Call | null {
  const [resource, action, id, extra] = words;
  const name = option(args, 'name');
  switch (`${resource} ${action}`) {
    case 'workspaces create': {
      const credits = option(args, 'credits');
      return {
        method: 'POST',
        path: '/workspaces',
        body: { name, ...(credits ? { credits: Number(credits) } : {}) },
      };
    }
    case 'workspaces list':
      return { method: 'GET', path: '/workspaces' };
    case 'workspaces get':
      return id ? { method: 'GET', path: `/workspaces/${id}` } : null;
    case 'workspaces update': {
      const suspended = option(args, 'suspended');
      const body = { ...(name ? { name } : {}), ...(suspended ? { suspended: suspended === 'true' } : {}) };
      return id ? { method: 'PATCH', path: `/workspaces/${id}`, body } : null;
    }
    case 'credits add': {
      const reason = option(args, 'reason');
      return id && extra
        ? {
            method: 'POST',
            path: `/workspaces/${id}/credits`,
            body: { amount: Number(extra), ...(reason ? { reason } : {}) },
          }
        : null;
    }
    case 'keys create': {
      const scopes = (option(args, 'scopes') ?? '').split(',').filter(Boolean);
      return id
        ? { method: 'POST', path: `/workspaces/${id}/api-keys`, body: { scopes, ...(name ? { name } : {}) } }
        : null;
    }
    case 'keys list':
      return id ? { method: 'GET', path: `/workspaces/${id}/api-keys` } : null;
    case 'keys revoke':
      return id ? { method: 'DELETE', path: `/api-keys/${id}` } : null;
    case 'users create':
      return {
        method: 'POST',
        path: '/users',
        body: {
          email: option(args, 'email'),
          // Never from argv: a password there is visible to every process on the machine.
          password: process.env.PLATEN_USER_PASSWORD,
          workspaceIds: (option(args, 'workspaces') ?? '').split(',').filter(Boolean),
          ...(option(args, 'operator') === 'true' ? { operator: true } : {}),
        },
      };
    case 'users list':
      return { method: 'GET', path: '/users' };
    case 'users get':
      return id ? { method: 'GET', path: `/users/${id}` } : null;
    case 'users disable':
    case 'users enable':
      return id ? { method: 'PATCH', path: `/users/${id}`, body: { disabled: action === 'disable' } } : null;
    case 'users promote':
    case 'users demote':
      return id ? { method: 'PATCH', path: `/users/${id}`, body: { operator: action === 'promote' } } : null;
    case 'users workspaces':
      return id && extra !== undefined
        ? { method: 'PATCH', path: `/users/${id}`, body: { workspaceIds: extra.split(',').filter(Boolean) } }
        : null;
    case 'users delete':
      return id ? { method: 'DELETE', path: `/users/${id}` } : null;
    case 'users reset-password':
      return id ? { method: 'POST', path: `/users/${id}/password-reset` } : null;
    case 'users unlock':
      return id ? { method: 'POST', path: `/users/${id}/unlock` } : null;
    case 'audit-log list': {
      const query = new URLSearchParams();
      for (const [flag, parameter] of [
        ['workspace', 'workspaceId'],
        ['action', 'action'],
        ['user', 'userId'],
        ['limit', 'limit'],
        ['cursor', 'cursor'],
      ] as const) {
        const value = option(args, flag);
        if (value !== undefined) query.set(parameter, value);
      }
      const search = query.toString();
      return { method: 'GET', path: `/audit-log${search ? `?${search}` : ''}` };
    }
    case 'embeds create': {
      const flag = (value: string | undefined) => (value === undefined ? {} : value === 'true');
      const multiTenant = flag(option(args, 'multi-tenant'));
      const mint = flag(option(args, 'mint-requires-api-key'));
      const body = {
        ...(typeof multiTenant === 'boolean' ? { multiTenant } : {}),
        ...(typeof mint === 'boolean' ? { mintRequiresApiKey: mint } : {}),
      };
      return id ? { method: 'POST', path: `/workspaces/${id}/embeds`, body } : null;
    }
    case 'embeds list':
      return id ? { method: 'GET', path: `/workspaces/${id}/embeds` } : null;
    case 'embeds get':
      return id ? { method: 'GET', path: `/embeds/${id}` } : null;
    case 'embeds delete':
      return id ? { method: 'DELETE', path: `/embeds/${id}` } : null;
    case 'webhooks create': {
      const events = (option(args, 'events') ?? 'template.create,template.update').split(',');
      return id
        ? {
            method: 'POST',
            path: `/workspaces/${id}/webhooks`,
            body: { url: option(args, 'target'), events },
          }
        : null;
    }
    case 'webhooks list':
      return id ? { method: 'GET', path: `/workspaces/${id}/webhooks` } : null;
    case 'webhooks deliveries':
      return id ? { method: 'GET', path: `/webhooks/${id}/deliveries` } : null;
    case 'webhooks rotate-secret':
      return id ? { method: 'POST', path: `/webhooks/${id}/rotate-secret` } : null;
    default:
      if (resource === 'ledger' && action) return { method: 'GET', path: `/workspaces/${action}/ledger` };
      if (resource === 'setup-link' && action === undefined) return { method: 'POST', path: '/setup-link' };
      return null;
  }
}

export async function runAdminCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  const call = resolveCall(args.positionals, args);
  if (!call) {
    process.stdout.write(`${help}\n`);
    return args.positionals[0] === 'help' || args.positionals.length === 0 ? 0 : 2;
  }
  const base = (
    option(args, 'url') ??
    process.env.PLATEN_URL ??
    process.env.PLATEN_BASE_URL ??
    `http://localhost:${process.env.PORT ?? 3000}`
  ).replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(`${base}/admin/v1${call.path}`);
  } catch {
    processOutput.problem(`platen admin: --url must be an absolute http(s) URL, got ${JSON.stringify(base)}`);
    return 2;
  }
  const token = option(args, 'token') ?? process.env.PLATEN_ADMIN_TOKEN ?? '';
  let response: Response;
  try {
    response = await fetch(url, {
      method: call.method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(call.body ? { 'content-type': 'application/json' } : {}),
      },
      body: call.body ? JSON.stringify(call.body) : undefined,
    });
  } catch (cause) {
    processOutput.problem(`platen admin: ${oneLine(new PlatenConnectionError(url.href, cause))}`);
    return 1;
  }
  if (!response.ok) {
    processOutput.problem(`platen admin: ${oneLine(await PlatenError.fromResponse(response))}`);
    return 1;
  }
  const text = await response.text();
  processOutput.line(text ? text.trim() : String(response.status));
  return 0;
}
