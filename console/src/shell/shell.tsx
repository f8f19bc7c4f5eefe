import { faCircle, faMoon, faRightFromBracket, faSun } from '@fortawesome/free-solid-svg-icons';
import {
  ActionIcon,
  AppShell,
  Burger,
  Group,
  Menu,
  NavLink,
  Text,
  Tooltip,
  UnstyledButton,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect, useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { accountSchema } from '../../../src/shared/account';
import { api, send } from '../api/client';
import { watchService, type Connection } from '../api/realtime';
import { PAGES } from '../pages';
import { forgetSession, useUser } from '../session/session';
import { FaIcon } from '../ui/fa-icon';
import { quotaLines } from './quota-lines';
import { Loading } from '../ui/loading';

const CONNECTION: Record<Connection, { label: string; color: string }> = {
  connecting: { label: 'Reconnecting to the service…', color: 'var(--mantine-color-yellow-6)' },
  live: { label: 'Live: changes show as they happen', color: 'var(--mantine-color-green-6)' },
  offline: { label: 'Not connected: what is shown may be out of date', color: 'var(--mantine-color-red-6)' },
};

function ConnectionDot({ state }: { state: Connection }) {
  const { label, color } = CONNECTION[state];
  return (
    <Tooltip label={label}>
      <Text component="span" c={color} fz="xs" tabIndex={0} aria-label={label} role="status">
        <FaIcon icon={faCircle} />
      </Text>
    </Tooltip>
  );
}

function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  const next = scheme === 'dark' ? 'light' : 'dark';
  return (
    <ActionIcon
      variant="default"
      size="lg"
      aria-label={`Use the ${next} theme`}
      onClick={() => setColorScheme(next)}
    >
      <FaIcon icon={scheme === 'dark' ? faSun : faMoon} />
    </ActionIcon>
  );
}

function UserMenu() {
  const user = useUser();
  const queries = useQueryClient();
  // Named only where there are several: a single-account install's is the default one.
  const account = useQuery({ queryKey: ['account'], queryFn: () => api(accountSchema, '/account') });
  const accountName = account.data && account.data.id !== 'default' ? account.data.name : null;
  const quotas = account.data ? quotaLines(account.data.quotas) : [];
  const signOut = async () => {
    await send('/session', { method: 'DELETE' }).catch(() => undefined);
    forgetSession(queries);
  };
  return (
    // Opened, it asks for the account again: what the quotas say is then up to date.
    <Menu position="bottom-end" onOpen={() => void account.refetch()}>
      <Menu.Target>
        <UnstyledButton
          aria-label={`${[user.login, user.role, accountName].filter(Boolean).join(' ')}, signed in`}
        >
          <Text size="sm" fw={500}>
            {user.login}{' '}
            <Text span c="dimmed" size="xs">
              {user.role}
            </Text>
          </Text>
          {/* On a line of its own, cut short at a phone's width rather than wrapping the header. */}
          {/* The space keeps the two lines' words apart in the button's text, as in its name. */}
          {accountName && ' '}
          {accountName && (
            <Text c="dimmed" size="xs" truncate="end" maw={160}>
              {accountName}
            </Text>
          )}
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        {quotas.length > 0 && (
          <>
            <Menu.Label>Quotas</Menu.Label>
            {quotas.map((quota) => (
              <Text key={quota.label} size="xs" px="sm" pb={4} c={quota.full ? 'red' : undefined}>
                {quota.label}: {quota.text}
              </Text>
            ))}
            <Menu.Divider />
          </>
        )}
        <Menu.Item leftSection={<FaIcon icon={faRightFromBracket} />} onClick={() => void signOut()}>
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** The frame of every signed-in page: the header, the navigation (a drawer at a phone's width) and the page. */
export function Shell() {
  const [opened, { toggle, close }] = useDisclosure();
  const [connection, setConnection] = useState<Connection>('connecting');
  const queries = useQueryClient();
  const { pathname } = useLocation();
  const { role } = useUser();
  useEffect(() => watchService(queries, setConnection), [queries]);
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Navigation" />
            <Text fw={700}>Wallboard</Text>
            <ConnectionDot state={connection} />
          </Group>
          <Group gap="sm" wrap="nowrap">
            <ColorSchemeToggle />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Pages">
        {PAGES.filter((page) => page.nav && (!page.readers || page.readers.includes(role))).map(
          ({ path, nav }) => {
            const active = pathname === `/${path}` || pathname.startsWith(`/${path}/`);
            return (
              <NavLink
                key={path}
                component={Link}
                to={`/${path}`}
                label={nav?.label}
                leftSection={nav && <FaIcon icon={nav.icon} />}
                active={active}
                aria-current={active ? 'page' : undefined}
                onClick={close}
              />
            );
          },
        )}
      </AppShell.Navbar>
      <AppShell.Main>
        <Suspense fallback={<Loading label="Loading the page" />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
