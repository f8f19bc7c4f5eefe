import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { mediaSchema, type Media } from '../../../../src/shared/media';
import { api } from '../../api/client';
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
          if (file) replace.mutate({ media, file });
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
