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

/** The part of the API a page writes (service/http/route-areas.ts): each role writes its own. */
export type WriteArea = 'content' | 'publishing' | 'admin';

const Area = createContext<WriteArea>('admin');

/** Tells the page's buttons whose changes they make (pages.tsx gives each page its area). */
export function WriteAreaProvider({ area, children }: { area: WriteArea; children: ReactNode }) {
  return <Area.Provider value={area}>{children}</Area.Provider>;
}

export const VIEWER_MESSAGE = 'Viewers can see everything but change nothing: ask an admin.';
const EDITOR_MESSAGE = 'Editors change boards, media and data, not what plays: ask a publisher or an admin.';
const PUBLISHER_MESSAGE = 'Publishers decide what plays, not the content itself: ask an editor or an admin.';
const ADMIN_AREA_MESSAGE = 'Only an admin may change this.';

/**
 * Why the signed-in user may not change what this page shows, in words, or null when they may:
 * an admin everywhere, an editor content, a publisher what plays; a viewer nothing. The service
 * refuses the same (403); the buttons say so first.
 */
export function useWriteRefusal(): string | null {
  const { role } = useUser();
  const area = useContext(Area);
  if (role === 'admin' || (role === 'editor' && area === 'content')) return null;
  if (role === 'publisher' && area === 'publishing') return null;
  if (role === 'viewer') return VIEWER_MESSAGE;
  if (area === 'admin') return ADMIN_AREA_MESSAGE;
  return role === 'editor' ? EDITOR_MESSAGE : PUBLISHER_MESSAGE;
}

/** Whether the signed-in user may change what this page shows (useWriteRefusal). */
export function useCanWrite(): boolean {
  return useWriteRefusal() === null;
}

export const SESSION_QUERY_KEY = SESSION_KEY;
