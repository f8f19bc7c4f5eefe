/**
 * Estimates another clock (the service's, or the agent's as the renderer sees it) from round
 * trips, as NTP's clock filter does: each sample is a request sent at local `sent`, answered with
 * the remote clock's reading, and heard back at local `received`. Assuming the answer was read
 * half-way, the remote clock was `remote - (sent + received) / 2` ahead. Its error is at most half
 * the round trip, and queueing only ever adds to a round trip, so among the last samples the one
 * with the shortest round trip is the one trusted: a late, jittered or one-sided delay makes a
 * long round trip and is passed over.
 */

export interface ClockSample {
  /** Local time the request left, in ms. */
  sent: number;
  /** The remote clock's reading in its answer, in ms. */
  remote: number;
  /** Local time the answer came back, in ms. */
  received: number;
}

export interface ClockEstimate {
  /** Add to the local clock to read the remote one. */
  offsetMs: number;
  /** The round trip of the sample trusted: the offset is within half of it. */
  roundTripMs: number;
  /** How many samples the filter holds. */
  samples: number;
}

/** Samples kept: NTP's clock filter keeps 8. */
export const CLOCK_FILTER_SAMPLES = 8;

export class ClockEstimator {
  private readonly kept: { offset: number; roundTrip: number }[] = [];

  constructor(private readonly size = CLOCK_FILTER_SAMPLES) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError('the filter holds at least one sample');
  }

  /** Takes a sample; one that makes no sense (answered before asked, not finite) is dropped. */
  add(sample: ClockSample): boolean {
    const roundTrip = sample.received - sample.sent;
    const finite = [sample.sent, sample.remote, sample.received].every(Number.isFinite);
    if (!finite || roundTrip < 0) return false;
    this.kept.push({ offset: sample.remote - (sample.sent + sample.received) / 2, roundTrip });
    if (this.kept.length > this.size) this.kept.shift();
    return true;
  }

  /** The offset of the sample with the shortest round trip among those kept; null before any. */
  estimate(): ClockEstimate | null {
    let best: { offset: number; roundTrip: number } | null = null;
    for (const sample of this.kept) if (!best || sample.roundTrip < best.roundTrip) best = sample;
    if (!best) return null;
    return { offsetMs: best.offset, roundTripMs: best.roundTrip, samples: this.kept.length };
  }

  /** The remote clock at local time `local`; null before any sample. */
  remoteAt(local: number): number | null {
    const estimate = this.estimate();
    return estimate ? local + estimate.offsetMs : null;
  }

  /** Forgets every sample (a new connection may take another path). */
  reset(): void {
    this.kept.length = 0;
  }
}
