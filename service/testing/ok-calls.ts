import { expect } from 'vitest';
import type { TestService } from '../test-support';

/**
 * Requests as the admin that must answer `status` (200 by default): each gives its JSON body, or
 * null for an empty one (204); a failure says the answer's body.
 */
export function okCalls(service: () => TestService) {
  return async <T = Record<string, unknown>>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    status = 200,
  ): Promise<T> => {
    const response = await service().call(method, url, body);
    expect(response.statusCode, response.body).toBe(status);
    return (response.body === '' ? null : response.json()) as T;
  };
}
