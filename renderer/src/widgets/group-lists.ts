import { BoxWidget } from './box';
import { GridWidget } from './grid';
import { IconWidget } from './icon';
import { ImageWidget } from './image';
import { LogWidget } from './log';
import { StatusWidget } from './status';
import { TableWidget } from './table';
import { TextWidget } from './text';
import { TickertapeWidget } from './tickertape';
import { TimelineWidget } from './timeline';
import type { VariantComponents } from './types';
import { UpstatusWidget } from './upstatus';
import { VideoWidget } from './video';
import './lists.css';

export const listsComponents: VariantComponents = {
  text: TextWidget,
  table: TableWidget,
  tickertape: TickertapeWidget,
  log: LogWidget,
  timeline: TimelineWidget,
  status: StatusWidget,
  upstatus: UpstatusWidget,
  icon: IconWidget,
  grid: GridWidget,
  image: ImageWidget,
  video: VideoWidget,
  box: BoxWidget,
};
