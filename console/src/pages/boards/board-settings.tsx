import {
  ColorInput,
  Fieldset,
  MultiSelect,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TextInput,
} from '@mantine/core';
import { useForm, type FormErrors } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { z } from 'zod';
import { boardUpdateSchema, type Board } from '../../../../src/shared/board';
import { channelSchema } from '../../../../src/shared/channel';
import { FONT_SIZES } from '../../../../src/shared/common';
import { libraryUrlOf } from '../../../../src/shared/media';
import { THEMES } from '../../../../src/shared/theme';
import { api } from '../../api/client';
import { useCanWrite } from '../../session/session';
import { fieldErrorsOf, validateBy } from '../../ui/form';
import { mediaQuery } from '../media/media-query';
import { toBody, valuesOf, type SettingsValues } from './settings-values';

const THEME_OPTIONS = Object.keys(THEMES);

/**
 * The refusal's details on the form's fields (`board.<field>`); a widget the new grid would leave
 * off the board (`widgets.<n>.column`, `.width`, `.row`, `.height`) is said on Columns or Rows.
 */
function gridErrorsOf(error: unknown): FormErrors {
  const errors: FormErrors = {};
  for (const [path, message] of Object.entries(fieldErrorsOf(error))) {
    errors[path.replace(/^board\./, '')] = message;
    const widget = /^widgets\.(\d+)\.(column|width|row|height)$/.exec(path);
    if (!widget) continue;
    const field = widget[2] === 'column' || widget[2] === 'width' ? 'columns' : 'rows';
    errors[field] ??= `widget ${Number(widget[1]) + 1}: ${String(message)}`;
  }
  return errors;
}
const SIZE_OPTIONS = [...FONT_SIZES];

/** The background choices: none, every image of the library, and the board's own URL if elsewhere. */
export function useBackgroundOptions(current: string) {
  const library = useQuery(mediaQuery);
  const images = (library.data?.media ?? [])
    .filter((media) => media.kind === 'image')
    .map((media) => ({ value: libraryUrlOf(media.id), label: media.name }));
  const known = current === '' || images.some((option) => option.value === current);
  return [{ value: '', label: 'None' }, ...images, ...(known ? [] : [{ value: current, label: current }])];
}

/**
 * Every setting of the board, checked by the schema the service checks. `onDraft` hears the
 * changed settings whenever they pass (null when none) and whether what is typed fails, so the
 * preview shows them before they are saved and the editor saves them with the layout. The form is
 * refilled whenever the editor's board moves on (a save, someone else's board taken in), and a
 * refused save puts the service's messages on the fields.
 */
export function BoardSettings({
  board,
  onDraft,
  saveError,
}: {
  board: Board;
  onDraft: (update: Partial<Board> | null, invalid: boolean) => void;
  saveError: unknown;
}) {
  const canWrite = useCanWrite();
  const form = useForm<SettingsValues>({
    initialValues: valuesOf(board),
    validate: validateBy(boardUpdateSchema, toBody),
  });
  const { isDirty, setInitialValues, setValues, setErrors } = form;
  const dirty = isDirty();
  useEffect(() => {
    const parsed = boardUpdateSchema.safeParse(toBody(form.values));
    onDraft(dirty && parsed.success ? parsed.data : null, !parsed.success);
  }, [dirty, form.values, onDraft]);
  useEffect(() => {
    setInitialValues(valuesOf(board));
    setValues(valuesOf(board));
    // Refill only when the editor's board changes, not on every keystroke.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [board.updated_at]);
  useEffect(() => {
    if (saveError) setErrors(gridErrorsOf(saveError));
  }, [saveError, setErrors]);
  const backgrounds = useBackgroundOptions(form.values.background_url);
  const channels = useQuery({
    queryKey: ['channels'],
    queryFn: () => api(z.array(channelSchema), '/channels'),
  });
  const disabled = !canWrite;
  return (
    <form onSubmit={(event) => event.preventDefault()} noValidate aria-label="Board settings">
      <Stack gap="sm">
        <TextInput label="Name" disabled={disabled} {...form.getInputProps('name')} />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Select
            label="Theme"
            data={THEME_OPTIONS}
            allowDeselect={false}
            disabled={disabled}
            {...form.getInputProps('theme')}
          />
          <Switch
            label="Show the board's name"
            mt={{ xs: 'xl' }}
            disabled={disabled}
            {...form.getInputProps('display_board_name', { type: 'checkbox' })}
          />
        </SimpleGrid>
        <MultiSelect
          label="Channels"
          description="The notifications of these channels show on this board (manage them under Channels)"
          data={(channels.data ?? []).map((channel) => ({ value: channel.id, label: channel.name }))}
          placeholder={form.values.channel_ids.length === 0 ? 'None: no notifications' : undefined}
          searchable
          disabled={disabled}
          {...form.getInputProps('channel_ids')}
        />
        <Fieldset legend="Grid and size" disabled={disabled}>
          <SimpleGrid cols={{ base: 2 }} spacing="sm">
            <NumberInput label="Columns" min={1} max={200} {...form.getInputProps('columns')} />
            <NumberInput label="Rows" min={1} max={200} {...form.getInputProps('rows')} />
            <NumberInput label="Width (px)" min={100} max={16384} {...form.getInputProps('size.0')} />
            <NumberInput label="Height (px)" min={100} max={16384} {...form.getInputProps('size.1')} />
            <TextInput label="Aspect ratio" {...form.getInputProps('aspect_ratio')} />
            <span />
            <NumberInput
              label="Widget margins (px)"
              min={0}
              max={100}
              {...form.getInputProps('widget_margins')}
            />
            <NumberInput
              label="Widget padding (px)"
              min={0}
              max={100}
              {...form.getInputProps('widget_padding')}
            />
          </SimpleGrid>
        </Fieldset>
        <Fieldset legend="Fonts" disabled={disabled}>
          <TextInput
            label="Font family"
            description="“normal” is the theme's own"
            mb="sm"
            {...form.getInputProps('font_family')}
          />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <Select
              label="Font size"
              data={SIZE_OPTIONS}
              allowDeselect={false}
              {...form.getInputProps('font_size')}
            />
            <Select
              label="Title size"
              data={SIZE_OPTIONS}
              allowDeselect={false}
              {...form.getInputProps('widget_title_size')}
            />
          </SimpleGrid>
        </Fieldset>
        <Fieldset legend="Colors and background" disabled={disabled}>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <ColorInput
              withEyeDropper={false}
              label="Background color"
              placeholder="the theme's"
              {...form.getInputProps('background_color')}
            />
            <Select
              label="Background image"
              data={backgrounds}
              allowDeselect={false}
              {...form.getInputProps('background_url')}
            />
            <ColorInput
              withEyeDropper={false}
              label="Widget color"
              placeholder="the theme's"
              {...form.getInputProps('widget_color')}
            />
            <ColorInput
              withEyeDropper={false}
              label="Widget title color"
              placeholder="the theme's"
              {...form.getInputProps('widget_title_color')}
            />
          </SimpleGrid>
        </Fieldset>
      </Stack>
    </form>
  );
}
