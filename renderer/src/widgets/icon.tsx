import { useMemo } from 'react';
import { findIcon, Icon } from '../icons/icon';
import { bestGrid } from './status';
import type { WidgetProps } from './types';

/** An icon name the bundled set does not know still shows that something is there. */
const UNKNOWN_ICON = 'circle-question';

/** Icons with their labels and colours, in the largest grid the box allows. */
export function IconWidget({ data, width, height, fontSize, theme }: WidgetProps<'icon'>) {
  const count = data.icons.length;
  const labelled = data.icons.some((icon) => icon.label);
  const shape = useMemo(
    () => bestGrid(count, width, height, labelled ? 1.2 : 1),
    [count, width, height, labelled],
  );
  const padding = Math.max(2, Math.round(Math.min(shape.cellWidth, shape.cellHeight) * 0.06));
  const inner = { width: shape.cellWidth - 2 * padding, height: shape.cellHeight - 2 * padding };
  const font = Math.max(8, Math.round(Math.min(fontSize, inner.height * 0.2)));
  const iconSize = Math.max(
    8,
    Math.floor(Math.min(inner.width, inner.height - (labelled ? font * 1.4 : 0)) * 0.9),
  );

  return (
    <ul
      className="lists-widget lists-icon"
      style={{
        width,
        height,
        fontSize: font,
        color: theme.foreground,
        gridTemplateColumns: `repeat(${shape.columns}, minmax(0, 1fr))`,
        gridTemplateRows: `repeat(${shape.rows}, minmax(0, 1fr))`,
      }}
    >
      {data.icons.map((icon, index) => (
        <li key={index} style={{ padding }} title={icon.label}>
          <Icon
            name={findIcon(icon.type) ? icon.type : UNKNOWN_ICON}
            size={iconSize}
            color={icon.color ?? theme.foreground}
          />
          {icon.label && <span className="lists-icon-label">{icon.label}</span>}
        </li>
      ))}
    </ul>
  );
}
