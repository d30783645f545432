import { InterventionsWarning } from '../errors/interventions-warning.ts';
import { getErrorMessage } from '../util/get-error-message.ts';
import type { ApprovalInbox } from './approval-inbox.ts';
import type { ApprovalNotification } from './approval-notification.ts';

/** Tells the app (the inbox's `notify`); a notification that fails is a warning, never a failure of the request. */
export async function notifyInbox(inbox: ApprovalInbox, notification: ApprovalNotification): Promise<void> {
  if (inbox.notify === undefined) return;
  try {
    await inbox.notify(notification);
  } catch (error) {
    const warning = new InterventionsWarning({
      code: 'inbox-notify-failed',
      message: `The approval inbox's notify threw on a '${notification.type}' notification of request ${notification.request.id} (${getErrorMessage(error).split('\n')[0]}): the request stands; nobody was told.`,
    });
    const host = (globalThis as { process?: { emitWarning?: (warning: Error) => void } }).process;
    if (typeof host?.emitWarning === 'function') host.emitWarning(warning);
    else console.warn(warning.message);
  }
}
