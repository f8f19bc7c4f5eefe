import { useEffect } from 'react';
import type { FoundService, Setup, WallboardBridge } from '../../src/shared/bridge';
import { QrCode } from './qr-code';
import './pairing-screen.css';

type Face<K extends Setup['kind']> = Extract<Setup, { kind: K }>;

/** "7HK3MQ" as "7HK 3MQ": two groups of three are read and typed without losing one's place. */
function grouped(code: string): string {
  return `${code.slice(0, 3)} ${code.slice(3)}`;
}

/** The pairing code, large enough to read across a room, the service, and the claim page's QR code. */
function PairingFace({ setup }: { setup: Face<'pairing'> }) {
  return (
    <main className="setup pairing" aria-label="pairing screen">
      <div className="pairing-text">
        <h1>Pair this screen</h1>
        <p>In the Wallboard console, add a screen with this code:</p>
        <p className="pairing-code" data-testid="pairing-code" aria-label={`pairing code ${setup.code}`}>
          {grouped(setup.code)}
        </p>
        <dl className="setup-facts">
          <dt>Service</dt>
          <dd data-testid="service-url">{setup.service_url}</dd>
        </dl>
      </div>
      <figure className="pairing-qr">
        <QrCode text={setup.claim_url} label="QR code of the console's pairing page for this code" />
        <figcaption>or scan to open the console with the code filled in</figcaption>
      </figure>
    </main>
  );
}

/** Several services answered: each with its number, for a click or a key press. */
function ServiceList({ services, bridge }: { services: FoundService[]; bridge: WallboardBridge }) {
  const choosing = services.length > 1;
  useEffect(() => {
    if (!choosing) return;
    const onKey = (event: KeyboardEvent) => {
      const picked = services[Number(event.key) - 1];
      if (picked) bridge.chooseService({ id: picked.id });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [choosing, services, bridge]);
  return (
    <ol className={choosing ? 'service-list choosing' : 'service-list'} aria-label="services found">
      {services.slice(0, 9).map((service, index) => (
        <li key={service.id}>
          <button type="button" disabled={!choosing} onClick={() => bridge.chooseService({ id: service.id })}>
            <span className="service-number">{index + 1}</span>
            <span className="service-name">{service.name}</span>
            <span className="service-url">{service.url}</span>
          </button>
        </li>
      ))}
    </ol>
  );
}

function DiscoveringFace({ setup, bridge }: { setup: Face<'discovering'>; bridge: WallboardBridge }) {
  const count = setup.services.length;
  const detail =
    count === 0
      ? 'No Wallboard service has answered on this network yet. Still looking; or start this screen with --server <address>.'
      : count === 1
        ? 'Found one service: pairing with it in a moment.'
        : `${count} services answered. Pick the one this screen belongs to: click it, or press its number.`;
  return (
    <main className="setup discovering" aria-label="looking for a service">
      <h1>Looking for a Wallboard service</h1>
      <p>{detail}</p>
      {count > 0 && <ServiceList services={setup.services} bridge={bridge} />}
    </main>
  );
}

function ContactingFace({ setup }: { setup: Face<'contacting'> }) {
  return (
    <main className="setup" aria-label="asking for a pairing code">
      <h1>Asking for a pairing code</h1>
      <dl className="setup-facts">
        <dt>Service</dt>
        <dd data-testid="service-url">{setup.service_url}</dd>
      </dl>
      <p className="setup-problem">
        {setup.problem ? `${setup.problem}. Trying again shortly.` : 'Waiting for its answer…'}
      </p>
    </main>
  );
}

/** The service refused the token this screen was given: said plainly, with what to do about it. */
function RefusedFace({ setup, device }: { setup: Face<'refused'>; device: { tag: string; name: string } }) {
  return (
    <main className="setup refused" aria-label="token refused">
      <h1>This screen&apos;s token was refused</h1>
      <p>
        The service does not accept this screen&apos;s token (deleted, or not this screen&apos;s). Give the
        screen a new token, or remove its stored one to pair it again. It keeps trying meanwhile.
      </p>
      <dl className="setup-facts">
        <dt>Service</dt>
        <dd data-testid="service-url">{setup.service_url}</dd>
        <dt>Device</dt>
        <dd data-testid="device-tag">{device.tag}</dd>
      </dl>
    </main>
  );
}

/** The face of a screen that cannot play yet: looking for a service, pairing, or refused. */
export function SetupScreen({
  setup,
  device,
  bridge,
}: {
  setup: Setup;
  device: { tag: string; name: string };
  bridge: WallboardBridge;
}) {
  switch (setup.kind) {
    case 'pairing':
      return <PairingFace setup={setup} />;
    case 'discovering':
      return <DiscoveringFace setup={setup} bridge={bridge} />;
    case 'contacting':
      return <ContactingFace setup={setup} />;
    case 'refused':
      return <RefusedFace setup={setup} device={device} />;
  }
}
