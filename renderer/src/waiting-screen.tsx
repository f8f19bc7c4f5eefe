interface WaitingScreenProps {
  headline: string;
  detail: string;
  device?: { tag: string; name: string };
}

/** The calm screen shown when there is nothing to play: it tells an operator which screen this is. */
export function WaitingScreen({ headline, detail, device }: WaitingScreenProps) {
  return (
    <main className="waiting" aria-label="waiting screen">
      <h1>{headline}</h1>
      <p>{detail}</p>
      {device && (
        <dl className="waiting-device">
          <dt>Device</dt>
          <dd data-testid="device-tag">{device.tag}</dd>
          {device.name && (
            <>
              <dt>Name</dt>
              <dd data-testid="device-name">{device.name}</dd>
            </>
          )}
        </dl>
      )}
    </main>
  );
}
