import type { PowerSchedule, Rotation, Schedule } from '../../src/shared/schedule';
import { fromJsonOrNull, toJson } from '../db/dialect';
import type { OwnSettings } from '../domain/screen-settings';

/**
 * The setting columns a screen and a group share (migration 8): `schedule` and `power` are JSON,
 * and each is null when not set there.
 */
export interface SettingsRow {
  playlist_id: string | null;
  schedule: string | null;
  power: string | null;
  rotation: number | null;
  time_zone: string | null;
}

export function settingsFromRow(row: SettingsRow): OwnSettings {
  return {
    playlist_id: row.playlist_id,
    schedule: fromJsonOrNull<Schedule>(row.schedule),
    power: fromJsonOrNull<PowerSchedule>(row.power),
    rotation: row.rotation as Rotation | null,
    time_zone: row.time_zone,
  };
}

/** The columns a patch sets: what it leaves out (undefined) stays out, so it is left as it is. */
export function settingsToRow(patch: Partial<OwnSettings>): Partial<SettingsRow> {
  const json = (value: object | null | undefined) =>
    value === undefined ? undefined : value === null ? null : toJson(value);
  return {
    playlist_id: patch.playlist_id,
    schedule: json(patch.schedule),
    power: json(patch.power),
    rotation: patch.rotation,
    time_zone: patch.time_zone,
  };
}

/** Every setting, those left out not set (null). */
export function everySetting(input: Partial<OwnSettings>): OwnSettings {
  return {
    playlist_id: input.playlist_id ?? null,
    schedule: input.schedule ?? null,
    power: input.power ?? null,
    rotation: input.rotation ?? null,
    time_zone: input.time_zone ?? null,
  };
}
