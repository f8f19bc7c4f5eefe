/** A screen in a power window: black, nothing on it, no pointer (stage.css). */
export function ScreenOff() {
  return <div className="screen-off" data-testid="screen-off" aria-hidden />;
}
