import type { Transporter } from 'nodemailer';
import type { SmtpOptions } from '../context';
import type { AlertTarget } from '../repositories/alert-destinations';
import {
  alertSubject,
  alertText,
  signature,
  slackBody,
  teamsBody,
  webhookBody,
  type AlertMessage,
} from './messages';

/** How long one attempt may take: a receiver that hangs is a failed attempt, tried again later. */
export const SEND_TIMEOUT_MS = 10_000;

/** Sends one message; throws with the reason when it was not taken (then it is tried again). */
export type SendAlert = (target: AlertTarget, message: AlertMessage, deliveryId: string) => Promise<void>;

/** Errors say what went wrong without the body or the URL's credentials. */
function reason(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    const inner = cause instanceof Error ? `: ${cause.message}` : '';
    return `${error.message}${inner}`.slice(0, 500);
  }
  return String(error).slice(0, 500);
}

async function post(url: string, body: string, headers: Record<string, string>, signal: AbortSignal) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'Wallboard alerts', ...headers },
    body,
    // A redirect would resend the alert somewhere the operator did not name.
    redirect: 'error',
    signal: AbortSignal.any([signal, AbortSignal.timeout(SEND_TIMEOUT_MS)]),
  });
  // Read to the end, so the connection can be reused.
  await response.arrayBuffer().catch(() => undefined);
  if (!response.ok) throw new Error(`the receiver answered ${response.status}`);
}

/**
 * The senders of every kind of destination. `signal` cuts an attempt under way short when the
 * service stops (it is then tried again, by this node or the next to lead).
 */
export function alertSenders(smtp: SmtpOptions | null, signal: AbortSignal): SendAlert {
  // nodemailer is loaded at the first e-mail: a service that sends none (most) starts without it.
  let mailer: Promise<Transporter> | null = null;
  const mailerOf = (options: SmtpOptions) =>
    (mailer ??= import('nodemailer').then(({ createTransport }) =>
      createTransport({
        url: options.url,
        connectionTimeout: SEND_TIMEOUT_MS,
        greetingTimeout: SEND_TIMEOUT_MS,
        socketTimeout: SEND_TIMEOUT_MS,
      }),
    ));
  return async (target, message, deliveryId) => {
    try {
      switch (target.kind) {
        case 'webhook': {
          const body = webhookBody(message);
          await post(
            target.url ?? '',
            body,
            {
              'x-wallboard-signature': signature(target.secret ?? '', body),
              'x-wallboard-delivery': deliveryId,
            },
            signal,
          );
          return;
        }
        case 'slack':
          await post(target.url ?? '', slackBody(message), {}, signal);
          return;
        case 'teams':
          await post(target.url ?? '', teamsBody(message), {}, signal);
          return;
        case 'email': {
          if (!smtp) throw new Error('no SMTP server is set (--smtp-url)');
          await (
            await mailerOf(smtp)
          ).sendMail({
            from: smtp.from,
            to: target.to,
            subject: alertSubject(message),
            text: alertText(message),
            headers: { 'x-wallboard-delivery': deliveryId },
          });
          return;
        }
      }
    } catch (error) {
      throw new Error(reason(error), { cause: error });
    }
  };
}
