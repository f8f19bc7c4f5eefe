import { formatValue } from '../format/number';
import type { ThemeTokens } from '../../../src/shared/theme';
import { fitRows } from './bulletchart';
import type { WidgetProps } from './types';

type Level = 'good' | 'warning' | 'bad';

/** The level of a server value by the widget's thresholds (the original's defaults: 70 and 90). */
export function serverLevel(value: number, orange: number, red: number): Level {
  if (value >= red) return 'bad';
  if (value >= orange) return 'warning';
  return 'good';
}

const levelColor = (level: Level, theme: ThemeTokens) => theme[level];

export function ServersWidget({ data, width, height, theme, fontSize }: WidgetProps<'servers'>) {
  const orange = data.orange ?? 70;
  const red = data.red ?? 90;
  // Values are load percentages; a red threshold above 100 stretches the scale so it still shows.
  const scale = Math.max(100, red);
  const servers = data.servers;
  const rows = fitRows(servers.length, height, Math.min(fontSize * 2.2, height));
  const rowHeight = height / (rows.shown + (rows.hidden ? 1 : 0));
  const small = Math.max(1, Math.min(fontSize, rowHeight * 0.34));
  const trackHeight = Math.max(2, Math.min(rowHeight * 0.3, small));
  const nameChars = Math.max(1, ...servers.slice(0, rows.shown).map((server) => server.name.length));
  // Every row gets as many columns as the longest one, so the same metric lines up down the widget.
  const most = Math.max(1, ...servers.slice(0, rows.shown).map((server) => server.values.length));
  const columns = `repeat(${most}, minmax(0, 1fr))`;
  const track = `color-mix(in srgb, ${theme.muted} 25%, transparent)`;
  const nameWidth = Math.min(width * 0.32, nameChars * small * 0.62 + small * 0.3);

  return (
    <div className="num-rows num-servers" style={{ width, height }}>
      {servers.slice(0, rows.shown).map((server, index) => (
        <div
          className="num-row num-server"
          key={index}
          style={{ height: rowHeight, fontSize: small, gap: small * 0.6 }}
        >
          <div className="num-row-label num-ellipsis" style={{ width: nameWidth, color: theme.foreground }}>
            {server.name}
          </div>
          <div className="num-server-values" style={{ gridTemplateColumns: columns, gap: small * 0.6 }}>
            {server.values.map((value, valueIndex) => {
              const label = server.labels?.[valueIndex];
              const level = serverLevel(value, orange, red);
              const color = levelColor(level, theme);
              return (
                <div className="num-server-value" key={valueIndex} data-level={level}>
                  <div className="num-server-track" style={{ height: trackHeight, background: track }}>
                    <div
                      className="num-server-fill"
                      style={{
                        width: `${(Math.min(scale, Math.max(0, value)) / scale) * 100}%`,
                        background: color,
                      }}
                    />
                  </div>
                  <div className="num-server-caption" style={{ fontSize: small * 0.85 }}>
                    {label && (
                      <span className="num-ellipsis" style={{ color: theme.muted }}>
                        {label}
                      </span>
                    )}
                    <span className="num-server-number" style={{ color }}>
                      {formatValue(value, { rounding: 0 })}
                    </span>
                  </div>
                </div>
              );
            })}
          </div>
        </div>
      ))}
      {rows.hidden > 0 && (
        <div className="num-more" style={{ height: rowHeight, fontSize: small, color: theme.muted }}>
          +{formatValue(rows.hidden)} more
        </div>
      )}
    </div>
  );
}
