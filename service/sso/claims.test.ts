import { describe, expect, it } from 'vitest';
import type { StoredSso } from '../repositories/account-sso';
import { claimValues, loginOf, mapClaims } from './claims';

const sso: StoredSso = {
  issuer: 'https://idp.example.com',
  client_id: 'wallboard',
  client_secret: null,
  scopes: [],
  role_claim: 'realm_access.roles',
  role_map: { staff: 'viewer', editors: 'editor', ops: 'admin' },
  group_claim: 'groups',
  group_map: { lobby: 'grp_lobby', kitchen: 'grp_kitchen', 'lobby-2': 'grp_lobby' },
  default_role: null,
  sso_only: false,
  created_at: '2026-11-27T00:00:00.000Z',
  updated_at: '2026-11-27T00:00:00.000Z',
};

describe('claims', () => {
  it('are read as lists, single values or by a dotted name', () => {
    expect(claimValues({ groups: ['a', 2, { x: 1 }] }, 'groups')).toEqual(['a', '2']);
    expect(claimValues({ role: 'ops' }, 'role')).toEqual(['ops']);
    expect(claimValues({ realm_access: { roles: ['ops'] } }, 'realm_access.roles')).toEqual(['ops']);
    // A claim whose own name has a dot (Auth0's namespaced claims) is read whole first.
    expect(claimValues({ 'https://x.example/role': 'ops' }, 'https://x.example/role')).toEqual(['ops']);
    expect(claimValues({}, 'groups')).toEqual([]);
  });

  it('give the strongest role named, every group named once, and an admin the whole account', () => {
    const claims = (roles: string[], groups: string[]) => ({ realm_access: { roles }, groups });
    expect(mapClaims(sso, claims(['staff', 'editors'], ['kitchen', 'lobby', 'lobby-2', 'x']))).toEqual({
      role: 'editor',
      groups: ['grp_kitchen', 'grp_lobby'],
    });
    expect(mapClaims(sso, claims(['ops', 'staff'], ['lobby']))).toEqual({ role: 'admin', groups: [] });
  });

  it('refuse whom no rule maps, and a non-admin kept to no group', () => {
    expect(mapClaims(sso, { groups: ['lobby'] })).toEqual({ refused: 'unmapped' });
    expect(mapClaims({ ...sso, default_role: 'viewer' }, { groups: ['lobby'] })).toEqual({
      role: 'viewer',
      groups: ['grp_lobby'],
    });
    expect(mapClaims(sso, { realm_access: { roles: ['staff'] }, groups: ['x'] })).toEqual({
      refused: 'unmapped',
    });
    const wholeAccount = { ...sso, group_claim: null, group_map: {} };
    expect(mapClaims(wholeAccount, { realm_access: { roles: ['staff'] } })).toEqual({
      role: 'viewer',
      groups: [],
    });
    // `__proto__` and other inherited names are no rule.
    expect(mapClaims(sso, { realm_access: { roles: ['__proto__', 'toString'] } })).toEqual({
      refused: 'unmapped',
    });
  });

  it('make the login of the username, else of the email, if either fits a login', () => {
    expect(loginOf({ preferred_username: 'ada', email: 'ada@example.com' })).toBe('ada');
    expect(loginOf({ preferred_username: 'Ada Lovelace', email: 'ada@example.com' })).toBe('ada@example.com');
    expect(loginOf({ preferred_username: 'a:b' })).toBeNull();
  });
});
