import { USER_ROLES, type UserRole } from '../../src/shared/user';
import type { StoredSso } from '../repositories/account-sso';

/** What a person's claims make of them here, or why they may not sign in. */
export type Mapped = { role: UserRole; groups: string[] } | { refused: 'unmapped' };

/**
 * A claim's values as strings: providers send a list (`groups: ["staff", "lobby"]`), a single
 * string, or (Keycloak's roles under `realm_access`) an object; a dotted name reaches into one.
 */
export function claimValues(claims: Record<string, unknown>, name: string): string[] {
  const value =
    name in claims
      ? claims[name]
      : name.split('.').reduce<unknown>((at, key) => (isRecord(at) ? at[key] : undefined), claims);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return [String(value)];
  }
  if (Array.isArray(value)) {
    return value.filter((each) => typeof each === 'string' || typeof each === 'number').map(String);
  }
  return [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** USER_ROLES lists roles strongest first: a lower index wins. */
const strength = (role: UserRole) => USER_ROLES.indexOf(role);

/**
 * The role and screen groups of a person by the account's rules: the strongest role any of their
 * role claim's values maps to, else the default role, else refused; the groups every value of
 * their group claim maps to. An admin has the whole account, so no groups. With a group claim set
 * the account keeps people to groups, so one who is no admin and maps to no group is refused
 * rather than given the whole account (which is what no groups means).
 */
export function mapClaims(sso: StoredSso, claims: Record<string, unknown>): Mapped {
  const roles = sso.role_claim
    ? claimValues(claims, sso.role_claim).flatMap((value) =>
        Object.hasOwn(sso.role_map, value) ? [sso.role_map[value] as UserRole] : [],
      )
    : [];
  const role = roles.sort((a, b) => strength(a) - strength(b))[0] ?? sso.default_role;
  if (!role) return { refused: 'unmapped' };
  if (role === 'admin') return { role, groups: [] };
  const groups = sso.group_claim
    ? claimValues(claims, sso.group_claim).flatMap((value) =>
        Object.hasOwn(sso.group_map, value) ? [sso.group_map[value] as string] : [],
      )
    : [];
  if (sso.group_claim && groups.length === 0) return { refused: 'unmapped' };
  return { role, groups: [...new Set(groups)].sort() };
}

const LOGIN_PATTERN = /^[^\s:]{1,200}$/;

/** The login of a person made by single sign-on: their username, else their email; null if neither fits. */
export function loginOf(claims: Record<string, unknown>): string | null {
  for (const name of ['preferred_username', 'email']) {
    const value = claims[name];
    if (typeof value === 'string' && LOGIN_PATTERN.test(value)) return value;
  }
  return null;
}
