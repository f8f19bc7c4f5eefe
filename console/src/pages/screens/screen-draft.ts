import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { deviceSchema, deviceUpdateSchema, type Device } from '../../../../src/shared/device';
import { api } from '../../api/client';
import { useFieldDraft } from '../../ui/field-draft';
import { tell } from '../../ui/notify';
import { settingsInvalid, type PlaySettings } from '../schedules/play-settings';
import { devicePath } from './queries';

/**
 * Everything the screen's page edits: its name, description and playlist, its group, and when
 * and how it plays. One draft, written by the page's one Save in one `PATCH /devices/:tag`.
 */
export type ScreenFields = PlaySettings & {
  name: string;
  description: string;
  group_id: string | null;
};

export const screenFieldsOf = (device: Device): ScreenFields => ({
  name: device.name,
  description: device.description,
  playlist_id: device.playlist_id,
  group_id: device.group_id,
  schedule: device.schedule,
  power: device.power,
  rotation: device.rotation,
  time_zone: device.time_zone,
});

/** The problems of the name and description as the service would answer them, by field. */
export function screenFieldErrors(changes: Partial<ScreenFields>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of deviceUpdateSchema.safeParse(changes).error?.issues ?? [])
    errors[String(issue.path[0])] ??= issue.message;
  return errors;
}

/** The screen's page draft over the saved screen (live by its notices), and its one Save. */
export function useScreenDraft(device: Device) {
  const saved = useMemo(() => screenFieldsOf(device), [device]);
  const draft = useFieldDraft(saved);
  const queries = useQueryClient();
  const save = useMutation({
    mutationFn: (changes: Partial<ScreenFields>) =>
      api(deviceSchema, devicePath(device.tag), { method: 'PATCH', body: changes }),
    onSuccess: (written) => {
      queries.setQueryData(['devices', written.tag], written);
      draft.drop();
      tell(`Screen ${written.name || written.tag} saved`, 'green');
    },
    // What it plays now, resolved through its group, has changed with it.
    onSettled: () => queries.invalidateQueries({ queryKey: ['devices', device.tag] }),
  });
  const errors = screenFieldErrors(draft.changes);
  const invalid = Object.keys(errors).length > 0 || settingsInvalid(draft.values);
  return {
    ...draft,
    errors,
    invalid,
    save: () => {
      if (draft.dirty && !invalid) save.mutate(draft.changes);
    },
    saving: save.isPending,
    error: save.error,
    /** Drops the edits, and the last save's refusal with them. */
    drop: () => {
      draft.drop();
      save.reset();
    },
  };
}

export type ScreenDraft = ReturnType<typeof useScreenDraft>;
