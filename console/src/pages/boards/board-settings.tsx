import {
  Button,
  ColorInput,
  Fieldset,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TextInput,
} from '@mantine/core';
import { useForm, type FormErrors } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { boardUpdateSchema, type Board } from '../../../../src/shared/board';
import { boardContentSchema, toContentSave, type BoardContent } from '../../../../src/shared/board-content';
import { FONT_SIZES } from '../../../../src/shared/common';
import { libraryUrlOf } from '../../../../src/shared/media';
import { THEMES } from '../../../../src/shared/theme';
import { api, ApiError } from '../../api/client';
import { useCanWrite } from '../../session/session';
import { ErrorAlert } from '../../ui/error-panel';
import { fieldErrorsOf, validateBy } from '../../ui/form';
import { WriteButton } from '../../ui/write-button';
import { mediaQuery } from '../media/media-query';
import { contentQuery } from './queries';
import { toBody, valuesOf, type SettingsValues } from './settings-values';

const THEME_OPTIONS = Object.keys(THEMES);

/**
 * The refusal's details on the form's fields; a widget the new grid would leave off the board
 * (`widgets.<n>.column`, `.width`, `.row`, `.height`) is said on Columns or Rows.
 */
function gridErrorsOf(error: unknown): FormErrors {
  const errors = fieldErrorsOf(error);
  for (const [path, message] of Object.entries(errors)) {
    const widget = /^widgets\.(\d+)\.(column|width|row|height)$/.exec(path);
    if (!widget) continue;
    const field = widget[2] === 'column' || widget[2] === 'width' ? 'columns' : 'rows';
    errors[field] ??= `widget ${Number(widget[1]) + 1}: ${String(message)}`;
  }
  return errors;
}
const SIZE_OPTIONS = [...FONT_SIZES];

/** The background choices: none, every image of the library, and the board's own URL if elsewhere. */
function useBackgroundOptions(current: string) {
  const library = useQuery(mediaQuery);
  const images = (library.data?.media ?? [])
    .filter((media) => media.kind === 'image')
    .map((media) => ({ value: libraryUrlOf(media.id), label: media.name }));
  const known = current === '' || images.some((option) => option.value === current);
  return [{ value: '', label: 'None' }, ...images, ...(known ? [] : [{ value: current, label: current }])];
}

/**
 * Every setting of the board, checked by the schema the service checks. `onDraft` hears the
 * changed settings whenever they pass (null when none), so the preview shows them before they are
 * saved. Saved with the board's content as it was loaded (`PUT /boards/:id/content`): a board
 * someone else saved meanwhile is refused, said, and never overwritten; the operator loads theirs.
 * A board saved elsewhere refills an untouched form.
 */
export function BoardSettings({
  content,
  onDraft,
}: {
  content: BoardContent;
  onDraft: (update: Partial<Board> | null) => void;
}) {
  const { board } = content;
  /**
   * The content the form was filled from, which a save is checked against: the live copy moves on
   * when someone else saves, and saving against it would overwrite their change unseen.
   */
  const base = useRef(content);
  const canWrite = useCanWrite();
  const queries = useQueryClient();
  const form = useForm<SettingsValues>({
    initialValues: valuesOf(board),
    validate: validateBy(boardUpdateSchema, toBody),
  });
  const { isDirty, setInitialValues, setValues } = form;
  const dirty = isDirty();
  useEffect(() => {
    const parsed = boardUpdateSchema.safeParse(toBody(form.values));
    onDraft(dirty && parsed.success ? parsed.data : null);
  }, [dirty, form.values, onDraft]);
  useEffect(() => {
    if (isDirty()) return;
    base.current = content;
    setInitialValues(valuesOf(content.board));
    setValues(valuesOf(content.board));
    // Refill only when the saved board changes, not on every keystroke.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [board.updated_at]);
  const backgrounds = useBackgroundOptions(form.values.background_url);
  const refill = (saved: BoardContent) => {
    base.current = saved;
    form.setInitialValues(valuesOf(saved.board));
    form.setValues(valuesOf(saved.board));
  };
  const save = useMutation({
    mutationFn: (values: SettingsValues) => {
      const loaded = toContentSave(base.current);
      return api(boardContentSchema, `/boards/${encodeURIComponent(board.id)}/content`, {
        method: 'PUT',
        body: { ...loaded, board: { ...loaded.board, ...toBody(values) } },
      });
    },
    onSuccess: (saved) => {
      queries.setQueryData(contentQuery(board.id).queryKey, saved);
      refill(saved);
      void queries.invalidateQueries({ queryKey: ['boards'] });
    },
    onError: (error) => form.setErrors(gridErrorsOf(error)),
  });
  const conflict = save.error instanceof ApiError && save.error.status === 409;
  /** Someone else's save, loaded in place of the edits (which the service refused). */
  const loadTheirs = async () => {
    const fresh = await queries.fetchQuery({ ...contentQuery(board.id), staleTime: 0 });
    refill(fresh);
    save.reset();
  };
  const disabled = !canWrite;
  return (
    <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate aria-label="Board settings">
      <Stack gap="sm">
        {save.error && (
          <ErrorAlert
            error={save.error}
            title={conflict ? 'Changed by someone else' : 'The settings were not saved'}
          />
        )}
        {conflict && (
          <Button variant="light" onClick={() => void loadTheirs()}>
            Load their version (your edits are dropped)
          </Button>
        )}
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
        <Group justify="flex-end" gap="sm">
          <Button variant="default" disabled={disabled || !dirty} onClick={form.reset}>
            Discard the changes
          </Button>
          <WriteButton type="submit" loading={save.isPending} disabled={!dirty}>
            Save the settings
          </WriteButton>
        </Group>
      </Stack>
    </form>
  );
}
