import { Button, Group, Modal, SegmentedControl, Select, Stack, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { mediaUrlSchema } from '../../../../src/shared/media';
import { ErrorAlert } from '../../ui/error-panel';
import { WriteButton } from '../../ui/write-button';
import { AddWeb, type WebPage } from './add-web';
import { MediaPicker } from './media-picker';
import { boardsQuery } from './queries';
import { EditModal } from '../../ui/edit-modal';

function AddBoard({
  opened,
  onClose,
  onAdd,
}: {
  opened: boolean;
  onClose: () => void;
  onAdd: (boardId: string) => void;
}) {
  const boards = useQuery({ ...boardsQuery, enabled: opened });
  const [boardId, setBoardId] = useState<string | null>(null);
  return (
    <Modal opened={opened} onClose={onClose} title="Add a board">
      <Stack>
        {boards.error && <ErrorAlert error={boards.error} title="The boards could not be listed" />}
        <Select
          label="Board"
          placeholder={boards.data?.length === 0 ? 'No boards yet' : 'Pick a board'}
          searchable
          data={boards.data?.map((board) => ({ value: board.id, label: board.name })) ?? []}
          value={boardId}
          onChange={setBoardId}
          data-autofocus
        />
        <Button
          disabled={!boardId}
          onClick={() => {
            if (boardId) onAdd(boardId);
            setBoardId(null);
          }}
        >
          Add the board
        </Button>
      </Stack>
    </Modal>
  );
}

function AddUrl({
  opened,
  onClose,
  onAdd,
}: {
  opened: boolean;
  onClose: () => void;
  onAdd: (type: 'image' | 'video', url: string) => void;
}) {
  const [type, setType] = useState<'image' | 'video'>('image');
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = () => {
    const checked = mediaUrlSchema.safeParse(url.trim());
    if (!checked.success) return setError(checked.error.issues[0]?.message ?? 'not a usable URL');
    onAdd(type, checked.data);
    setUrl('');
    setError(null);
  };
  return (
    <EditModal opened={opened} onClose={onClose} title="Add an image or a video by its URL">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          add();
        }}
      >
        <Stack>
          <SegmentedControl
            aria-label="Kind"
            data={[
              { value: 'image', label: 'Image' },
              { value: 'video', label: 'Video' },
            ]}
            value={type}
            onChange={(value) => setType(value === 'video' ? 'video' : 'image')}
          />
          <TextInput
            label="URL"
            description="http or https; the screens fetch it themselves"
            value={url}
            error={error}
            data-autofocus
            onChange={(event) => {
              setUrl(event.currentTarget.value);
              setError(null);
            }}
          />
          <Button type="submit">Add the {type}</Button>
        </Stack>
      </form>
    </EditModal>
  );
}

export interface AddItemsProps {
  onAddBoard: (boardId: string) => void;
  onAddMedia: (type: 'image' | 'video', url: string) => void;
  onAddWeb: (page: WebPage) => void;
}

/** The ways to add an item: a board, a medium of the library, an image or a video by URL, or a web page. */
export function AddItems({ onAddBoard, onAddMedia, onAddWeb }: AddItemsProps) {
  const [board, boardDialog] = useDisclosure();
  const [library, libraryDialog] = useDisclosure();
  const [url, urlDialog] = useDisclosure();
  const [web, webDialog] = useDisclosure();
  return (
    <Group gap="sm">
      <WriteButton variant="light" onClick={boardDialog.open}>
        Add a board
      </WriteButton>
      <WriteButton variant="light" onClick={libraryDialog.open}>
        Add from the library
      </WriteButton>
      <WriteButton variant="light" onClick={urlDialog.open}>
        Add a URL
      </WriteButton>
      <WriteButton variant="light" onClick={webDialog.open}>
        Add a web page
      </WriteButton>
      <AddBoard
        opened={board}
        onClose={boardDialog.close}
        onAdd={(id) => {
          boardDialog.close();
          onAddBoard(id);
        }}
      />
      <MediaPicker
        opened={library}
        onClose={libraryDialog.close}
        onPick={(media) => {
          libraryDialog.close();
          onAddMedia(media.kind === 'video' ? 'video' : 'image', media.url);
        }}
      />
      <AddUrl
        opened={url}
        onClose={urlDialog.close}
        onAdd={(type, address) => {
          urlDialog.close();
          onAddMedia(type, address);
        }}
      />
      <AddWeb
        opened={web}
        onClose={webDialog.close}
        onAdd={(page) => {
          webDialog.close();
          onAddWeb(page);
        }}
      />
    </Group>
  );
}
