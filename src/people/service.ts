/**
 * People: users (created and managed by operators: disabled, enabled, deleted, promoted, demoted,
 * their workspaces changed, a password-reset link issued, sign-in unlocked), signing in with a
 * password and the browser session that follows, and CSRF tokens bound to that session. Every
 * change an operator makes ends the person's sessions (and so their console studio tokens) and is
 * audited. Sign-in failures slow down rather than lock out (lockout.ts); an unknown email costs the
 * same hash as a known one. Sessions are random tokens kept as SHA-256.
 */
import { createHmac } from 'node:crypto';
import type { AuditTrail } from '../audit/index.ts';
import { assertOperator, type Principal } from '../auth/principal.ts';
import { AppError, validationFailed } from '../core/errors.ts';
import { constantTimeEqual, isIdOf, randomToken, sha256Hex } from '../core/ids.ts';
import type { Store } from '../store/index.ts';
import type { User, UserWorkspace, WebSession } from '../store/users.ts';
import { TrustedDevices } from './devices.ts';
import { type LockoutPolicy, lockoutPolicy, refusal, signInSubjects } from './lockout.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

export interface PeopleOptions {
  sessionTtlSeconds: number;
  maxFailuresPerAccount: number;
  maxFailuresPerAddress: number;
  lockoutWindowSeconds: number;
}

/** What operators see of a person: the user and until when sign-in is slowed down, if it is. */
export type PersonView = User & { lockedUntil: string | null };

export type SignInOutcome =
  /** `device`: the trusted-device cookie for this browser (devices.ts). */
  | { kind: 'signed-in'; token: string; userId: string; device: string }
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
/** How long a password-reset link works. */
export const PASSWORD_RESET_TTL_SECONDS = 24 * 3600;

export interface PersonChange {
  disabled?: boolean;
  operator?: boolean;
  workspaceIds?: string[];
}

const notFound = () => new AppError('NOT_FOUND', 'The user was not found.');
const lastOperator = () =>
  new AppError('CONFLICT', 'This would leave no enabled operator: promote or enable another one first.');

export class PeopleService {
  private readonly lockout: LockoutPolicy;
  private readonly devices: TrustedDevices;

  constructor(
    private readonly store: Store,
    private readonly audit: AuditTrail,
    private readonly options: PeopleOptions,
  ) {
    this.lockout = lockoutPolicy(options);
    this.devices = new TrustedDevices(store);
  }

  /** A new person (operators only), audited. */
  async create(principal: Principal, input: NewUser): Promise<User> {
    assertOperator(principal);
    const user = await this.insert(input);
    await this.audit.record(principal, 'user.created', {
      workspaceId: null,
      target: user.id,
      details: { email: user.email, operator: user.operator, workspaceIds: user.workspaceIds },
    });
    return user;
  }

  /** The checks and the row of a new person; the caller audits it. */
  private async insert(input: NewUser): Promise<User> {
    const email = input.email.trim().toLowerCase();
    const workspaceIds = await this.existingWorkspaces(input.workspaceIds);
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
    return user;
  }

  async get(principal: Principal, id: string): Promise<PersonView> {
    assertOperator(principal);
    return this.view(await this.user(id));
  }

  async list(principal: Principal): Promise<PersonView[]> {
    assertOperator(principal);
    return Promise.all((await this.store.users.list()).map((user) => this.view(user)));
  }

  /**
   * Disables or enables, promotes or demotes, or changes the workspaces of a person: one audit
   * entry per kind of change, and the person's sessions end (they sign in again to the new rights).
   * Never the last enabled operator (409).
   */
  async update(principal: Principal, id: string, change: PersonChange): Promise<PersonView> {
    assertOperator(principal);
    const before = await this.user(id);
    const workspaceIds =
      change.workspaceIds === undefined ? undefined : await this.existingWorkspaces(change.workspaceIds);
    const operator = change.operator ?? before.operator;
    if (!operator && (workspaceIds ?? before.workspaceIds).length === 0)
      throw validationFailed([{ path: 'workspaceIds', message: 'a member needs at least one workspace' }]);
    const outcome = await this.store.users.change(id, { ...change, workspaceIds });
    if (outcome === 'missing') throw notFound();
    if (outcome === 'last-operator') throw lastOperator();
    const subject = (details: Record<string, unknown>) => ({ workspaceId: null, target: id, details });
    const who = { email: before.email };
    if (change.disabled !== undefined && change.disabled !== before.disabled)
      await this.audit.record(principal, change.disabled ? 'user.disabled' : 'user.enabled', subject(who));
    if (change.operator !== undefined && change.operator !== before.operator)
      await this.audit.record(principal, change.operator ? 'user.promoted' : 'user.demoted', subject(who));
    if (workspaceIds !== undefined && workspaceIds.join() !== before.workspaceIds.join())
      await this.audit.record(
        principal,
        'user.memberships_changed',
        subject({ ...who, from: before.workspaceIds, to: workspaceIds }),
      );
    return this.view(await this.user(id));
  }

  /** Deletes a person (kept as a tombstone for the audit trail); never the last enabled operator. */
  async remove(principal: Principal, id: string): Promise<void> {
    assertOperator(principal);
    const before = await this.user(id);
    const outcome = await this.store.users.change(id, { deleted: true });
    if (outcome === 'missing') throw notFound();
    if (outcome === 'last-operator') throw lastOperator();
    await this.store.users.deleteSessionsOf(id);
    await this.audit.record(principal, 'user.deleted', {
      workspaceId: null,
      target: id,
      details: { email: before.email },
    });
  }

  /**
   * A one-time link that lets the person choose a new password: its token (kept only as a hash),
   * valid PASSWORD_RESET_TTL_SECONDS; an earlier link stops working. Issuing it signs the person out
   * everywhere (sessions and OAuth grants): whoever knew the old password is out at once.
   */
  async issuePasswordReset(principal: Principal, id: string): Promise<{ token: string; expiresAt: string }> {
    assertOperator(principal);
    const user = await this.user(id);
    if (user.disabled) throw new AppError('CONFLICT', 'The user is disabled: enable them first.');
    const token = randomToken(32);
    const expiresAt = new Date(Date.now() + PASSWORD_RESET_TTL_SECONDS * 1000).toISOString();
    await this.store.users.createPasswordReset(sha256Hex(token), id, expiresAt);
    await this.store.users.signOutEverywhere(id);
    await this.audit.record(principal, 'user.password_reset_issued', {
      workspaceId: null,
      target: id,
      details: { email: user.email, expiresAt },
    });
    return { token, expiresAt };
  }

  /** Whether a reset link may still be used. */
  async passwordResetValid(token: string): Promise<boolean> {
    return (
      (await this.store.users.passwordResetUser(sha256Hex(token.slice(0, 200)), new Date().toISOString())) !==
      null
    );
  }

  /**
   * Spends a reset link and sets the password: the person's sessions end, the sign-in delays on
   * the account are forgotten, and they are signed in. INVALID_SESSION when the link is spent.
   */
  async resetPassword(token: string, password: string, address: string): Promise<SignInOutcome> {
    const hash = sha256Hex(token.slice(0, 200));
    const now = new Date().toISOString();
    const userId = await this.store.users.passwordResetUser(hash, now);
    if (!userId || !(await this.store.users.redeemPasswordReset(hash, now)))
      throw new AppError('INVALID_SESSION', 'This link was used already or has expired.');
    const user = await this.user(userId);
    await this.store.users.setPassword(userId, await hashPassword(password));
    await this.store.users.deleteSessionsOf(userId);
    await this.store.users.clearFailures([], signInSubjects.accountPrefix(user.email));
    const self: Principal = {
      workspaceId: '',
      scopes: new Set(),
      actor: { type: 'person', userId, email: user.email, operator: user.operator },
      address,
    };
    await this.audit.record(self, 'user.password_reset', { workspaceId: null, target: userId });
    return this.startSession(userId);
  }

  /** Forgets the sign-in failures of the person's account, from every address. */
  async unlock(principal: Principal, id: string): Promise<void> {
    assertOperator(principal);
    const user = await this.user(id);
    await this.store.users.clearFailures([], signInSubjects.accountPrefix(user.email));
    await this.audit.record(principal, 'user.unlocked', {
      workspaceId: null,
      target: id,
      details: { email: user.email },
    });
  }

  /** The person's own workspaces (the consent page, the console's session). */
  workspacesOf(userId: string): Promise<UserWorkspace[]> {
    return this.store.users.workspacesOf(userId);
  }

  /**
   * Signs a person in. Failures slow down further attempts (lockout.ts): per account and address,
   * per account, per address, each a delay that doubles and is capped, never a lock a stranger can
   * hold. A disabled person is refused as a wrong password would be.
   */
  async signIn(
    rawEmail: string,
    password: string,
    address: string,
    device: string | null = null,
  ): Promise<SignInOutcome> {
    const email = rawEmail.trim().toLowerCase().slice(0, 320);
    const now = Date.now();
    const since = new Date(now - this.options.lockoutWindowSeconds * 1000).toISOString();
    const credentials = await this.store.users.credentialsOf(email);
    const trusted = credentials !== null && (await this.devices.trusts(device, credentials.id));
    const limits = this.lockout.limits(email, address, trusted);
    // Counted before it is checked, so a burst of parallel attempts sees itself (lockout.ts).
    const own = await this.store.users.recordFailure(limits.map((limit) => limit.subject));
    const counts = await Promise.all(
      limits.map(async (limit) => ({
        limit,
        ...(await this.store.users.failuresSince(limit.subject, since, own)),
      })),
    );
    const waitSeconds = Math.max(0, ...counts.map((c) => refusal(c.limit, c.count, c.newest, now)));
    if (waitSeconds > 0) {
      await this.store.users.deleteFailures(own);
      return { kind: 'locked', retryAfterSeconds: waitSeconds };
    }
    const ok = await verifyPassword(credentials?.passwordHash ?? null, password);
    if (!ok || !credentials || credentials.disabled) {
      // Past a limit's threshold each failure starts a delay: audited, at most once per delay.
      const crossed = counts.filter((c) => c.count + 1 >= c.limit.threshold).map((c) => c.limit.kind);
      if (crossed.length > 0)
        await this.audit.recordUnauthenticated('signin.locked', {
          workspaceId: null,
          target: credentials?.id ?? null,
          // What was typed is kept only when it names an account (it may be a mistyped password).
          details: { limits: crossed, ...(credentials ? { email } : {}) },
          address,
        });
      return { kind: 'invalid' };
    }
    await this.store.users.deleteFailures(own);
    await this.store.users.clearFailures([limits[0].subject]);
    await this.store.users.recordSignIn(credentials.id);
    return this.startSession(credentials.id);
  }

  private async user(id: string): Promise<User> {
    const user = isIdOf('user', id) ? await this.store.users.get(id) : null;
    if (!user) throw notFound();
    return user;
  }

  private async view(user: User): Promise<PersonView> {
    const since = new Date(Date.now() - this.options.lockoutWindowSeconds * 1000).toISOString();
    const limit = this.lockout.accountLimit(user.email);
    const { count, newest } = await this.store.users.failuresSince(limit.subject, since);
    const wait = refusal(limit, count, newest, Date.now());
    return { ...user, lockedUntil: wait > 0 ? new Date(Date.now() + wait * 1000).toISOString() : null };
  }

  private async existingWorkspaces(ids: readonly string[]): Promise<string[]> {
    const unique = [...new Set(ids)];
    for (const id of unique) {
      if (!isIdOf('workspace', id) || !(await this.store.workspaces.get(id)))
        throw new AppError('NOT_FOUND', `The workspace ${id} was not found.`);
    }
    return unique;
  }

  /**
   * A one-time link that creates an operator: the first one's is printed at the first start; the
   * operator token asks for another with `platen admin setup-link` while no operator exists (409
   * once one does). Only the newest link works. Its token is valid `ttlSeconds`, kept as a hash.
   */
  async issueSetupLink(
    principal: Principal | null,
    ttlSeconds = SETUP_LINK_TTL_SECONDS,
  ): Promise<{ token: string; expiresAt: string }> {
    if (principal) {
      assertOperator(principal);
      if (await this.store.users.operatorExists())
        throw new AppError('CONFLICT', 'An operator exists already: they create accounts in the console.');
    }
    const token = randomToken(32);
    const expiresAt = new Date(Date.now() + ttlSeconds * 1000);
    await this.store.console.createSetupLink(sha256Hex(token), expiresAt);
    if (principal)
      await this.audit.record(principal, 'setup_link.issued', { workspaceId: null, target: null });
    return { token, expiresAt: expiresAt.toISOString() };
  }

  async setupLinkValid(token: string): Promise<boolean> {
    return (
      (await this.store.console.setupLinkValid(sha256Hex(token.slice(0, 200)))) &&
      !(await this.store.users.operatorExists())
    );
  }

  /**
   * Redeems a setup link: the operator is created first, so a refused creation (a taken email)
   * leaves the link usable; then the link is spent, and if another caller spent it meanwhile the
   * new account is removed again (one operator per link, however many try). INVALID_SESSION when
   * the link is used, expired or unknown.
   */
  async redeemSetupLink(
    token: string,
    input: { email: string; password: string },
    address: string,
  ): Promise<SignInOutcome> {
    const hash = sha256Hex(token.slice(0, 200));
    const spent = () => new AppError('INVALID_SESSION', 'This setup link was used already or has expired.');
    // A link is for a deployment without an operator: once one exists (however it was created),
    // every outstanding link is dead.
    if (!(await this.store.console.setupLinkValid(hash)) || (await this.store.users.operatorExists()))
      throw spent();
    const user = await this.insert({ ...input, workspaceIds: [], operator: true });
    if (!(await this.store.console.redeemSetupLink(hash))) {
      await this.store.users.discard(user.id);
      throw spent();
    }
    const link: Principal = { workspaceId: '', scopes: new Set(), actor: { type: 'setup_link' }, address };
    await this.audit.record(link, 'user.created', {
      workspaceId: null,
      target: user.id,
      details: { email: user.email, operator: true, workspaceIds: [] },
    });
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
    return { kind: 'signed-in', token, userId, device: await this.devices.token(userId) };
  }

  /** The live session the cookie value names, if any. */
  async session(token: string | null): Promise<WebSession | null> {
    if (!token || token.length > 200) return null;
    return this.store.users.session(sha256Hex(token), new Date().toISOString());
  }

  /** Ends the browser session, and with it any console studio token opened from it. */
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
