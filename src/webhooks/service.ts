/**
 * Webhook subscriptions as operators and the console's people manage them, for the workspaces the
 * principal manages: create (the signing secret is shown once), list, get, change, delete, rotate
 * the secret (each change audited), and read the delivery log. A target URL is checked
 * whenever it is set, with the outbound guard's own vetting (protocol, DNS, private addresses), and
 * again by the dispatcher on every attempt, since DNS may change in between.
 */
import type { AuditTrail } from '../audit/trail.ts';
import { assertManages, manages, type Principal } from '../auth/principal.ts';
import { AppError, type ValidationIssue } from '../core/errors.ts';
import { isIdOf, sha256Hex } from '../core/ids.ts';
import { type FetchPolicy, FetchRefused, vetTarget } from '../outbound/index.ts';
import type { Store } from '../store/index.ts';
import type { DeliveryRecord, WebhookRecord } from '../store/webhooks.ts';
import { newSecret } from './signing.ts';

export const WEBHOOK_EVENTS = [
  'template.create',
  'template.update',
  'render.completed',
  'render.failed',
  'batch.completed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

export interface WebhookView {
  id: string;
  workspaceId: string;
  url: string;
  events: WebhookEventType[];
  createdAt: string;
  updatedAt: string;
}

export type WebhookWithSecret = WebhookView & { secret: string };
export type { DeliveryRecord } from '../store/webhooks.ts';

const isEventType = (value: string): value is WebhookEventType =>
  (WEBHOOK_EVENTS as readonly string[]).includes(value);

function view(record: WebhookRecord): WebhookView {
  return {
    id: record.id,
    workspaceId: record.workspaceId,
    url: record.url,
    events: record.events.filter(isEventType),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

const invalid = (path: string, message: string) =>
  new AppError('VALIDATION_FAILED', undefined, [{ path, message }] satisfies ValidationIssue[]);

const notFound = () => new AppError('NOT_FOUND', 'The webhook was not found.');

/**
 * A target URL as the audit trail keeps it: its origin, and a fingerprint of the rest. Many
 * receivers (chat tools' incoming webhooks) put their credential in the path or the query, and the
 * trail outlives the webhook; the fingerprint still tells two URLs apart.
 */
export function auditedUrl(raw: string): string {
  const url = new URL(raw);
  const rest = `${url.pathname}${url.search}`;
  return rest === '/' ? url.origin : `${url.origin}/…#${sha256Hex(rest).slice(0, 12)}`;
}
const noWorkspace = () => new AppError('NOT_FOUND', 'The workspace was not found.');

export class WebhookService {
  constructor(
    private readonly store: Store,
    private readonly audit: AuditTrail,
    private readonly options: { policy: FetchPolicy },
  ) {}

  async create(
    principal: Principal,
    workspaceId: string,
    input: { url: string; events: readonly string[] },
  ): Promise<WebhookWithSecret> {
    assertManages(principal, workspaceId, noWorkspace);
    // The body is checked before the workspace is looked up (docs/api.md, Errors: order of checks).
    const events = this.checkEvents(input.events);
    const url = await this.checkUrl(input.url);
    await this.workspace(workspaceId);
    const created = await this.store.webhooks.create({ workspaceId, url, events, secret: newSecret() });
    await this.audit.record(principal, 'webhook.created', {
      workspaceId,
      target: created.id,
      details: { url: auditedUrl(url), events },
    });
    return { ...view(created), secret: created.secret };
  }

  async list(principal: Principal, workspaceId: string): Promise<WebhookView[]> {
    assertManages(principal, workspaceId, noWorkspace);
    await this.workspace(workspaceId);
    return (await this.store.webhooks.listByWorkspace(workspaceId)).map(view);
  }

  async get(principal: Principal, id: string): Promise<WebhookView> {
    return view(await this.live(principal, id));
  }

  async update(
    principal: Principal,
    id: string,
    patch: { url?: string; events?: readonly string[] },
  ): Promise<WebhookView> {
    const before = await this.live(principal, id);
    const events = patch.events === undefined ? undefined : this.checkEvents(patch.events);
    const url = patch.url === undefined ? undefined : await this.checkUrl(patch.url);
    const updated = await this.store.webhooks.update(id, { url, events });
    if (!updated) throw notFound();
    await this.audit.record(principal, 'webhook.updated', {
      workspaceId: before.workspaceId,
      target: id,
      details: {
        ...(url !== undefined ? { url: { from: auditedUrl(before.url), to: auditedUrl(url) } } : {}),
        ...(events !== undefined ? { events: { from: before.events, to: events } } : {}),
      },
    });
    return view(updated);
  }

  /** Deletes the webhook; events it had not delivered yet are dropped. */
  async remove(principal: Principal, id: string): Promise<void> {
    const found = await this.live(principal, id);
    if (!(await this.store.webhooks.softDelete(id))) throw notFound();
    await this.audit.record(principal, 'webhook.deleted', {
      workspaceId: found.workspaceId,
      target: id,
      details: { url: auditedUrl(found.url) },
    });
  }

  /** A new secret, shown once; every later attempt (retries included) is signed with it. */
  async rotateSecret(principal: Principal, id: string): Promise<WebhookWithSecret> {
    await this.live(principal, id);
    const rotated = await this.store.webhooks.rotateSecret(id, newSecret());
    if (!rotated) throw notFound();
    await this.audit.record(principal, 'webhook.secret_rotated', {
      workspaceId: rotated.workspaceId,
      target: id,
    });
    return { ...view(rotated), secret: rotated.secret };
  }

  /** Delivery attempts, newest first. */
  async deliveries(principal: Principal, id: string, limit: number): Promise<DeliveryRecord[]> {
    await this.live(principal, id);
    return this.store.webhooks.deliveries(id, limit);
  }

  /** Sends a delivered or failed message again (409 while it is still on its way). */
  async redeliver(principal: Principal, id: string, messageId: string): Promise<void> {
    await this.live(principal, id);
    const outcome = await this.store.webhooks.redeliver(id, messageId);
    if (outcome === 'missing') throw new AppError('NOT_FOUND', 'The message was not found.');
    if (outcome === 'busy') throw new AppError('CONFLICT', 'The message is still being delivered.');
  }

  /** The webhook, if it exists and its workspace is the principal's to manage; else 404. */
  private async live(principal: Principal, id: string): Promise<WebhookRecord> {
    const found = isIdOf('webhook', id) ? await this.store.webhooks.get(id) : null;
    if (!found || !manages(principal, found.workspaceId)) throw notFound();
    return found;
  }

  private async workspace(id: string): Promise<void> {
    const found = isIdOf('workspace', id) ? await this.store.workspaces.get(id) : null;
    if (!found) throw noWorkspace();
  }

  private checkEvents(events: readonly string[]): WebhookEventType[] {
    const unique = [...new Set(events)];
    if (unique.length === 0) throw invalid('events', 'List at least one event type.');
    const unknown = unique.find((e) => !isEventType(e));
    if (unknown !== undefined) throw invalid('events', `Unknown event type ${JSON.stringify(unknown)}.`);
    return unique.filter(isEventType);
  }

  /** The URL as it will be called, or 400 VALIDATION_FAILED saying which rule it breaks. */
  private async checkUrl(raw: string): Promise<string> {
    const { policy } = this.options;
    try {
      const target = await vetTarget(raw, policy);
      if (target.url.username || target.url.password) {
        throw invalid('url', 'The URL must not contain credentials; the signature authenticates.');
      }
      return target.url.href;
    } catch (error) {
      if (!(error instanceof FetchRefused)) throw error;
      const messages: Partial<Record<FetchRefused['reason'], string>> = {
        protocol: policy.allowPrivate ? 'Must be an http or https URL.' : 'Must be an https URL.',
        dns: 'The host name does not resolve.',
        'private-address': 'The URL points to a private, loopback, link-local or metadata address.',
      };
      throw invalid('url', messages[error.reason] ?? error.message);
    }
  }
}
