/**
 * People who sign in (OAuth consent): users with their password hash and workspaces, their browser
 * sessions (kept as the SHA-256 of the cookie value, with an expiry) and the sign-in failures the
 * brute-force limits count. Plain data in and out: the rules live in src/people.
 */
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import { newId, randomToken } from '../core/ids.ts';
import type { Database, UsersTable } from './schema.ts';

export interface User {
  id: string;
  email: string;
  /** Manages every workspace and the users (the console); a member sees only `workspaceIds`. */
  operator: boolean;
  /** Disabled by an operator: signed out, and refused at sign-in until enabled again. */
  disabled: boolean;
  workspaceIds: string[];
  createdAt: string;
  lastSignInAt: string | null;
}

export interface UserWorkspace {
  id: string;
  name: string;
  suspended: boolean;
}

export interface WebSession {
  /** SHA-256 of the cookie's value: the session's id (a console studio token names it). */
  tokenHash: string;
  userId: string;
  email: string;
  csrfSecret: string;
  expiresAt: string;
}

/** The row whose write lock the changes that may take away an operator hold (lockOperatorChanges). */
const OPERATOR_CHANGES_LOCK = 'lock:operator-changes';

/**
 * Serialises the changes that may leave no enabled operator (demote, disable, delete): each takes
 * the write lock of one row first. On PostgreSQL (read committed) a second such change then waits
 * for the first to commit, and its conditional update counts the operators the first one left;
 * without it, two operators disabled at the same moment each see the other still enabled and both
 * go. SQLite runs one write transaction at a time anyway.
 */
async function lockOperatorChanges(trx: Kysely<Database>, now: string): Promise<void> {
  await trx
    .insertInto('platen_meta')
    .values({ key: OPERATOR_CHANGES_LOCK, value: now })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  await trx.updateTable('platen_meta').set({ value: now }).where('key', '=', OPERATOR_CHANGES_LOCK).execute();
}

/** A UNIQUE or PRIMARY KEY violation on either database. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export class UserRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The new user, or null when the email is taken. Workspaces must exist (checked by the caller). */
  async create(input: {
    email: string;
    passwordHash: string;
    workspaceIds: string[];
    operator?: boolean;
  }): Promise<User | null> {
    const now = new Date().toISOString();
    const id = newId('user');
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('users')
          .values({
            id,
            email: input.email,
            password_hash: input.passwordHash,
            operator: input.operator ? 1 : 0,
            created_at: now,
            updated_at: now,
            deleted_at: null,
          })
          .execute();
        for (const [position, workspaceId] of input.workspaceIds.entries()) {
          await trx
            .insertInto('user_workspaces')
            .values({ user_id: id, workspace_id: workspaceId, position, created_at: now })
            .execute();
        }
      });
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
    return {
      id,
      email: input.email,
      operator: input.operator === true,
      disabled: false,
      workspaceIds: input.workspaceIds,
      createdAt: now,
      lastSignInAt: null,
    };
  }

  async get(id: string): Promise<User | null> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row ? this.withWorkspaces(row) : null;
  }

  async list(): Promise<User[]> {
    const rows = await this.db
      .selectFrom('users')
      .selectAll()
      .where('deleted_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return Promise.all(rows.map((row) => this.withWorkspaces(row)));
  }

  /** The user's id and password hash, for sign-in; `disabled` users are refused by the caller. */
  async credentialsOf(
    email: string,
  ): Promise<{ id: string; passwordHash: string; disabled: boolean } | null> {
    const row = await this.db
      .selectFrom('users')
      .select(['id', 'password_hash', 'disabled_at'])
      .where('email', '=', email)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row ? { id: row.id, passwordHash: row.password_hash, disabled: row.disabled_at !== null } : null;
  }

  /**
   * The changes an operator makes to a person, in one transaction. `operator: false`, `disabled:
   * true` and `deleted` are refused ('last-operator') when they would leave no enabled operator:
   * the condition is part of the update, and such changes run one at a time (lockOperatorChanges),
   * so two operators demoting each other cannot both win.
   */
  async change(
    id: string,
    patch: { operator?: boolean; disabled?: boolean; workspaceIds?: string[]; deleted?: boolean },
  ): Promise<'changed' | 'missing' | 'last-operator'> {
    const now = new Date().toISOString();
    return this.db.transaction().execute(async (trx) => {
      const exists = await trx
        .selectFrom('users')
        .select('id')
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (!exists) return 'missing';
      const set: { operator?: number; disabled_at?: string | null; deleted_at?: string } = {};
      if (patch.operator !== undefined) set.operator = patch.operator ? 1 : 0;
      if (patch.disabled !== undefined) set.disabled_at = patch.disabled ? now : null;
      if (patch.deleted) set.deleted_at = now;
      const removesOperator = patch.operator === false || patch.disabled === true || patch.deleted === true;
      if (removesOperator) await lockOperatorChanges(trx, now);
      if (Object.keys(set).length > 0) {
        let update = trx
          .updateTable('users')
          .set({ ...set, updated_at: now })
          .where('id', '=', id)
          .where('deleted_at', 'is', null);
        if (removesOperator)
          update = update.where((eb) =>
            eb.or([
              eb('operator', '=', 0),
              eb(
                trx
                  .selectFrom('users as other')
                  .select((o) => o.fn.countAll().as('n'))
                  .where('other.id', '!=', id)
                  .where('other.operator', '=', 1)
                  .where('other.disabled_at', 'is', null)
                  .where('other.deleted_at', 'is', null),
                '>',
                0,
              ),
            ]),
          );
        const result = await update.executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) return 'last-operator';
      }
      if (patch.workspaceIds !== undefined) {
        await trx.deleteFrom('user_workspaces').where('user_id', '=', id).execute();
        for (const [position, workspaceId] of patch.workspaceIds.entries())
          await trx
            .insertInto('user_workspaces')
            .values({ user_id: id, workspace_id: workspaceId, position, created_at: now })
            .execute();
      }
      // Any change: the person signs in again to their new rights (console and its studio tokens).
      await trx.deleteFrom('web_sessions').where('user_id', '=', id).execute();
      // Fewer rights (disabled, deleted, demoted, workspaces changed): their OAuth grants (MCP
      // clients' access and refresh tokens) end too; the person consents anew where still allowed.
      if (removesOperator || patch.workspaceIds !== undefined) await revokeOAuthGrants(trx, id, now);
      // Disabled or deleted: an outstanding password-reset link must not work once enabled again.
      if (patch.disabled === true || patch.deleted === true)
        await trx
          .updateTable('password_resets')
          .set({ used_at: now })
          .where('user_id', '=', id)
          .where('used_at', 'is', null)
          .execute();
      // Deleted: the row stays for the audit trail's ids, its email is freed for a new account.
      if (patch.deleted === true)
        await trx
          .updateTable('users')
          .set({ email: `deleted:${id}` })
          .where('id', '=', id)
          .execute();
      return 'changed';
    });
  }

  /** Removes a user created a moment ago whose creation is undone (a setup link another spent). */
  async discard(id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('web_sessions').where('user_id', '=', id).execute();
      await trx.deleteFrom('user_workspaces').where('user_id', '=', id).execute();
      await trx.deleteFrom('users').where('id', '=', id).execute();
    });
  }

  /** Ends every browser session of the user (and so their console studio tokens). */
  async deleteSessionsOf(userId: string): Promise<void> {
    await this.db.deleteFrom('web_sessions').where('user_id', '=', userId).execute();
  }

  /** Signs the person out everywhere: browser sessions and OAuth grants (a password reset). */
  async signOutEverywhere(userId: string): Promise<void> {
    const now = new Date().toISOString();
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('web_sessions').where('user_id', '=', userId).execute();
      await revokeOAuthGrants(trx, userId, now);
    });
  }

  async setPassword(userId: string, passwordHash: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ password_hash: passwordHash, updated_at: new Date().toISOString() })
      .where('id', '=', userId)
      .execute();
  }

  async recordSignIn(userId: string, at = new Date().toISOString()): Promise<void> {
    await this.db.updateTable('users').set({ last_sign_in_at: at }).where('id', '=', userId).execute();
  }

  /** A new reset link for the user; any earlier unused one stops working (only the newest counts). */
  async createPasswordReset(tokenHash: string, userId: string, expiresAt: string): Promise<void> {
    const now = new Date().toISOString();
    await this.db
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .execute();
    await this.db
      .insertInto('password_resets')
      .values({
        token_hash: tokenHash,
        user_id: userId,
        created_at: new Date().toISOString(),
        expires_at: expiresAt,
        used_at: null,
      })
      .execute();
  }

  /** The user a live reset link is for (unused, unexpired, the user enabled), or null. */
  async passwordResetUser(tokenHash: string, now: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('password_resets')
      .innerJoin('users', 'users.id', 'password_resets.user_id')
      .select('users.id')
      .where('password_resets.token_hash', '=', tokenHash)
      .where('password_resets.used_at', 'is', null)
      .where('password_resets.expires_at', '>', now)
      .where('users.deleted_at', 'is', null)
      .where('users.disabled_at', 'is', null)
      .executeTakeFirst();
    return row?.id ?? null;
  }

  /** Spends a reset link: true for the one caller that did. */
  async redeemPasswordReset(tokenHash: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Whether any operator exists (enabled or not): the setup link is for a deployment with none. */
  async operatorExists(): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where('operator', '=', 1)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The user's workspaces in the order given at creation. */
  async workspacesOf(userId: string): Promise<UserWorkspace[]> {
    const rows = await this.db
      .selectFrom('user_workspaces')
      .innerJoin('workspaces', 'workspaces.id', 'user_workspaces.workspace_id')
      .select(['workspaces.id', 'workspaces.name', 'workspaces.suspended'])
      .where('user_workspaces.user_id', '=', userId)
      .orderBy('user_workspaces.position')
      .execute();
    return rows.map((r) => ({ id: r.id, name: r.name, suspended: Boolean(r.suspended) }));
  }

  private async withWorkspaces(row: Selectable<UsersTable>): Promise<User> {
    const memberships = await this.db
      .selectFrom('user_workspaces')
      .select('workspace_id')
      .where('user_id', '=', row.id)
      .orderBy('position')
      .execute();
    return {
      id: row.id,
      email: row.email,
      operator: Number(row.operator) === 1,
      disabled: row.disabled_at !== null,
      workspaceIds: memberships.map((m) => m.workspace_id),
      createdAt: row.created_at,
      lastSignInAt: row.last_sign_in_at,
    };
  }

  async createSession(session: {
    tokenHash: string;
    userId: string;
    csrfSecret: string;
    expiresAt: string;
  }): Promise<void> {
    await this.db
      .insertInto('web_sessions')
      .values({
        token_hash: session.tokenHash,
        user_id: session.userId,
        csrf_secret: session.csrfSecret,
        created_at: new Date().toISOString(),
        expires_at: session.expiresAt,
      })
      .execute();
  }

  /** A live session of a user who still exists. */
  async session(tokenHash: string, now: string): Promise<WebSession | null> {
    const row = await this.db
      .selectFrom('web_sessions')
      .innerJoin('users', 'users.id', 'web_sessions.user_id')
      .select(['users.id', 'users.email', 'web_sessions.csrf_secret', 'web_sessions.expires_at'])
      .where('web_sessions.token_hash', '=', tokenHash)
      .where('web_sessions.expires_at', '>', now)
      .where('users.deleted_at', 'is', null)
      .where('users.disabled_at', 'is', null)
      .executeTakeFirst();
    return row
      ? {
          tokenHash,
          userId: row.id,
          email: row.email,
          csrfSecret: row.csrf_secret,
          expiresAt: row.expires_at,
        }
      : null;
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.db.deleteFrom('web_sessions').where('token_hash', '=', tokenHash).execute();
  }

  /** Counts a failed attempt against each subject; answers the rows' ids (one per subject). */
  async recordFailure(subjects: readonly string[]): Promise<string[]> {
    const now = new Date().toISOString();
    const ids = subjects.map(() => randomToken(12));
    if (subjects.length > 0)
      await this.db
        .insertInto('signin_failures')
        .values(subjects.map((subject, i) => ({ id: ids[i] ?? randomToken(12), subject, created_at: now })))
        .execute();
    return ids;
  }

  /** Forgets these failure rows (an attempt that turned out refused or right). */
  async deleteFailures(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.db.deleteFrom('signin_failures').where('id', 'in', ids).execute();
  }

  /** Failures of a subject since `since`, leaving out the rows `except` (the attempt's own). */
  async failuresSince(
    subject: string,
    since: string,
    except: readonly string[] = [],
  ): Promise<{ count: number; newest: string | null }> {
    let query = this.db
      .selectFrom('signin_failures')
      .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.max('created_at').as('newest')])
      .where('subject', '=', subject)
      .where('created_at', '>', since);
    if (except.length > 0) query = query.where('id', 'not in', except);
    const row = await query.executeTakeFirst();
    return { count: Number(row?.count ?? 0), newest: row?.newest ?? null };
  }

  /** Forgets the failures of these subjects, and of every subject starting with `prefix`. */
  async clearFailures(subjects: readonly string[], prefix?: string): Promise<void> {
    await this.db
      .deleteFrom('signin_failures')
      .where((eb) =>
        eb.or([
          ...(subjects.length > 0 ? [eb('subject', 'in', subjects)] : []),
          ...(prefix !== undefined
            ? [eb(sql<string>`substr(subject, 1, ${prefix.length})`, '=', prefix)]
            : []),
          ...(subjects.length === 0 && prefix === undefined ? [eb.lit(false)] : []),
        ]),
      )
      .execute();
  }

  /** Drops expired sessions and failures older than `before` (an occasional sweep). */
  async sweep(now: string, failuresBefore: string): Promise<void> {
    await this.db.deleteFrom('web_sessions').where('expires_at', '<=', now).execute();
    await this.db.deleteFrom('signin_failures').where('created_at', '<=', failuresBefore).execute();
  }
}

/** Revokes every live OAuth access and refresh token of the user, and their unexchanged codes. */
async function revokeOAuthGrants(trx: Transaction<Database>, userId: string, now: string): Promise<void> {
  await trx
    .updateTable('oauth_tokens')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
  await trx.deleteFrom('oauth_codes').where('user_id', '=', userId).where('used_at', 'is', null).execute();
}
