import { Alert, Grid, NumberInput, Select, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { z } from 'zod';
import { channelSchema } from '../../../src/shared/channel';
import {
  NOTIFICATION_DEFAULT_DURATION,
  NOTIFICATION_TEXT_MAX,
  notificationSchema,
  targetedNotificationCreateSchema,
} from '../../../src/shared/notification';
import { api } from '../api/client';
import { useCanWrite } from '../session/session';
import { ErrorAlert } from '../ui/error-panel';
import { fieldErrorsOf, validateBy } from '../ui/form';
import { PageHeader } from '../ui/page-header';
import { NO_SOUND, soundOptions, soundUrlOf } from '../ui/sound-options';
import { WriteButton } from '../ui/write-button';
import { NotificationHistory } from './notifications/history';
import {
  reachWords,
  targetOf,
  withTargetErrors,
  type TargetFields,
  type TargetNames,
} from './notifications/target';
import { TargetPicker } from './notifications/target-picker';
import { groupsQuery } from './schedules/queries';
import { useOverview } from './screens/queries';
import { tell } from '../ui/notify';
import { Loading } from '../ui/loading';
import { mediaQuery } from './media/media-query';
import { PreviewColumn } from '../ui/preview-column';

// The icon pack (and the renderer's banner, which draws icons by name) is the heavy part of this
// page: loaded after the form is on screen.
const IconPicker = lazy(() => import('./notifications/icon-pack'));
const BannerPreview = lazy(() => import('./notifications/banner-preview'));

interface NotificationFields extends TargetFields {
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
  sound_url: soundUrlOf(values.sound),
  target: targetOf(values),
});

export default function NotificationsPage() {
  const canWrite = useCanWrite();
  const queries = useQueryClient();
  const channels = useQuery({
    queryKey: ['channels'],
    queryFn: () => api(z.array(channelSchema), '/channels'),
  });
  const groups = useQuery(groupsQuery);
  const screens = useOverview();
  // The library's one cache entry, as every page that shows or picks media reads it.
  const media = useQuery({ ...mediaQuery, select: (library) => library.media });
  const form = useForm<NotificationFields>({
    initialValues: {
      where: 'channel',
      channel_id: 'ch_default',
      group_id: '',
      device_tag: '',
      title: '',
      message: '',
      icon: '',
      duration: NOTIFICATION_DEFAULT_DURATION,
      sound: NO_SOUND,
    },
    validate: (values) =>
      withTargetErrors(validateBy(targetedNotificationCreateSchema, toBody)(values), values),
  });
  const send = useMutation({
    mutationFn: (values: NotificationFields) =>
      api(notificationSchema, '/notifications', { method: 'POST', body: toBody(values) }),
    onSuccess: (sent) => {
      tell(`Sent "${sent.title ?? 'a sound'}"`, 'green');
      form.setValues({ title: '', message: '', icon: '' });
      void queries.invalidateQueries({ queryKey: ['notifications'] });
    },
    onError: (error) => form.setErrors(withTargetErrors(fieldErrorsOf(error), form.getValues())),
  });
  const names: TargetNames = {
    channels: new Map(channels.data?.map((channel) => [channel.id, channel.name])),
    groups: new Map(groups.data?.map((group) => [group.id, group.name])),
  };
  return (
    <>
      <PageHeader
        title="Notifications"
        description="Banners at the bottom of the screens you choose (those showing a channel, a group's, one screen or every screen), with an optional sound."
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
              <TargetPicker
                values={form.values}
                inputProps={(field) => form.getInputProps(field)}
                channels={channels.data}
                groups={groups.data}
                screens={screens.data}
                disabled={!canWrite}
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
                  media.error
                    ? 'The library could not be listed: library sounds are not offered'
                    : 'Played as the banner appears; upload sounds in the media library'
                }
                data={soundOptions(media.data)}
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
        <PreviewColumn>
          <Suspense fallback={<Loading size="sm" label="Loading the preview" />}>
            <BannerPreview
              draft={{ title: form.values.title, message: form.values.message, icon: form.values.icon }}
              reach={reachWords(form.values, names, screens.data)}
            />
          </Suspense>
        </PreviewColumn>
      </Grid>
      <NotificationHistory names={names} />
    </>
  );
}
