import type { ServiceContext } from '../context';
import type { Database, Queryable } from '../db/database';
import { invalid, notFound } from '../domain/errors';
import { DUMMY_HASH, hashPassword, MIN_PASSWORD_LENGTH, verifyPassword } from '../domain/passwords';
import { hashSecret, newSecret } from '../http/auth';
import { SessionRepository, type SessionWithUser } from '../repositories/sessions';
import { publicUser, UserRepository, type Role, type User } from '../repositories/users';

/** A session unused for this long is over: a browser left signed in on a shared desk stops working. */
export const SESSION_IDLE_MS = 12 * 60 * 60_000;
/** However much it is used, a session is over this long after sign-in. */
export const SESSION_MAX_MS = 7 * 24 * 60 * 60_000;
/** `last_seen_at` is written at most this often, not on every request. */
const SESSION_TOUCH_MS = 60_000;

const LOGIN_PATTERN = /^[^\s:]{1,200}$/;

function checkLogin(login: string): void {
  if (!LOGIN_PATTERN.test(login)) {
    throw invalid('a login is a name or email of 1 to 200 characters without spaces or colons', [
      { path: 'login', message: 'must be 1 to 200 characters without spaces or colons' },
    ]);
  }
}

function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH || password.length > 1024) {
    throw invalid(`a password has ${MIN_PASSWORD_LENGTH} to 1024 characters`, [
      { path: 'password', message: `must have ${MIN_PASSWORD_LENGTH} to 1024 characters` },
    ]);
  }
}

/** Invalid for a bad login or a short password; conflict when the login is taken. */
export async function createUser(
  db: Queryable,
  input: { login: string; password: string; role: Role },
): Promise<User> {
  checkLogin(input.login);
  checkPassword(input.password);
  const user = await new UserRepository(db).create({
    login: input.login,
    role: input.role,
    passwordHash: await hashPassword(input.password),
  });
  return publicUser(user);
}

export async function listUsers(db: Queryable): Promise<User[]> {
  return (await new UserRepository(db).list()).map(publicUser);
}

/** Deletes the user and, with it, its sessions. Not found when there is none. */
export async function deleteUser(db: Queryable, login: string): Promise<void> {
  if (!(await new UserRepository(db).delete(login))) throw notFound(`user ${login}`);
}

/** Sets a new password and ends the user's sessions: whoever knew the old one is signed out. */
export async function setPassword(db: Database, login: string, password: string, now: Date): Promise<void> {
  checkPassword(password);
  const hash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const user = await new UserRepository(tx).setPassword(login, hash, now);
    if (!user) throw notFound(`user ${login}`);
    await new SessionRepository(tx).deleteOfUser(user.id);
  });
}

export interface SignedIn {
  user: User;
  /** The cookie's value: the session's secret, kept only as a hash. */
  secret: string;
  maxAgeSeconds: number;
}

/**
 * A new session for `login` and `password`, or null when either is wrong. A login that names no
 * user still costs a password check (against a hash nothing matches), so the time of the answer
 * does not tell which logins exist.
 */
export async function signIn(ctx: ServiceContext, login: string, password: string): Promise<SignedIn | null> {
  const user = await new UserRepository(ctx.db).findByLogin(login);
  const matches = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
  if (!user || !matches) return null;
  const secret = newSecret();
  const now = ctx.clock.now();
  await new SessionRepository(ctx.db).create({
    userId: user.id,
    secretHash: hashSecret(secret),
    now,
    expiresAt: new Date(now.getTime() + SESSION_MAX_MS),
  });
  return { user: publicUser(user), secret, maxAgeSeconds: SESSION_MAX_MS / 1000 };
}

/** The live session of `secret`, or null (unknown, idle too long, or past its end). */
export async function sessionOf(ctx: ServiceContext, secret: string): Promise<SessionWithUser | null> {
  const sessions = new SessionRepository(ctx.db);
  const session = await sessions.findByHash(hashSecret(secret));
  if (!session) return null;
  const now = ctx.clock.now().getTime();
  const lastSeen = new Date(session.last_seen_at).getTime();
  if (now >= new Date(session.expires_at).getTime() || now - lastSeen >= SESSION_IDLE_MS) return null;
  if (now - lastSeen >= SESSION_TOUCH_MS) {
    await sessions.touch(session.id, new Date(now));
    session.last_seen_at = new Date(now).toISOString();
  }
  return session;
}

/** Ends the session of `secret`, if there is one. */
export async function signOut(ctx: ServiceContext, secret: string): Promise<void> {
  const session = await new SessionRepository(ctx.db).findByHash(hashSecret(secret));
  if (session) await new SessionRepository(ctx.db).delete(session.id);
}

/** Deletes the sessions that are over (jobs/sessions.ts); how many. */
export function pruneSessions(ctx: ServiceContext): Promise<number> {
  const now = ctx.clock.now();
  return new SessionRepository(ctx.db).prune(now, new Date(now.getTime() - SESSION_IDLE_MS));
}
