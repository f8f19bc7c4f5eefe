import type { SsoConfig, SsoConfigBody } from '../../src/shared/sso';
import type { ServiceContext } from '../context';
import { transact } from '../db/database';
import { invalid } from '../domain/errors';
import { AccountSsoRepository, type StoredSso } from '../repositories/account-sso';
import { GroupRepository } from '../repositories/groups';
import { discover, failureOf, issuerProblem } from './provider';

/** The answer of `GET /account/sso`: the client secret reduced to whether there is one. */
export function answerOf(sso: StoredSso, redirectUri: string): SsoConfig {
  const { client_secret: secret, ...rest } = sso;
  return { ...rest, has_client_secret: secret !== null, redirect_uri: redirectUri };
}

/** Rules that would keep everyone out, or name what does not exist: each refused with its field. */
async function checkRules(ctx: ServiceContext, body: SsoConfigBody): Promise<void> {
  const issues: { path: string; message: string }[] = [];
  const problem = issuerProblem(body.issuer);
  if (problem) issues.push({ path: 'body.issuer', message: problem });
  if (Object.keys(body.role_map).length > 0 && !body.role_claim) {
    issues.push({ path: 'body.role_claim', message: 'name the claim the role map reads (e.g. "roles")' });
  }
  if (body.role_claim && Object.keys(body.role_map).length === 0) {
    issues.push({ path: 'body.role_map', message: 'map at least one value of the role claim to a role' });
  }
  if (!body.default_role && Object.keys(body.role_map).length === 0) {
    issues.push({
      path: 'body.default_role',
      message: 'give a default role, or a role claim and its map: as it is, no one could sign in',
    });
  }
  if (Object.keys(body.group_map).length > 0 && !body.group_claim) {
    issues.push({ path: 'body.group_claim', message: 'name the claim the group map reads (e.g. "groups")' });
  }
  if (body.group_claim && Object.keys(body.group_map).length === 0) {
    issues.push({
      path: 'body.group_map',
      message: 'map at least one value of the group claim to a screen group',
    });
  }
  const groups = new Set((await new GroupRepository(ctx.db).list()).map((group) => group.id));
  for (const [value, group] of Object.entries(body.group_map)) {
    if (!groups.has(group)) {
      issues.push({ path: `body.group_map.${value}`, message: `no screen group ${group} in this account` });
    }
  }
  if (issues.length) {
    throw invalid(
      `the single sign-on settings are refused: ${issues.map((i) => `${i.path.slice('body.'.length)} ${i.message}`).join('; ')}`,
      issues,
    );
  }
}

/**
 * Saves the account's single sign-on once the provider answers discovery for that issuer, so
 * that a typing slip is told now rather than at the first person's sign-in.
 */
export async function saveSso(ctx: ServiceContext, body: SsoConfigBody): Promise<StoredSso> {
  await checkRules(ctx, body);
  const sso = new AccountSsoRepository(ctx.db);
  const stored = await sso.find();
  const secret = body.client_secret === undefined ? (stored?.client_secret ?? null) : body.client_secret;
  try {
    await discover({ issuer: body.issuer, client_id: body.client_id, client_secret: secret }, ctx.config);
  } catch (error) {
    const why = failureOf(error);
    throw invalid(`the issuer did not answer OpenID Connect discovery: ${why}`, [
      { path: 'body.issuer', message: `discovery at ${body.issuer} failed: ${why}` },
    ]);
  }
  const { client_secret: _secret, ...rest } = body;
  return transact(ctx.db, (tx) =>
    new AccountSsoRepository(tx).save({ ...rest, client_secret: secret }, ctx.clock.now()),
  );
}
