// The device agent as far as a web player's tests see it: it answers with a state the test sets,
// keeps what the pages report, and sends the pages what the test emits.
import type { BridgeHost } from '../../agent/bridge-host';
import type {
  BridgeMessage,
  FailureReport,
  PlayerState,
  RendererLog,
  ShowingReport,
} from '../../shared/bridge';
import type { PlayReport } from '../../shared/play';
import type { Framing } from '../../shared/web-content';

export class RecordingHost implements BridgeHost {
  readonly reports: ShowingReport[] = [];
  readonly failures: FailureReport[] = [];
  readonly plays: PlayReport[] = [];
  readonly logs: RendererLog[] = [];
  readonly listeners = new Set<(message: BridgeMessage) => void>();

  constructor(public state: PlayerState) {}

  getState(): PlayerState {
    return this.state;
  }
  onMessage(listener: (message: BridgeMessage) => void) {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
  reportShowing(report: ShowingReport): void {
    this.reports.push(report);
  }
  reportFailure(report: FailureReport): void {
    this.failures.push(report);
  }
  log(entry: RendererLog): void {
    this.logs.push(entry);
  }
  chooseService(): void {}
  reportPlay(report: PlayReport): void {
    this.plays.push(report);
  }
  screenshotTaken(): void {}
  checkFraming({ url }: { url: string }): Framing {
    return { url, verdict: 'allowed', detail: '' };
  }
  showWebPage(): { shown: boolean } {
    return { shown: false };
  }
  serviceTime(): { now: number | null } {
    return { now: null };
  }
  emit(message: BridgeMessage): void {
    for (const listener of this.listeners) listener(message);
  }
}
