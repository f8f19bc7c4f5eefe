import { expect } from 'vitest';
import type { Script, ScriptRun } from '../../src/shared/script';
import type { TestService } from '../test-support';

/** Making a script (disabled, hourly, unless `body` says otherwise) and running it now, as the admin. */
export function scriptCalls(service: () => TestService) {
  return {
    async createScript(body: Record<string, unknown>): Promise<Script> {
      const response = await service().call('POST', '/scripts', { interval: '1h', enabled: false, ...body });
      expect(response.statusCode, response.body).toBe(201);
      return response.json();
    },
    async runNow(id: string): Promise<ScriptRun> {
      const response = await service().call('POST', `/scripts/${id}/run`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    },
  };
}
