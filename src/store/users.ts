/**
 * People who sign in (OAuth consent): users with their password hash and workspaces, their browser
 * sessions (kept as the SHA-256 of the cookie value, with an expiry) and the sign-in failures the
 * brute-force limits count. Plain data in and out: the rules live in src/people.
 */
import type { Kysely, Selectable } from 'kysely';
import { newId, randomToken } from '../core/ids.ts';
import type { Database, UsersTable } from './schema.ts';

export interface User {
  id: string;
  email: string;
  /** Manages every workspace and the users (the console); a member sees only `workspaceIds`. */
  operator: boolean;
  workspaceIds: string[];
  createdAt: string;
}

export interface UserWorkspace {
  id: string;
  name: string;
  suspended: boolean;
}

export interface WebSession {
  userId: string;
  email: string;
  csrfSecret: string;
  expiresAt: string;
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
      workspaceIds: input.workspaceIds,
      createdAt: now,
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

  /** The user's id and password hash, for sign-in. */
  async credentialsOf(email: string): Promise<{ id: string; passwordHash: string } | null> {
    const row = await this.db
      .selectFrom('users')
      .select(['id', 'password_hash'])
      .where('email', '=', email)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row ? { id: row.id, passwordHash: row.password_hash } : null;
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
      workspaceIds: memberships.map((m) => m.workspace_id),
      createdAt: row.created_at,
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
      .executeTakeFirst();
    return row
      ? { userId: row.id, email: row.email, csrfSecret: row.csrf_secret, expiresAt: row.expires_at }
      : null;
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.db.deleteFrom('web_sessions').where('token_hash', '=', tokenHash).execute();
  }

  async recordFailure(subjects: readonly string[]): Promise<void> {
    const now = new Date().toISOString();
    for (const subject of subjects)
      await this.db
        .insertInto('signin_failures')
        .values({ id: randomToken(12), subject, created_at: now })
        .execute();
  }

  async failuresSince(subject: string, since: string): Promise<{ count: number; oldest: string | null }> {
    const row = await this.db
      .selectFrom('signin_failures')
      .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('created_at').as('oldest')])
      .where('subject', '=', subject)
      .where('created_at', '>', since)
      .executeTakeFirst();
    return { count: Number(row?.count ?? 0), oldest: row?.oldest ?? null };
  }

  async clearFailures(subject: string): Promise<void> {
    await this.db.deleteFrom('signin_failures').where('subject', '=', subject).execute();
  }

  /** Drops expired sessions and failures older than `before` (an occasional sweep). */
  async sweep(now: string, failuresBefore: string): Promise<void> {
    await this.db.deleteFrom('web_sessions').where('expires_at', '<=', now).execute();
    await this.db.deleteFrom('signin_failures').where('created_at', '<=', failuresBefore).execute();
  }
}
