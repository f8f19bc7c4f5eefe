import { Icon } from '../icons/icon';
import type { WidgetProps } from './types';

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

/**
 * Foreign pages need the network and run foreign code, so a kiosk does not load them: the
 * widget says so and names the site it would have shown.
 */
export function IframeWidget({ data, width, height, fontSize, theme }: WidgetProps<'iframe'>) {
  const host = hostOf(data.url);
  const font = Math.max(8, Math.round(Math.min(fontSize, height / 5, width / 16)));
  return (
    <div
      className="lists-widget lists-iframe"
      role="note"
      style={{ width, height, fontSize: font, color: theme.muted }}
    >
      <Icon name="globe" size="2em" />
      <span className="lists-iframe-message">Web pages are not shown on this screen</span>
      {host && (
        <span className="lists-iframe-host" style={{ color: theme.foreground }}>
          {host}
        </span>
      )}
    </div>
  );
}
