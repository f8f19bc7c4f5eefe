import { useMutation, useQueryClient } from '@tanstack/react-query';
import { groupSchema, type Group } from '../../../../src/shared/group';
import { api, send } from '../../api/client';
import { runBulk } from '../../ui/bulk';
import type { PlaySettings } from '../schedules/play-settings';
import { groupPath, groupQuery } from '../schedules/queries';
import { devicePath } from '../screens/queries';

/** What the group's page edits of the group itself: its name and what its screens play. */
export type GroupFields = PlaySettings & { name: string };

export const groupFieldsOf = ({
  name,
  playlist_id,
  schedule,
  power,
  rotation,
  time_zone,
}: Group): GroupFields => ({
  name,
  playlist_id,
  schedule,
  power,
  rotation,
  time_zone,
});

export interface GroupSave {
  /** The group's edited fields (none: the group is left as it is). */
  fields: Partial<GroupFields>;
  /** Screens put in the group, and those taken out of it. */
  added: readonly string[];
  removed: readonly string[];
}

/** Screens that could not be put in or taken out; the group's fields (if any) were saved before them. */
export class MembersError extends Error {}

/**
 * The group page's one Save, with the service's routes as they are: the group's fields first
 * (`PATCH /groups/:id`, refused as a whole: nothing else is done), then each screen put in or
 * taken out (`PATCH /devices/:tag {group_id}`), one request each. The screens that failed are
 * named in the error and stay in the draft, to try again.
 */
export function useSaveGroup(group: Group, nameOf: (tag: string) => string) {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async ({ fields, added, removed }: GroupSave) => {
      if (Object.keys(fields).length > 0) {
        const saved = await api(groupSchema, groupPath(group.id), { method: 'PATCH', body: fields });
        queries.setQueryData(groupQuery(group.id).queryKey, saved);
      }
      const changes = [
        ...added.map((tag) => ({ tag, to: group.id })),
        ...removed.map((tag) => ({ tag, to: null })),
      ];
      const outcome = await runBulk(
        changes,
        (change) => nameOf(change.tag),
        (change) => send(devicePath(change.tag), { method: 'PATCH', body: { group_id: change.to } }),
      );
      if (outcome.failed.length > 0) {
        throw new MembersError(
          `${Object.keys(fields).length > 0 ? 'The group was saved, but ' : ''}${outcome.failed.length} screen(s) could not be moved: ${outcome.failed
            .map((failure) => `${failure.name} (${failure.reason})`)
            .join('; ')}`,
        );
      }
    },
    onSettled: () =>
      Promise.all([
        queries.invalidateQueries({ queryKey: ['groups'] }),
        queries.invalidateQueries({ queryKey: ['devices'] }),
      ]),
  });
}
