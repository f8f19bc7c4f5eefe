import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { mediaSchema, type Media } from '../../../../src/shared/media';
import { api } from '../../api/client';
import { confirmAction } from '../../ui/confirm';
import { WriteButton } from '../../ui/write-button';

const ACCEPT = { image: 'image/*', video: 'video/*', sound: 'audio/*' } as const;

/**
 * Replaces a medium's file, keeping its id (`PUT /media/:id/content`): the playlists and boards
 * that use it keep it, and the screens playing it fetch the new file. A file of another kind is
 * refused by the service (an image stays an image).
 */
export function useReplaceFile() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: ({ media, file }: { media: Media; file: File }) => {
      const body = new FormData();
      body.append('file', file, file.name);
      return api(mediaSchema, `/media/${encodeURIComponent(media.id)}/content`, { method: 'PUT', body });
    },
    onSettled: () => queries.invalidateQueries({ queryKey: ['media'] }),
  });
}

const askReplace = (media: Media, file: File) =>
  confirmAction({
    title: `Replace the file of “${media.name}”?`,
    body: `${file.name} takes its place everywhere it is used, and screens fetch the new file. The console cannot undo it.`,
    confirm: 'Replace the file',
  });

export function ReplaceButton({
  media,
  replace,
}: {
  media: Media;
  replace: ReturnType<typeof useReplaceFile>;
}) {
  const input = useRef<HTMLInputElement>(null);
  const busy = replace.isPending && replace.variables.media.id === media.id;
  return (
    <>
      <input
        ref={input}
        type="file"
        accept={ACCEPT[media.kind]}
        hidden
        aria-hidden
        tabIndex={-1}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          event.currentTarget.value = '';
          // The file is replaced for every playlist and board using it, with no undo: so it asks first.
          if (file) void askReplace(media, file).then((sure) => sure && replace.mutate({ media, file }));
        }}
      />
      <WriteButton
        size="xs"
        variant="subtle"
        loading={busy}
        onClick={() => input.current?.click()}
        aria-label={`Replace file of ${media.name}`}
      >
        Replace file
      </WriteButton>
    </>
  );
}
