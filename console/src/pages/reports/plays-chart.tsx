import { Box, Text, useComputedColorScheme } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useMemo } from 'react';
import {
  UPlotChart,
  valueAxis,
  yRange,
  type ChartOptions,
} from '../../../../renderer/src/widgets/uplot-chart';
import type { PlayTotal } from '../../../../src/shared/play-report';
import { THEMES } from '../../../../src/shared/theme';
import { daysOf, secondsOf, type DayRange } from './range';

const HEIGHT = 220;
const FONT_PX = 12;
const HALF_DAY = 43_200;
const DAY_LABEL = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });

type PathBuilder = NonNullable<NonNullable<ChartOptions['series']>[number]['paths']>;

/**
 * A bar per day from 0, drawn on the plot's canvas (uPlot takes a path builder; its own bars
 * would need uPlot itself in the console, whose packages are the renderer's components).
 */
function barsOf(color: string) {
  const paths: PathBuilder = (u, series, first, last) => {
    const xs = u.data[0];
    const ys = u.data[series] ?? [];
    const bars = new Path2D();
    const x0 = xs[0] ?? 0;
    const step = Math.abs(u.valToPos(x0 + 86_400, 'x', true) - u.valToPos(x0, 'x', true));
    const width = Math.max(2, step * 0.7);
    const zero = u.valToPos(0, 'y', true);
    for (let i = first; i <= last; i += 1) {
      const y = u.valToPos(ys[i] ?? 0, 'y', true);
      bars.rect(u.valToPos(xs[i] ?? 0, 'x', true) - width / 2, y, width, zero - y);
    }
    return { stroke: bars, fill: bars };
  };
  return { paths, fill: color, stroke: color, points: { show: false } };
}

/** Every day's midnight, thinned so that the labels never touch. */
function daySplits(days: readonly number[], width: number): number[] {
  const every = Math.max(1, Math.ceil((days.length * FONT_PX * 5) / Math.max(1, width)));
  return days.filter((_, n) => (days.length - 1 - n) % every === 0);
}

/**
 * Plays per day across the items the filters keep, every day of the range on the axis (a day
 * without plays at 0), on the renderer's uPlot canvas, in the page's colour scheme.
 */
export function PlaysChart({ totals, range }: { totals: readonly PlayTotal[]; range: DayRange }) {
  const { ref, width } = useElementSize();
  const theme = THEMES[useComputedColorScheme('light')];
  const data = useMemo(() => {
    const plays = new Map<string, number>();
    for (const total of totals) plays.set(total.day, (plays.get(total.day) ?? 0) + total.plays);
    const days = daysOf(range);
    return [days.map(secondsOf), days.map((day) => plays.get(day) ?? 0)] as [number[], number[]];
  }, [totals, range]);
  const [days] = data;
  const options = useMemo<ChartOptions>(
    () => ({
      scales: {
        x: { time: true, range: (_u, min, max) => [min - HALF_DAY, max + HALF_DAY] },
        y: { range: yRange({ include: [0], minSpan: 4 }) },
      },
      axes: [
        {
          splits: () => daySplits(days, width),
          values: (_u, splits) => splits.map((seconds) => DAY_LABEL.format(seconds * 1000)),
          size: FONT_PX * 2.5,
        },
        valueAxis({}, FONT_PX),
      ],
      series: [{}, { label: 'Plays', ...barsOf(theme.accent) }],
    }),
    [days, width, theme],
  );
  const most = Math.max(0, ...data[1]);
  return (
    <Box ref={ref}>
      <Box role="img" aria-label={`Plays per day: at most ${most} a day`}>
        {width > 0 && (
          <UPlotChart
            options={options}
            data={data}
            width={width}
            height={HEIGHT}
            theme={theme}
            fontPx={FONT_PX}
          />
        )}
      </Box>
      <Text size="xs" c="dimmed">
        Plays per day, on every screen and of every item the filters keep
      </Text>
    </Box>
  );
}
