import { holdQuota } from '../accounts/quotas';
import { acrossAccounts } from '../accounts/scope';
import type { ServiceContext } from '../context';
import { transact, type Database, type Queryable } from '../db/database';
import { conflict, invalid, notFound } from '../domain/errors';
import { DUMMY_HASH, hashPassword, MIN_PASSWORD_LENGTH, verifyPassword } from '../domain/passwords';
import { hashSecret, newSecret } from '../http/auth';
import { GroupRepository } from '../repositories/groups';
import { SessionRepository, type SessionWithUser } from '../repositories/sessions';
import { SignInCodeRepository } from '../repositories/sign-in-codes';
import { SsoFlowRepository } from '../repositories/sso-flows';
import { publicUser, UserRepository, type Role, type StoredUser, type User } from '../repositories/users';
import { withPasswordsAllowed } from '../sso/sso-only';

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

/**
 * Invalid unless every group of `groups` is one of the account's, or when an admin is given any
 * (an admin has the whole account): what a user's role is kept to must exist.
 */
async function checkGroups(db: Queryable, role: Role, groups: readonly string[]): Promise<void> {
  if (groups.length === 0) return;
  if (role === 'admin') {
    throw invalid('an admin has the whole account: give no groups, or another role', [
      { path: 'groups', message: 'must be empty for an admin' },
    ]);
  }
  const known = new Set((await new GroupRepository(db).list()).map((group) => group.id));
  const index = groups.findIndex((id) => !known.has(id));
  if (index >= 0) {
    throw invalid(`group ${groups[index]} does not exist`, [
      { path: `groups.${index}`, message: 'must be a group of this account' },
    ]);
  }
}

/**
 * Invalid for a bad login, a short password or an unknown group; conflict when the login is
 * taken; past the users quota, refused.
 */
export async function createUser(
  db: Queryable,
  input: { login: string; password: string; role: Role; groups?: readonly string[] },
): Promise<User> {
  checkLogin(input.login);
  checkPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  const groups = [...new Set(input.groups ?? [])];
  const user = await transact(db, async (tx) => {
    await checkGroups(tx, input.role, groups);
    await holdQuota(tx, 'users');
    return new UserRepository(tx).create({ login: input.login, role: input.role, passwordHash, groups });
  });
  return publicUser(user);
}

export async function listUsers(db: Queryable): Promise<User[]> {
  return (await new UserRepository(db).list()).map(publicUser);
}

/** Every user of every account, each with its account: the command line's `user list`. */
export async function listUsersOfEveryAccount(db: Queryable): Promise<(User & { account_id: string })[]> {
  const users = await acrossAccounts(() => new UserRepository(db).list());
  return users.map((user) => ({ ...publicUser(user), account_id: user.account_id }));
}

/** Deletes the user and, with it, its sessions. Not found when there is none (userByLogin). */
export async function deleteUser(db: Queryable, login: string): Promise<void> {
  const user = await userByLogin(db, login);
  if (!(await new UserRepository(db).deleteById(user.id))) throw notFound(`user ${login}`);
}

/** Sets a new password and ends the user's sessions: whoever knew the old one is signed out. */
export async function setPassword(db: Database, login: string, password: string, now: Date): Promise<void> {
  checkPassword(password);
  const hash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const user = await new UserRepository(tx).update(
      (await userByLogin(tx, login)).id,
      { passwordHash: hash },
      now,
    );
    if (!user) throw notFound(`user ${login}`);
    await new SessionRepository(tx).deleteOfUser(user.id);
  });
}

/** The console's route (routes/users.ts): createUser, and the consoles hear of it. */
export async function addUser(
  ctx: ServiceContext,
  input: { login: string; password: string; role: Role; groups?: readonly string[] },
): Promise<User> {
  const user = await createUser(ctx.db, input);
  await ctx.changes.publish({ type: 'console', resource: 'users', id: user.id });
  return user;
}

export const LAST_ADMIN_MESSAGE =
  'this is the last admin: make another user admin first, so that someone can still manage the service';

/** Conflict when `id` is the only admin: the service must keep someone who can manage it. */
async function keepAnAdmin(users: UserRepository, id: string): Promise<void> {
  const admins = await users.lockAdmins();
  if (admins.length === 1 && admins[0] === id) throw conflict(LAST_ADMIN_MESSAGE);
}

/**
 * Changes a user's role, groups or password (by id); null when there is none, conflict when it
 * would demote the last admin, invalid for an unknown group. A user made admin has the whole
 * account. A new password ends the user's sessions; any change cuts their sockets, which connect
 * again seeing what the new role and groups allow.
 */
export async function changeUser(
  ctx: ServiceContext,
  id: string,
  patch: { role?: Role; password?: string; groups?: readonly string[] },
): Promise<User | null> {
  if (patch.password !== undefined) checkPassword(patch.password);
  const passwordHash = patch.password === undefined ? undefined : await hashPassword(patch.password);
  const user = await ctx.changes.transaction(async (tx, emit): Promise<StoredUser | null> => {
    const users = new UserRepository(tx);
    const current = await users.findById(id);
    if (!current) return null;
    if (passwordHash !== undefined && current.sso_subject !== null) {
      throw invalid(`${current.login} signs in through single sign-on, and has no password`, [
        { path: 'password', message: 'a user of single sign-on has no password' },
      ]);
    }
    const role = patch.role ?? current.role;
    const groups =
      role === 'admin' && patch.groups === undefined ? [] : [...new Set(patch.groups ?? current.groups)];
    await checkGroups(tx, role, groups);
    if (role !== 'admin') await keepAnAdmin(users, id);
    const updated = await users.update(id, { role: patch.role, passwordHash, groups }, ctx.clock.now());
    if (!updated) return null;
    if (passwordHash !== undefined) await new SessionRepository(tx).deleteOfUser(id);
    emit({ type: 'console', resource: 'users', id });
    return updated;
  });
  if (!user) return null;
  ctx.sessionEnds.ended({ userId: id });
  return publicUser(user);
}

/** Deletes a user (by id) and its sessions, cutting their sockets; conflict for the last admin, false when there is none. */
export async function removeUser(ctx: ServiceContext, id: string): Promise<boolean> {
  const gone = await ctx.changes.transaction(async (tx, emit) => {
    const users = new UserRepository(tx);
    await keepAnAdmin(users, id);
    if (!(await users.deleteById(id))) return false;
    emit({ type: 'console', resource: 'users', id });
    return true;
  });
  if (gone) ctx.sessionEnds.ended({ userId: id });
  return gone;
}

export interface SignedIn {
  user: User;
  /** The user's account, where its sign-in is recorded. */
  accountId: string;
  /** The cookie's value: the session's secret, kept only as a hash. */
  secret: string;
  maxAgeSeconds: number;
}

/** What a sign-in by password opens: a session, or the accounts to choose from. */
export type SignInOutcome = SignedIn | { ambiguous: string[] } | null;

/**
 * A new session for `login` and `password`, or null when either is wrong. Logins are unique per
 * account, so the login may name a user in several: the password picks the one it opens, and
 * `account` (an id) picks among several it opens; without it they are answered as `ambiguous`. A
 * login that names no user still costs a password check (against a hash nothing matches), so the
 * time of the answer does not tell which logins exist. The users of one login are checked at once
 * (scrypt runs on libuv's thread pool), so a login held in a few accounts answers about as fast.
 */
export async function signIn(
  ctx: ServiceContext,
  login: string,
  password: string,
  account?: string,
): Promise<SignInOutcome> {
  const found = await new UserRepository(ctx.db).findAllByLogin(login);
  const users = account === undefined ? found : found.filter((user) => user.account_id === account);
  const checks = users.length ? users.map((user) => user.password_hash) : [DUMMY_HASH];
  const matches = await Promise.all(checks.map((hash) => verifyPassword(password, hash)));
  const opened = await withPasswordsAllowed(
    ctx.db,
    users.filter((_user, i) => matches[i]),
  );
  const [user, ...more] = opened;
  if (!user) return null;
  if (more.length) return { ambiguous: opened.map((each) => each.account_id) };
  return openSession(ctx, user);
}

/**
 * The one user of `login` (the command line's `user password`, `delete` and `link`): in the
 * account the caller runs in, or in the store when that finds one. Not found when there is none;
 * invalid when the login is a user of several accounts and no account was given.
 */
export async function userByLogin(db: Queryable, login: string): Promise<StoredUser> {
  const [user, ...more] = await new UserRepository(db).findAllByLogin(login);
  if (!user) throw notFound(`user ${login}`);
  if (more.length) {
    const accounts = [user, ...more].map((each) => each.account_id).join(', ');
    throw invalid(`user ${login} is in several accounts (${accounts}): give --account <id>`, [
      { path: 'account', message: `one of ${accounts}` },
    ]);
  }
  return user;
}

/** A new session of `user`. */
export async function openSession(ctx: ServiceContext, user: StoredUser): Promise<SignedIn> {
  const secret = newSecret();
  const now = ctx.clock.now();
  await new SessionRepository(ctx.db).create({
    userId: user.id,
    secretHash: hashSecret(secret),
    now,
    expiresAt: new Date(now.getTime() + SESSION_MAX_MS),
  });
  return { user: publicUser(user), accountId: user.account_id, secret, maxAgeSeconds: SESSION_MAX_MS / 1000 };
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
  if (!session) return;
  await new SessionRepository(ctx.db).delete(session.id);
  ctx.sessionEnds.ended({ sessionId: session.id });
}

/**
 * Deletes the sessions, the sign-in codes and the unfinished single sign-ons that are over
 * (jobs/sessions.ts); how many sessions. Their consoles' sockets are cut, as at a sign-out.
 */
export async function pruneSessions(ctx: ServiceContext): Promise<number> {
  const now = ctx.clock.now();
  await new SignInCodeRepository(ctx.db).prune(now);
  // Sign-ins through a provider begun and never finished (sso/sign-in.ts).
  await new SsoFlowRepository(ctx.db).prune(now);
  const ended = await new SessionRepository(ctx.db).prune(now, new Date(now.getTime() - SESSION_IDLE_MS));
  for (const sessionId of ended) ctx.sessionEnds.ended({ sessionId });
  return ended.length;
}
