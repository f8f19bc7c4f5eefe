import { Badge, Button, Modal, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import {
  TOKEN_SCOPES,
  tokenCreatedSchema,
  tokenCreateSchema,
  tokenSchema,
  type Token,
  type TokenCreated,
} from '../../../src/shared/token';
import { api, send } from '../api/client';
import { confirmAction } from '../ui/confirm';
import { ErrorAlert } from '../ui/error-panel';
import { fieldErrorsOf, validateBy } from '../ui/form';
import { PageHeader } from '../ui/page-header';
import { SecretOnce } from '../ui/secret-once';
import { TimeAgo } from '../ui/time';
import { WriteButton } from '../ui/write-button';
import { ListTable } from '../ui/list-table';

const SCOPE_HELP: Record<Token['scope'], string> = {
  full: 'Full: reads and changes everything',
  readonly: 'Read only: reads everything, changes nothing',
  affiliated: 'Affiliated: what a screen needs (bind it to one screen)',
};

interface TokenFields {
  name: string;
  scope: Token['scope'];
  device_tag: string;
}

const toBody = (values: TokenFields) => ({ ...values, device_tag: values.device_tag.trim() || undefined });

function CreateTokenForm({ onCreated }: { onCreated: (token: TokenCreated) => void }) {
  const form = useForm<TokenFields>({
    mode: 'uncontrolled',
    initialValues: { name: '', scope: 'readonly', device_tag: '' },
    validate: validateBy(tokenCreateSchema, toBody),
  });
  const create = useMutation({
    mutationFn: (values: TokenFields) =>
      api(tokenCreatedSchema, '/account/tokens', { method: 'POST', body: toBody(values) }),
    onSuccess: onCreated,
    onError: (error) => form.setErrors(fieldErrorsOf(error)),
  });
  return (
    <form onSubmit={form.onSubmit((values) => create.mutate(values))} noValidate>
      <Stack>
        {create.error && <ErrorAlert error={create.error} details={false} />}
        <TextInput
          label="Name"
          description="Who or what uses it"
          key={form.key('name')}
          {...form.getInputProps('name')}
        />
        <Select
          label="Scope"
          data={TOKEN_SCOPES.map((scope) => ({ value: scope, label: SCOPE_HELP[scope] }))}
          allowDeselect={false}
          key={form.key('scope')}
          {...form.getInputProps('scope')}
        />
        <TextInput
          label="Screen"
          description="The tag of the one screen an affiliated token acts for (optional)"
          key={form.key('device_tag')}
          {...form.getInputProps('device_tag')}
        />
        <Button type="submit" loading={create.isPending}>
          Create the token
        </Button>
      </Stack>
    </form>
  );
}

export default function TokensPage() {
  const tokens = useQuery({
    queryKey: ['tokens'],
    queryFn: () => api(z.array(tokenSchema), '/account/tokens'),
  });
  const [opened, { open, close }] = useDisclosure();
  const [created, setCreated] = useState<TokenCreated | null>(null);
  const revoke = useMutation({
    mutationFn: (id: string) => send(`/account/tokens/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  });
  const closeModal = () => {
    close();
    setCreated(null);
  };
  const askRevoke = async (token: Token) => {
    const sure = await confirmAction({
      title: 'Revoke this token?',
      body: `Everything that uses "${token.name || token.id}" loses access at once, screens included.`,
      confirm: 'Revoke the token',
    });
    if (sure) revoke.mutate(token.id);
  };
  return (
    <>
      <PageHeader
        title="Tokens"
        description="How machines (screens, scripts, other systems) reach the service. People sign in instead."
        actions={<WriteButton onClick={open}>New token</WriteButton>}
      />
      {tokens.error && <ErrorAlert error={tokens.error} title="The tokens could not be listed" />}
      {revoke.error && <ErrorAlert error={revoke.error} />}
      <ListTable
        label="The tokens"
        minWidth={560}
        columns={['Name', 'Scope', 'Screen', 'Created', 'Last used']}
        actions
      >
        {tokens.data?.map((token) => (
          <Table.Tr key={token.id}>
            <Table.Td>{token.name || <Text c="dimmed">unnamed</Text>}</Table.Td>
            <Table.Td>
              <Badge variant="light">{token.scope}</Badge>
            </Table.Td>
            <Table.Td>{token.device_tag ?? '—'}</Table.Td>
            <Table.Td>
              <TimeAgo iso={token.created_at} />
            </Table.Td>
            <Table.Td>
              <TimeAgo iso={token.last_used_at} />
            </Table.Td>
            <Table.Td>
              <WriteButton
                size="xs"
                variant="subtle"
                color="red"
                onClick={() => void askRevoke(token)}
                aria-label={`Revoke ${token.name || token.id}`}
              >
                Revoke
              </WriteButton>
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      {tokens.data?.length === 0 && <Text c="dimmed">No tokens yet.</Text>}
      <Modal opened={opened} onClose={closeModal} title={created ? 'Token created' : 'New token'}>
        {created ? (
          <Stack>
            <SecretOnce secret={created.token} what="token" />
            <Button onClick={closeModal}>Done</Button>
          </Stack>
        ) : (
          <CreateTokenForm onCreated={setCreated} />
        )}
      </Modal>
    </>
  );
}
