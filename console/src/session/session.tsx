import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { userSchema, type User } from '../../../src/shared/user';
import { api, ApiError, whenSignedOut } from '../api/client';

const SESSION_KEY = ['session'] as const;
const SignedIn = createContext<User | null>(null);

/** The signed-in user, or null while signed out; its query is the only one kept without a session. */
export function useSessionQuery() {
  return useQuery({
    queryKey: SESSION_KEY,
    queryFn: async () => {
      try {
        return await api(userSchema, '/session');
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: Infinity,
  });
}

/**
 * Shows the sign-in page and forgets everything else cached: after signing out or when the
 * session ended. The session's own query is set, not removed: the page observes it.
 */
export function forgetSession(queries: QueryClient): void {
  queries.setQueryData(SESSION_KEY, null);
  queries.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_KEY[0] });
}

export function useSignedOutHandler(): void {
  const queries = useQueryClient();
  useEffect(() => whenSignedOut(() => forgetSession(queries)), [queries]);
}

export function SessionProvider({ user, children }: { user: User; children: ReactNode }) {
  return <SignedIn.Provider value={user}>{children}</SignedIn.Provider>;
}

export function useUser(): User {
  const user = useContext(SignedIn);
  if (!user) throw new Error('useUser outside a signed-in page');
  return user;
}

/** Whether the signed-in user may change things; a viewer sees everything and changes nothing. */
export function useCanWrite(): boolean {
  return useUser().role === 'admin';
}

export const SESSION_QUERY_KEY = SESSION_KEY;
