import { Center } from '@mantine/core';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { CONSOLE_BASE } from '../../src/shared/console-page';
import { HOME, PAGES } from './pages';
import { followPairLink } from './pages/screens/pair-link';
import { SessionProvider, useSessionQuery, useSignedOutHandler, WriteAreaProvider } from './session/session';
import { SignInPage } from './session/sign-in-page';
import { Shell } from './shell/shell';
import { ErrorPanel, NotFound, RouteError } from './ui/error-panel';
import { Loading } from './ui/loading';

// Before the router reads the address: a screen's QR code opens `/#/pair?code=…`.
followPairLink();

const router = createBrowserRouter(
  [
    {
      element: <Shell />,
      errorElement: <RouteError />,
      children: [
        { index: true, element: <Navigate to={`/${HOME}`} replace /> },
        ...PAGES.map(({ path, component: Page, area }) => ({
          path,
          element: (
            <WriteAreaProvider area={area ?? 'admin'}>
              <Page />
            </WriteAreaProvider>
          ),
        })),
        { path: 'sign-in', element: <Navigate to={`/${HOME}`} replace /> },
        { path: '*', element: <NotFound /> },
      ],
    },
  ],
  // `/` answers the console too: its routes then start at the root.
  { basename: window.location.pathname.startsWith(CONSOLE_BASE) ? CONSOLE_BASE.slice(0, -1) : '/' },
);

/** Signed in: the console; signed out: the sign-in page, whatever the address. */
export function App() {
  useSignedOutHandler();
  const session = useSessionQuery();
  if (session.isPending) {
    return (
      <Center mih="100vh">
        <Loading label="Loading" />
      </Center>
    );
  }
  if (session.isError) return <ErrorPanel error={session.error} />;
  if (!session.data) return <SignInPage />;
  return (
    <SessionProvider user={session.data}>
      <RouterProvider router={router} />
    </SessionProvider>
  );
}
