import { useQuery } from '@tanstack/react-query';
import { libraryMediaId } from '../../../../src/shared/media';
import { mediaQuery } from '../media/media-query';
import type { ItemDraft } from './draft';
import type { ItemLabel } from './item-row';
import { boardsQuery } from './queries';

/** Names the items by what the operator knows: the board's name, the medium's name, or the URL. */
export function useItemLabels(): (item: ItemDraft) => ItemLabel {
  const boards = useQuery(boardsQuery);
  const library = useQuery(mediaQuery);
  return (item) => {
    if (item.type === 'board') {
      const board = boards.data?.find((candidate) => candidate.id === item.board_id);
      return { title: board ? board.name : `board ${item.board_id}` };
    }
    const id = libraryMediaId(item.url);
    const media = id === null ? undefined : library.data?.media.find((candidate) => candidate.id === id);
    return media ? { title: media.name, media } : { title: item.url };
  };
}
