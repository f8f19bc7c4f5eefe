import {
  ActionIcon,
  Button,
  Code,
  Group,
  Paper,
  PasswordInput,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { groupSchema } from '../../../../src/shared/group';
import { ssoConfigSchema, type SsoConfig, type SsoConfigSave } from '../../../../src/shared/sso';
import { USER_ROLES, type UserRole } from '../../../../src/shared/user';
import { api, ApiError, send } from '../../api/client';
import { confirmAction } from '../../ui/confirm';
import { ErrorAlert } from '../../ui/error-panel';
import { Loading } from '../../ui/loading';
import { fieldErrorsOf } from '../../ui/form';
import { tell } from '../../ui/notify';
import { useUser } from '../../session/session';

const SSO_KEY = ['account-sso'] as const;
const ROLE_OPTIONS = USER_ROLES.map((role) => ({ value: role, label: role }));

interface Values {
  issuer: string;
  client_id: string;
  client_secret: string;
  scopes: string;
  role_claim: string;
  roles: { value: string; role: UserRole }[];
  group_claim: string;
  groups: { value: string; group: string }[];
  default_role: UserRole | '';
  sso_only: boolean;
}

const EMPTY: Values = {
  issuer: '',
  client_id: '',
  client_secret: '',
  scopes: '',
  role_claim: 'roles',
  roles: [],
  group_claim: '',
  groups: [],
  default_role: '',
  sso_only: false,
};

function valuesOf(sso: SsoConfig): Values {
  return {
    issuer: sso.issuer,
    client_id: sso.client_id,
    client_secret: '',
    scopes: sso.scopes.join(' '),
    role_claim: sso.role_claim ?? '',
    roles: Object.entries(sso.role_map).map(([value, role]) => ({ value, role })),
    group_claim: sso.group_claim ?? '',
    groups: Object.entries(sso.group_map).map(([value, group]) => ({ value, group })),
    default_role: sso.default_role ?? '',
    sso_only: sso.sso_only,
  };
}

/** The save's body: an empty secret keeps the stored one, empty rows are left out. */
function bodyOf(values: Values): SsoConfigSave {
  const rows = <T,>(list: T[], key: (row: T) => string) => list.filter((row) => key(row).trim() !== '');
  return {
    issuer: values.issuer.trim(),
    client_id: values.client_id.trim(),
    ...(values.client_secret ? { client_secret: values.client_secret } : {}),
    scopes: values.scopes.split(/\s+/).filter(Boolean),
    role_claim: values.role_claim.trim() || null,
    role_map: Object.fromEntries(rows(values.roles, (row) => row.value).map((row) => [row.value, row.role])),
    group_claim: values.group_claim.trim() || null,
    group_map: Object.fromEntries(
      rows(values.groups, (row) => row.value).map((row) => [row.value, row.group]),
    ),
    default_role: values.default_role || null,
    sso_only: values.sso_only,
  };
}

/** The account's single sign-on, or null when it has none (404). */
async function readSso(): Promise<SsoConfig | null> {
  try {
    return await api(ssoConfigSchema, '/account/sso');
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** An admin's settings of single sign-on through OpenID Connect (docs/single-sign-on.md); nothing for others. */
export function SsoSettings() {
  return useUser().role === 'admin' ? <SsoForm /> : null;
}

/**
 * The form once the settings are read, so that what the operator types is never replaced by an
 * answer arriving after it; a save or removal sets the form from what the service kept.
 */
function SsoForm() {
  const sso = useQuery({ queryKey: SSO_KEY, queryFn: readSso });
  if (sso.isPending) return <Loading label="Loading the single sign-on settings" />;
  return <SsoEditor />;
}

function SsoEditor() {
  const queries = useQueryClient();
  const sso = useQuery({ queryKey: SSO_KEY, queryFn: readSso });
  const groups = useQuery({ queryKey: ['groups'], queryFn: () => api(z.array(groupSchema), '/groups') });
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: sso.data ? valuesOf(sso.data) : EMPTY,
  });
  const showKept = (values: Values) => {
    form.setValues(values);
    form.resetDirty(values);
  };

  const save = useMutation({
    mutationFn: (values: Values) =>
      api(ssoConfigSchema, '/account/sso', { method: 'PUT', body: bodyOf(values) }),
    onSuccess: (saved) => {
      queries.setQueryData(SSO_KEY, saved);
      showKept(valuesOf(saved));
      tell('Single sign-on saved');
    },
    onError: (error) => form.setErrors(fieldErrorsOf(error)),
  });
  const remove = useMutation({
    mutationFn: () => send('/account/sso', { method: 'DELETE' }),
    onSuccess: () => {
      queries.setQueryData(SSO_KEY, null);
      showKept(EMPTY);
    },
  });
  const askRemove = async () => {
    const sure = await confirmAction({
      title: 'Turn single sign-on off?',
      body: 'Its users stay, but cannot sign in until it is set again; password users sign in again.',
      confirm: 'Turn it off',
    });
    if (sure) remove.mutate();
  };
  const groupOptions = (groups.data ?? []).map((group) => ({ value: group.id, label: group.name }));
  const { values } = form;

  return (
    <Paper withBorder p="md" mt="xl" component="section" aria-labelledby="sso-title">
      <form onSubmit={form.onSubmit((submitted) => save.mutate(submitted))} noValidate>
        <Stack>
          <Title order={2} size="h4" id="sso-title">
            Single sign-on
          </Title>
          <Text size="sm" c="dimmed">
            People sign in through your identity provider (OpenID Connect: Keycloak, Entra ID, Google, Okta…);
            the first sign-in makes their user, and each one sets their role and groups from the provider’s
            claims.
            {sso.data && (
              <>
                {' '}
                Register this redirect URI at the provider: <Code>{sso.data.redirect_uri}</Code>
              </>
            )}
          </Text>
          {(sso.error ?? save.error ?? remove.error) && (
            <ErrorAlert error={sso.error ?? save.error ?? remove.error} />
          )}
          <TextInput
            label="Issuer URL"
            placeholder="https://login.example.com/realms/staff"
            {...form.getInputProps('issuer')}
          />
          <Group grow align="flex-start">
            <TextInput label="Client ID" {...form.getInputProps('client_id')} />
            <PasswordInput
              label="Client secret"
              placeholder={
                sso.data?.has_client_secret ? 'Stored: leave empty to keep it' : 'None (public client)'
              }
              autoComplete="off"
              {...form.getInputProps('client_secret')}
            />
          </Group>
          <TextInput
            label="Extra scopes"
            description="Asked for besides openid, profile and email, space separated (e.g. groups)"
            {...form.getInputProps('scopes')}
          />
          <TextInput
            label="Role claim"
            description="The claim whose values give the role (e.g. roles, groups, realm_access.roles)"
            {...form.getInputProps('role_claim')}
          />
          {values.roles.map((row, index) => (
            <Group key={index} align="flex-end" wrap="nowrap">
              <TextInput
                label="Claim value"
                style={{ flex: 1 }}
                {...form.getInputProps(`roles.${index}.value`)}
              />
              <Select
                label="Role"
                data={ROLE_OPTIONS}
                allowDeselect={false}
                {...form.getInputProps(`roles.${index}.role`)}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Remove the role rule ${row.value}`}
                onClick={() => form.removeListItem('roles', index)}
              >
                ×
              </ActionIcon>
            </Group>
          ))}
          <Button
            variant="subtle"
            size="xs"
            onClick={() => form.insertListItem('roles', { value: '', role: 'viewer' })}
          >
            Add a role rule
          </Button>
          <Select
            label="Default role"
            description="The role of a person no rule gives one; None refuses them"
            data={[{ value: '', label: 'None: refuse them' }, ...ROLE_OPTIONS]}
            allowDeselect={false}
            {...form.getInputProps('default_role')}
          />
          <TextInput
            label="Group claim"
            description="The claim whose values keep people to screen groups (e.g. groups); empty: the whole account"
            {...form.getInputProps('group_claim')}
          />
          {values.groups.map((row, index) => (
            <Group key={index} align="flex-end" wrap="nowrap">
              <TextInput
                label="Claim value"
                style={{ flex: 1 }}
                {...form.getInputProps(`groups.${index}.value`)}
              />
              <Select
                label="Screen group"
                data={groupOptions}
                {...form.getInputProps(`groups.${index}.group`)}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Remove the group rule ${row.value}`}
                onClick={() => form.removeListItem('groups', index)}
              >
                ×
              </ActionIcon>
            </Group>
          ))}
          <Button
            variant="subtle"
            size="xs"
            onClick={() => form.insertListItem('groups', { value: '', group: groupOptions[0]?.value ?? '' })}
          >
            Add a group rule
          </Button>
          <Switch
            label="Single sign-on only: refuse passwords (sign-in links from the service machine still work)"
            {...form.getInputProps('sso_only', { type: 'checkbox' })}
          />
          <Group>
            <Button type="submit" loading={save.isPending}>
              Save single sign-on
            </Button>
            {sso.data && (
              <Button
                variant="subtle"
                color="red"
                onClick={() => void askRemove()}
                loading={remove.isPending}
              >
                Turn single sign-on off
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
