import { createTheme, Modal, Notification } from '@mantine/core';

/** One theme for light and dark; the operator's choice is kept by Mantine in localStorage. */
export const theme = createTheme({
  primaryColor: 'indigo',
  // White on indigo 6 misses WCAG AA contrast; 7 meets it.
  primaryShade: { light: 7, dark: 8 },
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
