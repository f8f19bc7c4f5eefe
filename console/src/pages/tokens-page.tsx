import { Badge, Button, Stack, Table, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import { tokenSchema, type Token, type TokenCreated } from '../../../src/shared/token';
import { api, send } from '../api/client';
import { confirmAction } from '../ui/confirm';
import { ErrorAlert } from '../ui/error-panel';
import { PageHeader } from '../ui/page-header';
import { SecretOnce } from '../ui/secret-once';
import { TimeAgo } from '../ui/time';
import { WriteButton } from '../ui/write-button';
import { ListTable } from '../ui/list-table';
import { CreateTokenForm, TokenUsage } from './tokens/create-token-form';
import type { TokenPurpose } from './tokens/purposes';
import { EditModal } from '../ui/edit-modal';

export default function TokensPage() {
  const tokens = useQuery({
    queryKey: ['tokens'],
    queryFn: () => api(z.array(tokenSchema), '/account/tokens'),
  });
  const [opened, { open, close }] = useDisclosure();
  const [created, setCreated] = useState<{ token: TokenCreated; purpose: TokenPurpose } | null>(null);
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
      <EditModal opened={opened} onClose={closeModal} title={created ? 'Token created' : 'New token'}>
        {created ? (
          <Stack>
            <SecretOnce secret={created.token.token} what="token" />
            <TokenUsage token={created.token} purpose={created.purpose} />
            <Button onClick={closeModal}>Done</Button>
          </Stack>
        ) : (
          <CreateTokenForm onCreated={(token, purpose) => setCreated({ token, purpose })} />
        )}
      </EditModal>
    </>
  );
}
