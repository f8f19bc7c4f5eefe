import { createTheme, Modal, Notification } from '@mantine/core';

/** One theme for light and dark; the operator's choice is kept by Mantine in localStorage. */
export const theme = createTheme({
  primaryColor: 'indigo',
  // White on indigo 6 misses WCAG AA contrast; 7 meets it.
  primaryShade: { light: 7, dark: 8 },
  colors: {
    // Mantine's reds, but for the shades filled buttons use (7 and 8 here): white on its red 7
    // is 3.8:1, under WCAG AA's 4.5 (every "Delete" button); on these, 5.5:1 and 6.7:1.
    red: [
      '#fff5f5',
      '#ffe3e3',
      '#ffc9c9',
      '#ffa8a8',
      '#ff8787',
      '#ff6b6b',
      '#fa5252',
      '#c92a2a',
      '#b02525',
      '#962020',
    ],
  },
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  components: {
    // Mantine's close buttons are an icon alone: they need a name for assistive technology.
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close the message' } },
    }),
  },
});
