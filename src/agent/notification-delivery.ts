import type { BridgeMessage, NotificationSound } from '../shared/bridge';
import type { Notification } from '../shared/notification';
import { isMediaUrl } from './media-urls';
import type { Clock, Logger, MediaStore } from './ports';

/** How long a notification waits for its sound to be cached before it is shown with the chime. */
const SOUND_WAIT_MS = 5000;

export interface NotificationDeliveryDeps {
  media: Pick<MediaStore, 'ensure'>;
  clock: Clock;
  log: Logger;
  /** Where the renderer loads a cached file from, or null while it is not cached. */
  localUrl(url: string): string | null;
}

/**
 * Hands notifications to the renderer in arrival order, each with the sound it plays resolved
 * here: the chime, or its own sound from the cache (downloaded first, for a while), so that the
 * renderer never looks a sound up in a state that may not have reached it yet.
 */
export class NotificationDelivery {
  /** In arrival order, even when one waits for its sound. */
  private deliveries: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: NotificationDeliveryDeps,
    private readonly emit: (message: BridgeMessage) => void,
  ) {}

  deliver(notification: Notification): void {
    this.deliveries = this.deliveries.then(async () => {
      const sound = await this.soundOf(notification.sound_url);
      this.emit({ kind: 'notification', notification, sound });
    });
  }

  private async soundOf(soundUrl: string | null): Promise<NotificationSound> {
    if (soundUrl === null) return null;
    if (soundUrl === 'default') return { kind: 'default' };
    if (!isMediaUrl(soundUrl)) {
      this.deps.log.warn(`sound ${soundUrl} is not a URL; the notification plays the default sound`);
      return { kind: 'default' };
    }
    const url = this.deps.localUrl(soundUrl) ?? (await this.cache(soundUrl));
    return url === null ? { kind: 'default' } : { kind: 'cached', url };
  }

  private cache(url: string): Promise<string | null> {
    return new Promise((resolve) => {
      const timer = this.deps.clock.setTimeout(() => {
        this.deps.log.warn(`sound ${url} is not cached yet; the notification plays the default sound`);
        resolve(null);
      }, SOUND_WAIT_MS);
      this.deps.media.ensure(url).then(
        () => {
          timer.cancel();
          resolve(this.deps.localUrl(url));
        },
        (error: unknown) => {
          timer.cancel();
          this.deps.log.warn(`sound not cached (${String(error)}); the notification plays the default sound`);
          resolve(null);
        },
      );
    });
  }
}
