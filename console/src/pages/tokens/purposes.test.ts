// Each purpose's scope against what the service grants that scope (its own table): a token made
// for a purpose can do what the purpose says, and no more than it needs.
import { describe, expect, it } from 'vitest';
import { SCOPE_GRANTS, type Permission } from '../../../../service/http/auth';
import { bindsScreen, PURPOSES, TOKEN_PURPOSES, usageCommand } from './purposes';

const may = (purpose: keyof typeof PURPOSES, permission: Permission) =>
  SCOPE_GRANTS[PURPOSES[purpose].scope].has(permission);

describe('what a token is for picks its scope', () => {
  it('a script pushing data may write metrics and notifications, and cannot delete or make tokens', () => {
    expect(may('push', 'metrics:write')).toBe(true);
    expect(may('push', 'notifications:write')).toBe(true);
    expect(may('push', 'delete')).toBe(false);
    expect(may('push', 'tokens:write')).toBe(false);
  });

  it('a screen may register and report itself, and can be bound to it', () => {
    expect(may('screen', 'devices:write')).toBe(true);
    expect(may('screen', 'write')).toBe(false);
    expect(TOKEN_PURPOSES.filter(bindsScreen)).toEqual(['screen']);
  });

  it('reading only changes nothing', () => {
    const grants = [...SCOPE_GRANTS[PURPOSES.read.scope]];
    expect(grants.filter((permission) => permission !== 'read' && !permission.endsWith(':read'))).toEqual([]);
  });

  it('administering is the only purpose that may manage tokens and users', () => {
    expect(TOKEN_PURPOSES.filter((purpose) => may(purpose, 'tokens:write'))).toEqual(['admin']);
    expect(TOKEN_PURPOSES.filter((purpose) => may(purpose, 'users'))).toEqual(['admin']);
  });
});

describe('the command that uses a new token', () => {
  const origin = 'http://127.0.0.1:8787';

  it("pushes a flow's value with curl, the token in the header", () => {
    expect(usageCommand('push', origin, 'wb_secret', null)).toBe(
      `curl -X PATCH http://127.0.0.1:8787/flows/FLOW-TAG/metrics -H 'Authorization: Bearer wb_secret' -H 'content-type: application/json' -d '{"value": 42}'`,
    );
  });

  it('starts a screen with the client, for its tag when it is bound to one', () => {
    expect(usageCommand('screen', origin, 'wb_s', 'lobby')).toBe(
      'npm start -- --server http://127.0.0.1:8787 --token wb_s --tag lobby',
    );
    expect(usageCommand('screen', origin, 'wb_s', null)).toBe(
      'npm start -- --server http://127.0.0.1:8787 --token wb_s',
    );
  });

  it('reads with curl', () => {
    expect(usageCommand('read', origin, 'wb_r', null)).toBe(
      "curl http://127.0.0.1:8787/flows -H 'Authorization: Bearer wb_r'",
    );
  });
});
