import { Component, type ReactNode } from 'react';

interface Props {
  /** What to show once the child has failed. */
  fallback: ReactNode;
  /** The input the child draws: once failed, a new value gets a new chance. */
  resetKey: unknown;
  onError?: (error: Error) => void;
  children: ReactNode;
}

/**
 * Keeps a widget's failure inside the widget: the rest of the board plays on. The child is kept
 * (not remounted) while it works, so charts update in place; only after a failure does new
 * data make it try again.
 */
export class WidgetBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: Error) {
    this.props.onError?.(error);
  }

  override componentDidUpdate(previous: Props) {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) this.setState({ failed: false });
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
