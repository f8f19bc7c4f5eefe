import { Badge, Button, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import { boardSchema } from '../../../src/shared/board';
import {
  channelCreateSchema,
  channelSchema,
  channelUpdateSchema,
  type Channel,
} from '../../../src/shared/channel';
import { api, send } from '../api/client';
import { confirmAction } from '../ui/confirm';
import { ErrorAlert } from '../ui/error-panel';
import { fieldErrorsOf, validateBy } from '../ui/form';
import { ListTable } from '../ui/list-table';
import { tell } from '../ui/notify';
import { PageHeader } from '../ui/page-header';
import { WriteButton } from '../ui/write-button';
import { EditModal } from '../ui/edit-modal';

const channelsQuery = {
  queryKey: ['channels'],
  queryFn: () => api(z.array(channelSchema), '/channels'),
};

interface ChannelFields {
  name: string;
  tag: string;
  parent_channel_id: string;
}

const toBody = (values: ChannelFields) => ({
  name: values.name,
  // Left empty, the service makes the tag from the name.
  tag: values.tag.trim() === '' ? undefined : values.tag.trim(),
  parent_channel_id: values.parent_channel_id || undefined,
});

/** Creating (with a parent) or editing (name and tag) one channel. */
function ChannelForm({
  channel,
  channels,
  onDone,
}: {
  channel: Channel | null;
  channels: readonly Channel[];
  onDone: () => void;
}) {
  const queries = useQueryClient();
  const form = useForm<ChannelFields>({
    initialValues: {
      name: channel?.name ?? '',
      tag: channel?.tag ?? '',
      parent_channel_id: channel ? '' : (channels.find((one) => one.type === 'default')?.id ?? ''),
    },
    validate: validateBy(channel ? channelUpdateSchema : channelCreateSchema, (values) =>
      channel ? { name: values.name, tag: toBody(values).tag } : toBody(values),
    ),
  });
  const save = useMutation({
    mutationFn: (values: ChannelFields) =>
      channel
        ? api(channelSchema, `/channels/${encodeURIComponent(channel.id)}`, {
            method: 'PATCH',
            body: { name: values.name, tag: toBody(values).tag },
          })
        : api(channelSchema, '/channels', { method: 'POST', body: toBody(values) }),
    onSuccess: (saved) => {
      tell(`Channel "${saved.name}" saved`, 'green');
      void queries.invalidateQueries({ queryKey: ['channels'] });
      onDone();
    },
    onError: (error) => form.setErrors(fieldErrorsOf(error)),
  });
  return (
    <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
      <Stack>
        {save.error && <ErrorAlert error={save.error} />}
        <TextInput label="Name" required data-autofocus {...form.getInputProps('name')} />
        <TextInput
          label="Tag"
          description="What scripts and the API name it by; made from the name when left empty"
          {...form.getInputProps('tag')}
        />
        {!channel && (
          <Select
            label="Based on"
            description="A new channel is a virtual one: it also shows what its parent shows"
            data={channels.map((one) => ({ value: one.id, label: one.name }))}
            allowDeselect={false}
            {...form.getInputProps('parent_channel_id')}
          />
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            {channel ? 'Save' : 'Create the channel'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * The channels notifications go to: a board shows the notifications of the channels it follows
 * (chosen in the board's settings), so a channel is how a message reaches some screens and not
 * others.
 */
export default function ChannelsPage() {
  const channels = useQuery(channelsQuery);
  const boards = useQuery({ queryKey: ['boards'], queryFn: () => api(z.array(boardSchema), '/boards') });
  const queries = useQueryClient();
  const [editing, setEditing] = useState<Channel | 'new' | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) => send(`/channels/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSettled: () =>
      Promise.all(['channels', 'boards'].map((key) => queries.invalidateQueries({ queryKey: [key] }))),
  });
  const all = channels.data ?? [];
  const nameOf = (id: string | null) => all.find((channel) => channel.id === id)?.name ?? '—';
  const followers = (id: string) =>
    (boards.data ?? []).filter((board) => board.channel_ids.includes(id)).map((board) => board.name);
  const askDelete = async (channel: Channel) => {
    const sure = await confirmAction({
      title: `Delete the channel “${channel.name}”?`,
      body: 'Its virtual channels and its notifications go with it; boards that follow it stop showing them.',
      confirm: 'Delete the channel',
    });
    if (sure) remove.mutate(channel.id);
  };
  return (
    <>
      <PageHeader
        title="Channels"
        description="Where notifications go: each board shows the notifications of the channels it follows (in the board's settings)."
        actions={<WriteButton onClick={() => setEditing('new')}>New channel</WriteButton>}
      />
      <EditModal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' || editing === null ? 'New channel' : `Edit “${editing.name}”`}
      >
        <ChannelForm
          channel={editing === 'new' ? null : editing}
          channels={all}
          onDone={() => setEditing(null)}
        />
      </EditModal>
      {channels.error && <ErrorAlert error={channels.error} title="The channels could not be listed" />}
      {remove.error && <ErrorAlert error={remove.error} title="The channel was not deleted" />}
      <ListTable
        label="Channels"
        minWidth={640}
        columns={['Name', 'Tag', 'Based on', 'Boards following it']}
        actions
      >
        {all.map((channel) => (
          <Table.Tr key={channel.id}>
            <Table.Td>
              {channel.name}{' '}
              {channel.type === 'default' && (
                <Badge variant="light" size="sm">
                  default
                </Badge>
              )}
            </Table.Td>
            <Table.Td>
              <Text size="sm" ff="monospace">
                {channel.tag}
              </Text>
            </Table.Td>
            <Table.Td>{nameOf(channel.parent_channel_id)}</Table.Td>
            <Table.Td>{followers(channel.id).join(', ') || '—'}</Table.Td>
            <Table.Td>
              <Group gap={4} wrap="nowrap">
                <WriteButton
                  size="compact-sm"
                  variant="subtle"
                  aria-label={`Edit ${channel.name}`}
                  onClick={() => setEditing(channel)}
                >
                  Edit
                </WriteButton>
                {channel.type !== 'default' && (
                  <WriteButton
                    size="compact-sm"
                    variant="subtle"
                    color="red"
                    aria-label={`Delete ${channel.name}`}
                    onClick={() => void askDelete(channel)}
                  >
                    Delete
                  </WriteButton>
                )}
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
    </>
  );
}
