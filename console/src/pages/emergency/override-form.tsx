import { Box, ColorInput, Grid, Select, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  OVERRIDE_DEFAULT_BACKGROUND,
  OVERRIDE_MESSAGE_MAX,
  OVERRIDE_TITLE_MAX,
  overrideCreateSchema,
  overrideSchema,
} from '../../../../src/shared/override';
import {
  overrideBackground,
  paintedRgb,
  readableText,
} from '../../../../renderer/src/screen/override-colors';
import { api } from '../../api/client';
import { useCanWrite } from '../../session/session';
import { confirmAction } from '../../ui/confirm';
import { ErrorAlert } from '../../ui/error-panel';
import { fieldErrorsOf, validateBy } from '../../ui/form';
import { tell } from '../../ui/notify';
import { soundOptions, soundUrlOf } from '../../ui/sound-options';
import { WriteButton } from '../../ui/write-button';
import { groupsQuery } from '../schedules/queries';
import { useOverview } from '../screens/queries';
import { mediaQuery } from '../media/media-query';
import { WhereFields } from './where-fields';
import { targetField, targetOf, type WhereValues } from './where';
import { PreviewColumn } from '../../ui/preview-column';

const NONE = 'none';
const UNTIL_CLEARED = 'cleared';

/** How long an override lasts: until someone clears it, or so many minutes. */
const LASTS = [
  { value: UNTIL_CLEARED, label: 'Until I clear it' },
  { value: '15', label: '15 minutes' },
  { value: '60', label: '1 hour' },
  { value: '240', label: '4 hours' },
  { value: '1440', label: '1 day' },
];

interface OverrideFields extends WhereValues {
  title: string;
  message: string;
  background_color: string;
  sound: string;
  image: string;
  lasts: string;
}

const toBody = (values: OverrideFields) => ({
  title: values.title,
  message: values.message,
  target: targetOf(values),
  background_color: values.background_color || undefined,
  sound_url: soundUrlOf(values.sound),
  image_url: values.image === NONE ? undefined : values.image,
  expires_at:
    values.lasts === UNTIL_CLEARED
      ? undefined
      : new Date(Date.now() + Number(values.lasts) * 60_000).toISOString(),
});

/**
 * The form that raises an override: the message, where, how it looks, how long; a preview beside
 * it; a confirmation that says how many screens it takes over.
 */
export function OverrideForm() {
  const canWrite = useCanWrite();
  const queries = useQueryClient();
  const groups = useQuery(groupsQuery);
  const screens = useOverview();
  // The library's one cache entry, as every page that shows or picks media reads it.
  const media = useQuery({ ...mediaQuery, select: (library) => library.media });
  const form = useForm<OverrideFields>({
    initialValues: {
      title: '',
      message: '',
      where: 'all',
      group_id: '',
      device_tag: '',
      background_color: OVERRIDE_DEFAULT_BACKGROUND,
      sound: 'default',
      image: NONE,
      lasts: UNTIL_CLEARED,
    },
    validate: (values) => {
      const errors = validateBy(overrideCreateSchema, toBody)(values);
      const { target, ...rest } = Object.fromEntries(
        Object.entries(errors).map(([path, message]) => [
          path.startsWith('target') ? 'target' : path,
          message,
        ]),
      );
      return target ? { ...rest, [targetField(values)]: 'Choose where the message goes' } : rest;
    },
  });
  const reached = (values: OverrideFields) => {
    const all = screens.data ?? [];
    if (values.where === 'screen') return `the screen ${values.device_tag}`;
    if (values.where === 'group') {
      const name = groups.data?.find((group) => group.id === values.group_id)?.name ?? values.group_id;
      const count = all.filter((screen) => screen.group_id === values.group_id).length;
      return `the ${count} screen${count === 1 ? '' : 's'} of ${name}`;
    }
    return `every screen (${all.length})`;
  };
  const raise = useMutation({
    mutationFn: (values: OverrideFields) =>
      api(overrideSchema, '/overrides', { method: 'POST', body: toBody(values) }),
    onSuccess: (raised) => {
      tell(`"${raised.title}" is on screen`, 'green');
      form.reset();
      void queries.invalidateQueries({ queryKey: ['overrides'] });
    },
    onError: (error) => form.setErrors(fieldErrorsOf(error)),
  });
  const submit = async (values: OverrideFields) => {
    const sure = await confirmAction({
      title: 'Take over the screens?',
      body: `"${values.title}" replaces what plays on ${reached(values)}, and wakes those that are off, until it is cleared${values.lasts === UNTIL_CLEARED ? '' : ' or ends'}.`,
      confirm: 'Put it on screen',
    });
    if (sure) raise.mutate(values);
  };
  const images = (media.data ?? []).filter((medium) => medium.kind === 'image');
  return (
    <Grid gap="xl">
      <Grid.Col span={{ base: 12, md: 6 }}>
        <form onSubmit={form.onSubmit((values) => void submit(values))} noValidate aria-label="New override">
          <Stack>
            <Title order={2} size="h4">
              New emergency message
            </Title>
            {raise.error && <ErrorAlert error={raise.error} />}
            <TextInput
              label="Title"
              required
              maxLength={OVERRIDE_TITLE_MAX}
              disabled={!canWrite}
              {...form.getInputProps('title')}
            />
            <Textarea
              label="Message"
              required
              autosize
              minRows={3}
              maxLength={OVERRIDE_MESSAGE_MAX}
              disabled={!canWrite}
              {...form.getInputProps('message')}
            />
            <WhereFields form={form} label="Show it on" disabled={!canWrite} />
            <ColorInput
              label="Background"
              withEyeDropper={false}
              disabled={!canWrite}
              {...form.getInputProps('background_color')}
            />
            <Select
              label="Picture"
              description="Optional: an image of the media library, above the message"
              data={[
                { value: NONE, label: 'No picture' },
                ...images.map((medium) => ({ value: medium.url, label: medium.name })),
              ]}
              allowDeselect={false}
              disabled={!canWrite}
              {...form.getInputProps('image')}
            />
            <Select
              label="Sound"
              description="Played once as the message appears"
              data={soundOptions(media.data)}
              allowDeselect={false}
              disabled={!canWrite}
              {...form.getInputProps('sound')}
            />
            <Select
              label="How long"
              data={LASTS}
              allowDeselect={false}
              disabled={!canWrite}
              {...form.getInputProps('lasts')}
            />
            <WriteButton type="submit" color="red.9" loading={raise.isPending}>
              Put on screen
            </WriteButton>
          </Stack>
        </form>
      </Grid.Col>
      <PreviewColumn>
        <OverridePreview values={form.values} />
      </PreviewColumn>
    </Grid>
  );
}

/** A 16:9 sketch of what the screens show, in the chosen colour and the text colour they pick for it. */
function OverridePreview({ values }: { values: OverrideFields }) {
  const background = overrideBackground(values.background_color || null);
  return (
    <Box
      role="img"
      aria-label="How the screens show it"
      style={{
        aspectRatio: '16 / 9',
        background,
        color: readableText(paintedRgb(background)),
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'center',
        alignItems: 'center',
        textAlign: 'center',
        padding: '6%',
        borderRadius: 8,
        overflow: 'hidden',
      }}
    >
      <Text fw={800} size="xl" style={{ color: 'inherit', overflowWrap: 'anywhere' }}>
        {values.title || 'Title'}
      </Text>
      <Text size="sm" mt="xs" style={{ color: 'inherit', overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}>
        {values.message || 'The message'}
      </Text>
    </Box>
  );
}
