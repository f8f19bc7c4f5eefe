import { formatValue } from '../format/number';
import { Icon } from '../icons/icon';
import { relativeTime, useMinuteClock } from './timeline';
import type { WidgetProps } from './types';

const LINE_SPACING = 1.4;

function LastDown({ value, color }: { value: number; color: string }) {
  const now = useMinuteClock();
  return (
    <time dateTime={new Date(value * 1000).toISOString()} style={{ color }}>
      {relativeTime(value, now)}
    </time>
  );
}

/** How many are up and down, the names of those down, and the uptime. */
export function UpstatusWidget({ data, width, height, fontSize, theme }: WidgetProps<'upstatus'>) {
  const hasFooter = data.uptime !== undefined || data.last_down !== undefined;
  // Both counts side by side take about 7.5 em at one or two digits: the width limits them too.
  const countFont = Math.max(
    10,
    Math.round(Math.min(fontSize * 2.2, height * (hasFooter ? 0.28 : 0.34), width / 7.5)),
  );
  const countHeight = Math.round(countFont * 1.25);
  const font = Math.max(8, Math.min(Math.round(fontSize * 0.85), Math.floor(height / 6)));
  const lineHeight = Math.round(font * LINE_SPACING);
  const footerHeight = hasFooter ? lineHeight : 0;
  const listRoom = Math.max(0, height - countHeight - footerHeight);
  const lines = Math.floor(listRoom / lineHeight);
  const down = data.down;
  // When the names do not all fit, the last line says how many are left out.
  const named = down.length > lines ? Math.max(0, lines - 1) : down.length;
  const hidden = down.length - named;
  const downColor = down.length > 0 ? theme.bad : theme.muted;

  return (
    <div
      className="lists-widget lists-upstatus"
      style={{ width, height, fontSize: font, color: theme.foreground }}
    >
      <div className="lists-upstatus-counts" style={{ height: countHeight, fontSize: countFont }}>
        <span className="lists-upstatus-up" style={{ color: theme.good }}>
          <Icon name="circle-arrow-up" />
          <strong>{formatValue(data.up.length)}</strong>
          <small>up</small>
        </span>
        <span className="lists-upstatus-down" style={{ color: downColor }}>
          <Icon name="circle-arrow-down" />
          <strong>{formatValue(down.length)}</strong>
          <small>down</small>
        </span>
      </div>
      <ul className="lists-upstatus-names" style={{ height: listRoom, color: theme.bad }}>
        {down.slice(0, named).map((name, index) => (
          <li key={index} style={{ height: lineHeight, lineHeight: `${lineHeight}px` }}>
            {name}
          </li>
        ))}
        {hidden > 0 && lines > 0 && (
          <li className="lists-upstatus-more" style={{ height: lineHeight, lineHeight: `${lineHeight}px` }}>
            {named > 0 ? `+${formatValue(hidden)} more` : `${formatValue(hidden)} down`}
          </li>
        )}
      </ul>
      {hasFooter && (
        <div className="lists-upstatus-footer" style={{ height: footerHeight, color: theme.muted }}>
          {data.uptime !== undefined && (
            <span>
              Uptime{' '}
              <strong style={{ color: theme.foreground }}>
                {typeof data.uptime === 'number'
                  ? formatValue(data.uptime, { value_type: 'percent' })
                  : data.uptime}
              </strong>
            </span>
          )}
          {data.last_down !== undefined && (
            <span>
              Last down{' '}
              {typeof data.last_down === 'number' ? (
                <LastDown value={data.last_down} color={theme.foreground} />
              ) : (
                <strong style={{ color: theme.foreground }}>{data.last_down}</strong>
              )}
            </span>
          )}
        </div>
      )}
    </div>
  );
}
