import { KPI_WALL } from './kpi-wall';
import { LOBBY_WELCOME } from './lobby-welcome';
import { MEETING_ROOM } from './meeting-room';
import { OPERATIONS_STATUS } from './operations-status';
import { SALES } from './sales';
import { SUPPORT_QUEUE } from './support-queue';
import type { BoardTemplate } from './template';

/** The ready boards the console offers under "New board", in the order it shows them. */
export const BOARD_TEMPLATES: readonly BoardTemplate[] = [
  OPERATIONS_STATUS,
  SALES,
  SUPPORT_QUEUE,
  MEETING_ROOM,
  LOBBY_WELCOME,
  KPI_WALL,
];

export function findTemplate(id: string): BoardTemplate | undefined {
  return BOARD_TEMPLATES.find((template) => template.id === id);
}
