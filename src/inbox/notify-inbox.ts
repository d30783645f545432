import { InterventionsWarning } from '../errors/interventions-warning.ts';
import { getErrorMessage } from '../util/get-error-message.ts';
import type { ApprovalInbox } from './approval-inbox.ts';
import type { ApprovalNotification } from './approval-notification.ts';

/**
 * Tells the app (the inbox's `notify`); a notification that throws, or does
 * not answer within the inbox's `notifyTimeoutMs`, is a warning, never a failure
 * of the request (a webhook that hangs holds no run).
 */
export async function notifyInbox(inbox: ApprovalInbox, notification: ApprovalNotification): Promise<void> {
  if (inbox.notify === undefined) return;
  const timeoutMs = inbox.notifyTimeoutMs ?? 10_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), timeoutMs);
  });
  let why: string | undefined;
  try {
    const told = Promise.resolve(inbox.notify(notification));
    // a notify that answers after the timeout is not left to reject unhandled
    told.catch(() => undefined);
    if ((await Promise.race([told, late])) === 'late') why = `did not answer within ${timeoutMs} ms`;
  } catch (error) {
    why = `threw (${(error instanceof Error ? error.message : getErrorMessage(error)).split('\n')[0]})`;
  } finally {
    clearTimeout(timer);
  }
  if (why === undefined) return;
  const warning = new InterventionsWarning({
    code: 'inbox-notify-failed',
    message: `The approval inbox's notify ${why} on a '${notification.type}' notification of request ${notification.request.id}: the request stands; nobody was told.`,
  });
  const host = (globalThis as { process?: { emitWarning?: (warning: Error) => void } }).process;
  if (typeof host?.emitWarning === 'function') host.emitWarning(warning);
  else console.warn(warning.message);
}
