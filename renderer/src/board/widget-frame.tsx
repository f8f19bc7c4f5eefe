import { memo, useEffect, useMemo } from 'react';
import type { BoardExport } from '../../../src/shared/board-export';
import { describeIssues } from '../../../src/shared/issues';
import { parseMetrics } from '../../../src/shared/metrics';
import type { ThemeTokens } from '../../../src/shared/theme';
import { Icon } from '../icons/icon';
import { useFlowData, type FlowStore } from '../store/flow-store';
import { hasComponent, renderWidget } from '../widgets/registry';
import type { Box } from './layout';
import { useExpired } from './use-expiry';
import { WidgetBoundary } from './widget-boundary';

type ExportedWidget = BoardExport['widgets'][number];

interface WidgetFrameProps {
  widget: ExportedWidget;
  box: Box;
  padding: number;
  theme: ThemeTokens;
  fontSize: number;
  titleFontSize: number;
  widgetColor: string | null;
  titleColor: string | null;
  store: FlowStore;
  media: (url: string) => string | undefined;
  onProblem: (message: string) => void;
}

function Face({ icon, text, kind }: { icon: string; text: string; kind: string }) {
  return (
    <div className={`widget-face widget-face-${kind}`} role="note">
      <Icon name={icon} size="1.4em" />
      <span>{text}</span>
    </div>
  );
}

function background(widget: ExportedWidget, theme: ThemeTokens, widgetColor: string | null): string {
  if (widget.background === 'none') return 'transparent';
  if (widget.background === 'default') return widgetColor ?? theme.widgetBackground;
  return widget.background;
}

/**
 * One widget: its frame, title and state badges, and the variant drawing its data. The frame
 * subscribes to its own flow only, so a metric update redraws this widget and no other.
 */
export const WidgetFrame = memo(function WidgetFrame(props: WidgetFrameProps) {
  const { widget, box, padding, theme, fontSize, titleFontSize, store, media, onProblem } = props;
  const data = useFlowData(store, widget.flow.tag);

  const parsed = useMemo(() => parseMetrics(widget.variant, data), [widget.variant, data]);
  const meta = parsed.success
    ? (parsed.data as { title?: string; icon?: string; expires_at?: number; opacity?: number })
    : {};
  const expired = useExpired(meta.expires_at);
  const title = meta.title;
  const titleHeight = title ? Math.round(titleFontSize * 1.6) : 0;
  const inner = {
    width: Math.max(0, box.width - 2 * padding),
    height: Math.max(0, box.height - 2 * padding - titleHeight),
  };

  let body;
  if (!parsed.success) {
    body = <Face kind="invalid" icon="circle-exclamation" text="Data does not fit this widget" />;
  } else if (Object.keys(data).length === 0) {
    body = <Face kind="empty" icon="ellipsis" text="No data yet" />;
  } else {
    body = hasComponent(widget.variant) ? (
      <WidgetBoundary
        resetKey={data}
        fallback={
          <Face kind="invalid" icon="circle-exclamation" text="This widget could not draw its data" />
        }
        onError={(error) =>
          onProblem(`widget ${widget.flow.tag} (${widget.variant}) failed: ${error.message}`)
        }
      >
        {renderWidget(widget.variant, {
          data: parsed.data as never,
          width: inner.width,
          height: inner.height,
          theme,
          fontSize,
          media,
          code: widget.code ?? null,
        })}
      </WidgetBoundary>
    ) : (
      <Face kind="invalid" icon="circle-question" text={`No ${widget.variant} widget in this player`} />
    );
  }

  const invalidMessage = parsed.success ? null : describeIssues(parsed.error);
  useEffect(() => {
    if (invalidMessage) onProblem(`widget ${widget.flow.tag} (${widget.variant}): ${invalidMessage}`);
  }, [invalidMessage, onProblem, widget.flow.tag, widget.variant]);

  return (
    <section
      className={`widget widget-${widget.variant}${expired ? ' widget-stale' : ''}${widget.flow.errored ? ' widget-errored' : ''}`}
      data-flow-tag={widget.flow.tag}
      data-variant={widget.variant}
      aria-label={title ?? widget.flow.tag}
      style={{
        left: box.left,
        top: box.top,
        width: box.width,
        height: box.height,
        padding,
        zIndex: widget.in_board_index,
        background: background(widget, theme, props.widgetColor),
        opacity: meta.opacity,
      }}
    >
      {title && (
        <header
          className="widget-title"
          style={{
            height: titleHeight,
            fontSize: titleFontSize,
            color: props.titleColor ?? theme.widgetTitle,
          }}
        >
          {meta.icon && <Icon name={meta.icon} />}
          <span>{title}</span>
        </header>
      )}
      <div className="widget-body" style={{ width: inner.width, height: inner.height }}>
        {body}
      </div>
      {(widget.flow.errored || expired) && (
        <div className="widget-badges">
          {widget.flow.errored && (
            <Icon
              name="triangle-exclamation"
              color={theme.bad}
              title="The source of this data failed"
              className="widget-error-icon"
            />
          )}
          {expired && (
            <Icon
              name="clock-rotate-left"
              color={theme.warning}
              title="This data is out of date"
              className="widget-stale-icon"
            />
          )}
        </div>
      )}
    </section>
  );
});
