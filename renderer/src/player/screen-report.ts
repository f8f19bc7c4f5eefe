import type { ShowingReport } from '../../../src/shared/bridge';
import type { Display } from '../../../src/shared/device';

const MAX_SHOWING = 2048;

/** What a page that is attached but hidden (a background tab, a minimised window) reports: it paints nothing. */
export const HIDDEN = 'hidden';
/** What a screen in a power window reports: black, whatever item waits to start over. */
export const OFF = 'off';

/** The page's own size in device pixels: its CSS size times the device pixel ratio. */
export function viewportDisplay(): Display {
  return {
    width: Math.round(window.innerWidth * window.devicePixelRatio),
    height: Math.round(window.innerHeight * window.devicePixelRatio),
  };
}

/**
 * Tells the agent what is on screen and the page's size: at each switch (as the sequencer
 * reports it), and again when the page is resized, hidden or shown, so the heartbeats say what a
 * person in front of the screen sees.
 */
export class ScreenReporter {
  private showing: string | null = null;
  private last: string | null = null;
  private off = false;
  /** What covers the player (`override:<id>`), reported in place of the item underneath. */
  private cover: string | null = null;

  constructor(private readonly send: (report: ShowingReport) => void) {}

  /** The sequencer switched: always told, even when it names the same thing again. */
  report(showing: string): void {
    this.showing = showing.slice(0, MAX_SHOWING);
    this.last = null;
    this.refresh();
  }

  /** A power window began (true) or ended: told at once. */
  setOff(off: boolean): void {
    this.off = off;
    this.refresh();
  }

  /** An emergency override covers the player (`override:<id>`), or no longer (null): told at once. */
  setCover(cover: string | null): void {
    this.cover = cover === null ? null : cover.slice(0, MAX_SHOWING);
    this.refresh();
  }

  /** Listens to the page's size and visibility until the returned function is called. */
  watch(): () => void {
    const refresh = () => this.refresh();
    window.addEventListener('resize', refresh);
    document.addEventListener('visibilitychange', refresh);
    return () => {
      window.removeEventListener('resize', refresh);
      document.removeEventListener('visibilitychange', refresh);
    };
  }

  /** Tells the agent when what it would see has changed since the last report. */
  private refresh(): void {
    // Before the first item settles there is nothing to say, unless the screen is off or covered.
    const seen = this.cover ?? this.showing;
    const showing = this.off ? OFF : seen === null ? null : document.hidden ? HIDDEN : seen;
    if (showing === null) return;
    const report = { showing, display: viewportDisplay() };
    const key = JSON.stringify(report);
    if (key === this.last) return;
    this.last = key;
    this.send(report);
  }
}
