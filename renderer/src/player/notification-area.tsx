import { useSyncExternalStore } from 'react';
import type { Notification } from '../../../src/shared/notification';
import { Icon } from '../icons/icon';
import type { NotificationQueue } from './notification-queue';

function NotificationCard({ notification }: { notification: Notification }) {
  return (
    <article className="player-notification" data-notification-id={notification.id}>
      {notification.icon && (
        <span className="player-notification-icon">
          <Icon name={notification.icon} size="1em" />
        </span>
      )}
      <div className="player-notification-text">
        {notification.title && <h2 className="player-notification-title">{notification.title}</h2>}
        {notification.message && <p className="player-notification-message">{notification.message}</p>}
      </div>
    </article>
  );
}

/**
 * The bottom of the screen, over whatever plays. The live region is always there, so assistive
 * tools (and tests) read each notification as it appears; the backlog counter stays outside it
 * so it is not read out at every arrival.
 */
export function NotificationArea({ queue }: { queue: NotificationQueue }) {
  const { showing, waiting } = useSyncExternalStore(queue.subscribe, queue.getSnapshot);
  return (
    <section className="player-notifications" aria-label="Notifications">
      {waiting > 0 && (
        <div className="player-notification-more" data-testid="notification-more">
          +{waiting} more
        </div>
      )}
      <div className="player-notification-region" role="status" aria-live="polite" aria-atomic="true">
        {showing && <NotificationCard key={showing.id} notification={showing} />}
      </div>
    </section>
  );
}
