/**
 * An export of the original product, as its public templates have it. `suffix` is added to the
 * flow tags, for tests that import it more than once into one service.
 */
export function originalExport(suffix = '') {
  return {
    name: 'Crittercism',
    theme: 'dark',
    aspect_ratio: 'HDTV',
    font_family: 'normal',
    font_size: 'normal',
    widget_background: '',
    widget_margins: 3,
    widget_padding: 8,
    widgets: [
      {
        flow: {
          tag: `app_error_rates${suffix}`,
          data: { bars: [{ color: '#267288', label: 'New Bar', value: 100 }] },
        },
        variant: 'barchart',
        column: 24,
        row: 12,
        width: 8,
        height: 8,
        in_board_index: 0,
        background: 'default',
      },
      {
        flow: { tag: `crashes${suffix}`, data: {} },
        variant: 'box',
        column: 0,
        row: 3,
        width: 8,
        height: 17,
        in_board_index: 1,
        background: 'none',
      },
    ],
  };
}
