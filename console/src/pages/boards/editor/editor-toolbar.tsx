import { faPlus, faRotateLeft, faRotateRight } from '@fortawesome/free-solid-svg-icons';
import { ActionIcon, Button, Group, Text, Tooltip } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { useCanWrite } from '../../../session/session';
import { FaIcon } from '../../../ui/fa-icon';
import { WriteButton } from '../../../ui/write-button';
import type { BoardEditor } from './use-board-editor';

function statusOf(editor: BoardEditor): string {
  if (editor.saving) return 'Saving…';
  if (editor.settingsInvalid) return 'A setting needs fixing before the board can be saved';
  if (editor.dataInvalid) return "A widget's data needs fixing before the board can be saved";
  if (editor.dirty) return 'Unsaved changes';
  return 'Every change is saved';
}

/**
 * The editor's commands: add a widget, undo and redo (also Ctrl+Z, Ctrl+Shift+Z and Ctrl+Y
 * outside text fields), the one Save of the page (also Ctrl+S: layout, settings and the widgets'
 * data together) and drop every change; and where the board stands, said for screen readers too.
 */
export function EditorToolbar({ editor, onAdd }: { editor: BoardEditor; onAdd: () => void }) {
  const canWrite = useCanWrite();
  const canSave =
    canWrite && editor.dirty && !editor.settingsInvalid && !editor.dataInvalid && !editor.saving;
  useHotkeys(
    canWrite
      ? [
          ['mod+Z', editor.undo],
          ['mod+shift+Z', editor.redo],
          ['mod+Y', editor.redo],
          ['mod+S', () => canSave && editor.save()],
        ]
      : [],
  );
  return (
    <Group justify="space-between" gap="sm" mb="sm" wrap="wrap">
      <Group gap="xs">
        <WriteButton leftSection={<FaIcon icon={faPlus} />} onClick={onAdd}>
          Add a widget
        </WriteButton>
        <Tooltip label="Undo (Ctrl+Z)">
          <ActionIcon
            variant="default"
            size="lg"
            aria-label="Undo"
            disabled={!canWrite || !editor.canUndo}
            onClick={editor.undo}
          >
            <FaIcon icon={faRotateLeft} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label="Redo (Ctrl+Shift+Z)">
          <ActionIcon
            variant="default"
            size="lg"
            aria-label="Redo"
            disabled={!canWrite || !editor.canRedo}
            onClick={editor.redo}
          >
            <FaIcon icon={faRotateRight} />
          </ActionIcon>
        </Tooltip>
      </Group>
      <Group gap="sm">
        <Text size="sm" c="dimmed" role="status" data-testid="editor-status">
          {statusOf(editor)}
        </Text>
        <Button variant="default" disabled={!canWrite || !editor.dirty} onClick={editor.discard}>
          Discard the changes
        </Button>
        <WriteButton onClick={editor.save} loading={editor.saving} disabled={!canSave}>
          Save the board
        </WriteButton>
      </Group>
    </Group>
  );
}
