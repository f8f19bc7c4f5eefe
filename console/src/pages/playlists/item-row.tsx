import {
  faFilm,
  faGlobe,
  faGripVertical,
  faImage,
  faTableCellsLarge,
  faTrash,
} from '@fortawesome/free-solid-svg-icons';
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import {
  ActionIcon,
  Badge,
  Center,
  Box,
  Checkbox,
  Group,
  NumberInput,
  Paper,
  Select,
  Stack,
  Text,
} from '@mantine/core';
import type { Media } from '../../../../src/shared/media';
import { FaIcon } from '../../ui/fa-icon';
import { MediaThumb } from '../media/media-thumb';
import type { ItemDraft } from './draft';

export interface ItemLabel {
  /** What the operator knows it by: the board's or medium's name, or the URL. */
  title: string;
  /** The library medium it shows, for its thumbnail. */
  media?: Media;
}

interface ItemRowProps {
  item: ItemDraft;
  index: number;
  label: ItemLabel;
  /** The refusals of this item, by field (`duration`, `url`, …; '' for the item itself). */
  errors: Readonly<Record<string, string>>;
  readOnly: boolean;
  onChange: (item: ItemDraft) => void;
  onRemove: () => void;
}

const TYPE_ICON = { board: faTableCellsLarge, image: faImage, video: faFilm, web: faGlobe };

const FITS = [
  { value: 'fit', label: 'Whole (letterboxed)' },
  { value: 'cover', label: 'Fill (cropped)' },
];

const seconds = (value: string | number): number | '' => (typeof value === 'number' ? value : '');

function Duration({
  item,
  error,
  readOnly,
  onChange,
}: Omit<ItemRowProps, 'index' | 'label' | 'errors' | 'onRemove'> & { error?: string }) {
  const toEnd = item.type === 'video' && item.duration === null;
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      {item.type === 'video' && (
        <Checkbox
          label="To its end"
          checked={toEnd}
          disabled={readOnly}
          mb={8}
          onChange={(event) => onChange({ ...item, duration: event.currentTarget.checked ? null : 30 })}
        />
      )}
      {!toEnd && (
        <NumberInput
          label="Seconds"
          w={130}
          min={1}
          max={86400}
          allowDecimal={false}
          allowNegative={false}
          value={item.duration ?? ''}
          error={error}
          disabled={readOnly}
          onChange={(value) => onChange({ ...item, duration: seconds(value) } as ItemDraft)}
        />
      )}
    </Group>
  );
}

/** One item of the playlist being edited, moved by its handle (mouse, touch or keyboard). */
export function ItemRow({ item, index, label, errors, readOnly, onChange, onRemove }: ItemRowProps) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id: item.key,
    disabled: readOnly,
  });
  const style = {
    transform: CSS.Translate.toString(transform),
    transition: transition,
    position: 'relative' as const,
    zIndex: isDragging ? 1 : undefined,
  };
  const itemError = errors[''];
  const otherErrors = Object.entries(errors).filter(
    ([field]) => field !== '' && field !== 'duration' && field !== 'reload_seconds',
  );
  return (
    <Paper
      ref={setNodeRef}
      style={style}
      withBorder
      p="xs"
      shadow={isDragging ? 'md' : undefined}
      aria-label={`Item ${index + 1}: ${label.title}`}
      component="li"
    >
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={`Move ${label.title} (item ${index + 1})`}
          disabled={readOnly}
          mt={4}
          {...attributes}
          {...listeners}
          style={{ cursor: readOnly ? undefined : 'grab', touchAction: 'none' }}
        >
          <FaIcon icon={faGripVertical} />
        </ActionIcon>
        <Text size="sm" c="dimmed" mt={8} w={24} ta="right" visibleFrom="xs">
          {index + 1}
        </Text>
        <Box w={{ base: 56, xs: 72 }} style={{ flexShrink: 0, borderRadius: 4, overflow: 'hidden' }}>
          {label.media ? (
            <MediaThumb media={label.media} height={48} />
          ) : (
            <Center h={48} bg="var(--mantine-color-default-hover)" c="dimmed" fz={20}>
              <FaIcon icon={TYPE_ICON[item.type]} />
            </Center>
          )}
        </Box>
        <Stack gap="xs" style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs" wrap="nowrap">
            <Text size="sm" fw={500} truncate title={label.title}>
              {label.title}
            </Text>
            <Badge variant="light" size="xs" style={{ flexShrink: 0 }}>
              {item.type}
            </Badge>
          </Group>
          <Group gap="md" align="flex-end">
            <Duration item={item} error={errors.duration} readOnly={readOnly} onChange={onChange} />
            {item.type === 'image' && (
              <Select
                label="Fit"
                w={{ base: '100%', xs: 190 }}
                data={FITS}
                value={item.fit}
                allowDeselect={false}
                disabled={readOnly}
                onChange={(value) => onChange({ ...item, fit: value === 'cover' ? 'cover' : 'fit' })}
              />
            )}
            {item.type === 'web' && (
              <NumberInput
                label="Reload every (seconds)"
                placeholder="Never"
                w={190}
                min={10}
                max={86400}
                allowDecimal={false}
                allowNegative={false}
                value={item.reload_seconds ?? ''}
                error={errors.reload_seconds}
                disabled={readOnly}
                onChange={(value) =>
                  onChange({ ...item, reload_seconds: typeof value === 'number' ? value : null })
                }
              />
            )}
            {item.type === 'video' && (
              <Checkbox
                label="Muted"
                checked={item.muted}
                disabled={readOnly}
                mb={8}
                onChange={(event) => onChange({ ...item, muted: event.currentTarget.checked })}
              />
            )}
          </Group>
          {[...(itemError ? [['', itemError]] : []), ...otherErrors].map(([field, message]) => (
            <Text key={field} size="xs" c={'var(--mantine-color-error)'} role="alert">
              {field ? `${field}: ${message}` : message}
            </Text>
          ))}
        </Stack>
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={`Remove ${label.title} (item ${index + 1})`}
          disabled={readOnly}
          onClick={onRemove}
          mt={4}
        >
          <FaIcon icon={faTrash} />
        </ActionIcon>
      </Group>
    </Paper>
  );
}
