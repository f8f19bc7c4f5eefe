import { Badge, Button, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { AlertDestination } from '../../../../src/shared/alert';
import { send } from '../../api/client';
import { confirmAction } from '../../ui/confirm';
import { ErrorAlert } from '../../ui/error-panel';
import { ListTable } from '../../ui/list-table';
import { SecretOnce } from '../../ui/secret-once';
import { tell } from '../../ui/notify';
import { TimeAgo } from '../../ui/time';
import { WriteButton } from '../../ui/write-button';
import { DestinationForm } from './destination-form';
import { destinationPath, destinationsQuery, rulesQuery } from './queries';
import { Section } from './section';
import { destinationLabel, destinationWhere, KIND_LABEL } from './words';
import { EditModal } from '../../ui/edit-modal';

/**
 * A webhook's secret is kept as it is (signing needs it), not as a hash, yet never shown again:
 * the receiver's owner copies it now.
 */
const WEBHOOK_SECRET_NOTE =
  'Your receiver needs it to check that a message comes from Wallboard. It is not shown again: to change it, delete the destination and add it anew.';

/** Where alerts go: each destination, where it sends, how many rules use it; add and delete. */
export function Destinations() {
  const destinations = useQuery(destinationsQuery);
  const rules = useQuery(rulesQuery);
  const queries = useQueryClient();
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const close = () => {
    setAdding(false);
    setSecret(null);
  };
  const remove = useMutation({
    mutationFn: (destination: AlertDestination) =>
      send(destinationPath(destination.id), { method: 'DELETE' }),
    onSuccess: (_nothing, destination) => tell(`${destinationLabel(destination)} is deleted`, 'green'),
    onSettled: () => queries.invalidateQueries({ queryKey: ['alerts'] }),
  });
  const usedBy = (id: string) => rules.data?.filter((rule) => rule.destination_ids.includes(id)).length ?? 0;
  const askDelete = async (destination: AlertDestination) => {
    const count = usedBy(destination.id);
    const sure = await confirmAction({
      title: `Delete ${destinationLabel(destination)}?`,
      body:
        count === 0
          ? 'No rule sends to it.'
          : `${count === 1 ? 'One rule sends' : `${count} rules send`} to it; they stop sending there, and a rule with no other destination tells nobody.`,
      confirm: 'Delete the destination',
    });
    if (sure) remove.mutate(destination);
  };
  return (
    <Section
      title="Where alerts go"
      description="E-mail addresses, Slack or Teams channels, or a webhook of your own."
      action={<WriteButton onClick={() => setAdding(true)}>Add a destination</WriteButton>}
    >
      <EditModal
        opened={adding}
        onClose={close}
        title={secret ? 'Destination added' : 'New destination'}
        size="lg"
      >
        {secret ? (
          <Stack>
            <SecretOnce secret={secret} what="secret" note={WEBHOOK_SECRET_NOTE} />
            <Button onClick={close}>Done</Button>
          </Stack>
        ) : (
          <DestinationForm
            onAdded={(added, addedSecret) => {
              tell(`${destinationLabel(added)} is added`, 'green');
              void queries.invalidateQueries({ queryKey: ['alerts'] });
              if (addedSecret) setSecret(addedSecret);
              else close();
            }}
          />
        )}
      </EditModal>
      {destinations.error && (
        <ErrorAlert error={destinations.error} title="The destinations could not be listed" />
      )}
      {remove.error && <ErrorAlert error={remove.error} title="The destination was not deleted" />}
      <ListTable
        label="Destinations"
        minWidth={800}
        columns={['Name', 'Kind', 'Sends to', 'Rules', 'Added']}
        actions
      >
        {destinations.data?.map((destination) => (
          <Table.Tr key={destination.id}>
            <Table.Td>{destination.name || <Text c="dimmed">unnamed</Text>}</Table.Td>
            <Table.Td>
              <Badge variant="light" miw="max-content">
                {KIND_LABEL[destination.kind]}
              </Badge>
            </Table.Td>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{destinationWhere(destination)}</Table.Td>
            <Table.Td>{usedBy(destination.id)}</Table.Td>
            <Table.Td>
              <TimeAgo iso={destination.created_at} />
            </Table.Td>
            <Table.Td>
              <WriteButton
                size="compact-sm"
                variant="subtle"
                color="red"
                aria-label={`Delete ${destinationLabel(destination)}`}
                onClick={() => void askDelete(destination)}
              >
                Delete
              </WriteButton>
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      {destinations.data?.length === 0 && (
        <Text c="dimmed">Nowhere yet: add a destination, then a rule that sends to it.</Text>
      )}
    </Section>
  );
}
