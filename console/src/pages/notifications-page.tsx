import { Alert, Grid, NumberInput, Select, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { z } from 'zod';
import { channelSchema } from '../../../src/shared/channel';
import { mediaSchema } from '../../../src/shared/media';
import {
  NOTIFICATION_DEFAULT_DURATION,
  NOTIFICATION_TEXT_MAX,
  notificationCreateSchema,
  notificationSchema,
} from '../../../src/shared/notification';
import { api } from '../api/client';
import { useCanWrite } from '../session/session';
import { ErrorAlert } from '../ui/error-panel';
import { fieldErrorsOf, validateBy } from '../ui/form';
import { PageHeader } from '../ui/page-header';
import { WriteButton } from '../ui/write-button';
import { NotificationHistory } from './notifications/history';
import { tell } from '../ui/notify';
import { Loading } from '../ui/loading';

// The icon pack (and the renderer's banner, which draws icons by name) is the heavy part of this
// page: loaded after the form is on screen.
const IconPicker = lazy(() => import('./notifications/icon-pack'));
const BannerPreview = lazy(() => import('./notifications/banner-preview'));

const NO_SOUND = 'none';

interface NotificationFields {
  channel_id: string;
  title: string;
  message: string;
  icon: string;
  duration: number | string;
  sound: string;
}

const toBody = (values: NotificationFields) => ({
  title: values.title || undefined,
  message: values.message || undefined,
  icon: values.icon || undefined,
  duration: values.duration === '' ? undefined : Number(values.duration),
  sound_url: values.sound === NO_SOUND ? undefined : values.sound,
});

export default function NotificationsPage() {
  const canWrite = useCanWrite();
  const queries = useQueryClient();
  const channels = useQuery({
    queryKey: ['channels'],
    queryFn: () => api(z.array(channelSchema), '/channels'),
  });
  const sounds = useQuery({
    queryKey: ['media'],
    queryFn: () => api(z.array(mediaSchema), '/media'),
    select: (media) => media.filter((medium) => medium.kind === 'sound'),
  });
  const form = useForm<NotificationFields>({
    initialValues: {
      channel_id: 'ch_default',
      title: '',
      message: '',
      icon: '',
      duration: NOTIFICATION_DEFAULT_DURATION,
      sound: NO_SOUND,
    },
    validate: validateBy(notificationCreateSchema, toBody),
  });
  const send = useMutation({
    mutationFn: (values: NotificationFields) =>
      api(notificationSchema, `/channels/${encodeURIComponent(values.channel_id)}/notifications`, {
        method: 'POST',
        body: toBody(values),
      }),
    onSuccess: (sent) => {
      tell(`Sent "${sent.title ?? 'a sound'}"`, 'green');
      form.setValues({ title: '', message: '', icon: '' });
      void queries.invalidateQueries({ queryKey: ['notifications'] });
    },
    onError: (error) => form.setErrors(fieldErrorsOf(error)),
  });
  const soundOptions = [
    { value: NO_SOUND, label: 'No sound' },
    { value: 'default', label: 'The default sound' },
    ...(sounds.data ?? []).map((medium) => ({ value: medium.url, label: `Library: ${medium.name}` })),
  ];
  const channelName = new Map(channels.data?.map((channel) => [channel.id, channel.name]));
  return (
    <>
      <PageHeader
        title="Notifications"
        description="Banners at the bottom of the screens whose boards use the channel, with an optional sound."
      />
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, md: 6 }}>
          <form onSubmit={form.onSubmit((values) => send.mutate(values))} noValidate aria-label="Compose">
            <Stack>
              <Title order={2} size="h4">
                Compose
              </Title>
              {send.error && <ErrorAlert error={send.error} />}
              {channels.error && (
                <ErrorAlert error={channels.error} title="The channels could not be listed" />
              )}
              <Select
                label="Channel"
                description="Every board showing this channel shows the banner"
                data={(channels.data ?? []).map((channel) => ({
                  value: channel.id,
                  label: `${channel.name} (${channel.tag})`,
                }))}
                allowDeselect={false}
                disabled={!canWrite}
                {...form.getInputProps('channel_id')}
              />
              <TextInput
                label="Title"
                maxLength={NOTIFICATION_TEXT_MAX}
                disabled={!canWrite}
                {...form.getInputProps('title')}
              />
              <Textarea
                label="Message"
                autosize
                minRows={2}
                maxLength={NOTIFICATION_TEXT_MAX}
                disabled={!canWrite}
                {...form.getInputProps('message')}
              />
              <Suspense fallback={<Loading size="sm" label="Loading the icons" />}>
                <IconPicker
                  value={form.values.icon}
                  onChange={(icon) => form.setFieldValue('icon', icon)}
                  error={form.errors.icon as string | undefined}
                  disabled={!canWrite}
                />
              </Suspense>
              <NumberInput
                label="Duration"
                description="Seconds on screen"
                min={1}
                max={86400}
                allowDecimal={false}
                disabled={!canWrite}
                {...form.getInputProps('duration')}
              />
              <Select
                label="Sound"
                description={
                  sounds.error
                    ? 'The library could not be listed: library sounds are not offered'
                    : 'Played as the banner appears; upload sounds in the media library'
                }
                data={soundOptions}
                allowDeselect={false}
                disabled={!canWrite}
                {...form.getInputProps('sound')}
              />
              {/* The schema's rule for the whole body, said in the form's own words. */}
              {form.errors[''] && (
                <Alert color="red" role="alert">
                  Give a title and a message, or a sound, or all three.
                </Alert>
              )}
              <WriteButton type="submit" loading={send.isPending}>
                Send
              </WriteButton>
            </Stack>
          </form>
        </Grid.Col>
        {/* On a phone the preview comes first, above the fields it follows. */}
        <Grid.Col span={{ base: 12, md: 6 }} order={{ base: -1, md: 1 }}>
          <Stack>
            <Title order={2} size="h4">
              Preview
            </Title>
            <Suspense fallback={<Loading size="sm" label="Loading the preview" />}>
              <BannerPreview
                draft={{ title: form.values.title, message: form.values.message, icon: form.values.icon }}
              />
            </Suspense>
          </Stack>
        </Grid.Col>
      </Grid>
      <NotificationHistory channelName={channelName} />
    </>
  );
}
