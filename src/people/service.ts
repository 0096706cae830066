/**
 * People: users (created by the operator), signing in with a password and the browser session that
 * follows, and CSRF tokens bound to that session. Sign-in is limited per account and per client
 * address (failures within a window, counted in the database so every instance sees them); an
 * unknown email costs the same hash as a known one. Sessions are random tokens kept as SHA-256.
 */
import { createHmac } from 'node:crypto';
import { AppError, validationFailed } from '../core/errors.ts';
import { constantTimeEqual, isIdOf, randomToken, sha256Hex } from '../core/ids.ts';
import type { Store } from '../store/index.ts';
import type { User, UserWorkspace, WebSession } from '../store/users.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

export interface PeopleOptions {
  sessionTtlSeconds: number;
  maxFailuresPerAccount: number;
  maxFailuresPerAddress: number;
  lockoutWindowSeconds: number;
}

export type SignInOutcome =
  | { kind: 'signed-in'; token: string; userId: string }
  | { kind: 'invalid' }
  | { kind: 'locked'; retryAfterSeconds: number };

export interface NewUser {
  email: string;
  password: string;
  workspaceIds: string[];
  /** An operator manages every workspace and the users; a member needs at least one workspace. */
  operator?: boolean;
}

/** How long the setup link printed at the first start works. */
export const SETUP_LINK_TTL_SECONDS = 24 * 3600;

const accountSubject = (email: string) => `account:${email}`;
const addressSubject = (address: string) => `address:${address}`;

export class PeopleService {
  constructor(
    private readonly store: Store,
    private readonly options: PeopleOptions,
  ) {}

  /** A new person; an operator's creation goes to the audit log with `actor` (who asked). */
  async create(input: NewUser, actor = 'operator-token'): Promise<User> {
    const email = input.email.trim().toLowerCase();
    const workspaceIds = [...new Set(input.workspaceIds)];
    for (const id of workspaceIds) {
      if (!isIdOf('workspace', id) || !(await this.store.workspaces.get(id)))
        throw new AppError('NOT_FOUND', `The workspace ${id} was not found.`);
    }
    if (!input.operator && workspaceIds.length === 0)
      throw validationFailed([{ path: 'workspaceIds', message: 'a member needs at least one workspace' }]);
    const passwordHash = await hashPassword(input.password);
    const user = await this.store.users.create({
      email,
      passwordHash,
      workspaceIds,
      operator: input.operator === true,
    });
    if (!user) throw new AppError('CONFLICT', 'A user with this email exists already.');
    if (user.operator)
      await this.store.console.audit({
        actor,
        action: 'operator.created',
        workspaceId: null,
        target: user.id,
        details: { email: user.email },
      });
    return user;
  }

  async get(id: string): Promise<User> {
    const user = isIdOf('user', id) ? await this.store.users.get(id) : null;
    if (!user) throw new AppError('NOT_FOUND', 'The user was not found.');
    return user;
  }

  list(): Promise<User[]> {
    return this.store.users.list();
  }

  workspacesOf(userId: string): Promise<UserWorkspace[]> {
    return this.store.users.workspacesOf(userId);
  }

  async signIn(rawEmail: string, password: string, address: string): Promise<SignInOutcome> {
    const email = rawEmail.trim().toLowerCase();
    const now = Date.now();
    const since = new Date(now - this.options.lockoutWindowSeconds * 1000).toISOString();
    const limits = [
      [accountSubject(email), this.options.maxFailuresPerAccount],
      [addressSubject(address), this.options.maxFailuresPerAddress],
    ] as const;
    for (const [subject, max] of limits) {
      const { count, oldest } = await this.store.users.failuresSince(subject, since);
      if (count < max) continue;
      const freed = (oldest ? Date.parse(oldest) : now) + this.options.lockoutWindowSeconds * 1000;
      return { kind: 'locked', retryAfterSeconds: Math.max(1, Math.ceil((freed - now) / 1000)) };
    }
    const credentials = await this.store.users.credentialsOf(email);
    const ok = await verifyPassword(credentials?.passwordHash ?? null, password);
    if (!ok || !credentials) {
      await this.store.users.recordFailure(limits.map(([subject]) => subject));
      return { kind: 'invalid' };
    }
    await this.store.users.clearFailures(accountSubject(email));
    return this.startSession(credentials.id);
  }

  /**
   * A one-time link that creates an operator (the first one, printed at the first start; or asked
   * for with `platen admin setup-link`): its token, valid `ttlSeconds`, kept only as a hash.
   */
  async issueSetupLink(ttlSeconds = SETUP_LINK_TTL_SECONDS): Promise<string> {
    const token = randomToken(32);
    await this.store.console.createSetupLink(sha256Hex(token), new Date(Date.now() + ttlSeconds * 1000));
    return token;
  }

  setupLinkValid(token: string): Promise<boolean> {
    return this.store.console.setupLinkValid(sha256Hex(token.slice(0, 200)));
  }

  /**
   * Redeems a setup link: the link is spent first (one caller wins, however many try), then the
   * operator is created and signed in. INVALID_SESSION when the link is used, expired or unknown.
   */
  async redeemSetupLink(token: string, input: { email: string; password: string }): Promise<SignInOutcome> {
    if (!(await this.store.console.redeemSetupLink(sha256Hex(token.slice(0, 200)))))
      throw new AppError('INVALID_SESSION', 'This setup link was used already or has expired.');
    const user = await this.create({ ...input, workspaceIds: [], operator: true }, 'setup-link');
    return this.startSession(user.id);
  }

  private async startSession(userId: string): Promise<SignInOutcome> {
    const token = randomToken(32);
    await this.store.users.createSession({
      tokenHash: sha256Hex(token),
      userId,
      csrfSecret: randomToken(32),
      expiresAt: new Date(Date.now() + this.options.sessionTtlSeconds * 1000).toISOString(),
    });
    return { kind: 'signed-in', token, userId };
  }

  /** The live session the cookie value names, if any. */
  async session(token: string | null): Promise<WebSession | null> {
    if (!token || token.length > 200) return null;
    return this.store.users.session(sha256Hex(token), new Date().toISOString());
  }

  async signOut(token: string | null): Promise<void> {
    if (token) await this.store.users.deleteSession(sha256Hex(token));
  }

  /** A CSRF token for one form (`purpose`) of one session: HMAC-SHA256 under the session's secret. */
  csrfToken(session: WebSession, purpose: string): string {
    return createHmac('sha256', session.csrfSecret).update(purpose).digest('base64url');
  }

  checkCsrf(session: WebSession, purpose: string, token: unknown): boolean {
    return typeof token === 'string' && constantTimeEqual(token, this.csrfToken(session, purpose));
  }

  /** Drops expired sessions and failures older than the window. For an occasional upkeep job. */
  async sweep(): Promise<void> {
    const now = Date.now();
    const windowStart = new Date(now - this.options.lockoutWindowSeconds * 1000).toISOString();
    await this.store.users.sweep(new Date(now).toISOString(), windowStart);
  }

  get sessionTtlSeconds(): number {
    return this.options.sessionTtlSeconds;
  }
}
