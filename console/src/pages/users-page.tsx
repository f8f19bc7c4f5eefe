import { Badge, Button, Group, PasswordInput, Select, Stack, Table, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import {
  USER_ROLES,
  userCreateSchema,
  userRecordSchema,
  type UserRecord,
  type UserRole,
} from '../../../src/shared/user';
import { api, send } from '../api/client';
import { useUser, useWriteRefusal } from '../session/session';
import { confirmAction } from '../ui/confirm';
import { ErrorAlert } from '../ui/error-panel';
import { fieldErrorsOf, validateBy } from '../ui/form';
import { PageHeader } from '../ui/page-header';
import { SecretOnce } from '../ui/secret-once';
import { TimeAgo } from '../ui/time';
import { WriteButton } from '../ui/write-button';
import { ListTable } from '../ui/list-table';
import { EditModal } from '../ui/edit-modal';
import { SsoSettings } from './users/sso-settings';
import { GroupsField, UserGroupsCell } from './users/user-groups';

const ROLE_LABELS: Record<UserRole, string> = {
  admin: 'Admin: changes everything',
  editor: 'Editor: changes boards, media and data',
  publisher: 'Publisher: decides what plays, and when',
  viewer: 'Viewer: sees everything, changes nothing',
};
const ROLE_NAMES: Record<UserRole, string> = {
  admin: 'an admin',
  editor: 'an editor',
  publisher: 'a publisher',
  viewer: 'a viewer',
};
const ROLE_OPTIONS = USER_ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }));

/** A password to hand to someone, who changes it; 18 characters from an unambiguous alphabet. */
function generatePassword(): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join('');
}

function NewUserForm({ onCreated }: { onCreated: (login: string, password: string) => void }) {
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { login: '', password: '', role: 'viewer' as UserRole, groups: [] as string[] },
    validate: validateBy(userCreateSchema, (values) => values),
  });
  const create = useMutation({
    mutationFn: (values: z.infer<typeof userCreateSchema>) =>
      api(userRecordSchema, '/users', {
        method: 'POST',
        body: { ...values, groups: values.role === 'admin' ? [] : values.groups },
      }),
    onSuccess: (user, values) => onCreated(user.login, values.password),
    onError: (error) => form.setErrors(fieldErrorsOf(error)),
  });
  return (
    <form onSubmit={form.onSubmit((values) => create.mutate(values))} noValidate>
      <Stack>
        {create.error && <ErrorAlert error={create.error} details={false} />}
        <TextInput
          label="Login"
          description="A name or an email"
          key={form.key('login')}
          {...form.getInputProps('login')}
        />
        <Group align="flex-end" gap="xs" wrap="nowrap">
          <PasswordInput
            label="Password"
            style={{ flex: 1 }}
            key={form.key('password')}
            {...form.getInputProps('password')}
          />
          <Button variant="default" onClick={() => form.setFieldValue('password', generatePassword())}>
            Generate
          </Button>
        </Group>
        <Select
          label="Role"
          data={ROLE_OPTIONS}
          allowDeselect={false}
          key={form.key('role')}
          {...form.getInputProps('role')}
        />
        <GroupsField key={form.key('groups')} {...form.getInputProps('groups')} />
        <Button type="submit" loading={create.isPending}>
          Add the user
        </Button>
      </Stack>
    </form>
  );
}

function UserRow({ user, onPassword }: { user: UserRecord; onPassword: (user: UserRecord) => void }) {
  const me = useUser();
  const refusal = useWriteRefusal();
  const canWrite = refusal === null;
  const change = useMutation({
    mutationFn: (role: UserRole) =>
      api(userRecordSchema, `/users/${encodeURIComponent(user.id)}`, { method: 'PATCH', body: { role } }),
  });
  const remove = useMutation({
    mutationFn: () => send(`/users/${encodeURIComponent(user.id)}`, { method: 'DELETE' }),
  });
  const askRemove = async () => {
    const sure = await confirmAction({
      title: `Remove ${user.login}?`,
      body: `${user.login} is signed out everywhere and can no longer sign in.`,
      confirm: 'Remove the user',
    });
    if (sure) remove.mutate();
  };
  // A role is a grant: asked first, in words, like a removal, so a slip of the list does not
  // make someone an admin.
  const askRole = async (role: UserRole) => {
    const make = `Make ${user.login} ${ROLE_NAMES[role]}`;
    const sure = await confirmAction({
      title: `${make}?`,
      body: `${user.login} becomes ${ROLE_LABELS[role].toLowerCase()}, from their next request on.`,
      confirm: make,
    });
    if (sure) change.mutate(role);
  };
  const error = change.error ?? remove.error;
  return (
    <Table.Tr>
      <Table.Td>
        {user.login}
        {user.id === me.id && ' (you)'}
        {user.sso && (
          <Badge ml="xs" variant="light" title="Signs in through the identity provider; has no password">
            single sign-on
          </Badge>
        )}
        {error && <ErrorAlert error={error} />}
      </Table.Td>
      <Table.Td>
        <Select
          aria-label={`Role of ${user.login}`}
          data={USER_ROLES.map((role) => ({ value: role, label: role }))}
          value={user.role}
          allowDeselect={false}
          disabled={!canWrite || change.isPending}
          title={refusal ?? undefined}
          onChange={(role) => role && role !== user.role && void askRole(role as UserRole)}
          w={120}
        />
      </Table.Td>
      <Table.Td>
        <UserGroupsCell user={user} />
      </Table.Td>
      <Table.Td>
        <TimeAgo iso={user.created_at} />
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          <WriteButton
            size="xs"
            variant="subtle"
            onClick={() => onPassword(user)}
            disabled={user.sso}
            aria-label={`New password for ${user.login}`}
          >
            New password
          </WriteButton>
          <WriteButton
            size="xs"
            variant="subtle"
            color="red"
            onClick={() => void askRemove()}
            aria-label={`Remove ${user.login}`}
          >
            Remove
          </WriteButton>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

function NewPassword({ user, onDone }: { user: UserRecord; onDone: () => void }) {
  const [password] = useState(generatePassword);
  const set = useMutation({
    mutationFn: () =>
      api(userRecordSchema, `/users/${encodeURIComponent(user.id)}`, { method: 'PATCH', body: { password } }),
  });
  if (set.isSuccess) {
    return (
      <Stack>
        <SecretOnce secret={password} what={`new password of ${user.login}`} />
        <Button onClick={onDone}>Done</Button>
      </Stack>
    );
  }
  return (
    <Stack>
      {set.error && <ErrorAlert error={set.error} />}A new password is generated for {user.login}, who is
      signed out everywhere.
      <Button onClick={() => set.mutate()} loading={set.isPending}>
        Set a new password
      </Button>
    </Stack>
  );
}

export default function UsersPage() {
  const users = useQuery({ queryKey: ['users'], queryFn: () => api(z.array(userRecordSchema), '/users') });
  const [adding, { open, close }] = useDisclosure();
  const [created, setCreated] = useState<{ login: string; password: string } | null>(null);
  const [resetting, setResetting] = useState<UserRecord | null>(null);
  const closeAdding = () => {
    close();
    setCreated(null);
  };
  return (
    <>
      <PageHeader
        title="Users"
        description="People who sign in to this console. Admins change everything, editors the content, publishers what plays; viewers only look. Anyone but an admin may be kept to some screen groups."
        actions={<WriteButton onClick={open}>Add a user</WriteButton>}
      />
      {users.error && <ErrorAlert error={users.error} title="The users could not be listed" />}
      <ListTable
        label="The users"
        minWidth={800}
        columns={['Login', 'Role', 'Screen groups', 'Added']}
        actions
      >
        {users.data?.map((user) => (
          <UserRow key={user.id} user={user} onPassword={setResetting} />
        ))}
      </ListTable>
      <SsoSettings />
      <EditModal opened={adding} onClose={closeAdding} title={created ? 'User added' : 'Add a user'}>
        {created ? (
          <Stack>
            <SecretOnce secret={created.password} what={`password of ${created.login}`} />
            <Button onClick={closeAdding}>Done</Button>
          </Stack>
        ) : (
          <NewUserForm onCreated={(login, password) => setCreated({ login, password })} />
        )}
      </EditModal>
      <EditModal opened={resetting !== null} onClose={() => setResetting(null)} title="New password">
        {resetting && <NewPassword user={resetting} onDone={() => setResetting(null)} />}
      </EditModal>
    </>
  );
}
