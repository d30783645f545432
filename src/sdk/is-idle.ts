import { hasTypedAnswers } from '../answers/decode-answers.ts';
import type { RuntimeSnapshot } from '../run/runtime-snapshot.ts';
import type { CallOptions } from './call-options.ts';

/** Whether nothing is registered: a call then goes straight to the SDK. */
export function isIdle({ handlers, hooks, redactors }: RuntimeSnapshot): boolean {
  if (handlers.all.length > 0 || redactors.length > 0) return false;
  for (const list of Object.values(hooks)) if (list.length > 0) return false;
  return true;
}

/**
 * Whether a call needs a run: something is registered, it uses loop
 * options, or its history holds typed approval answers (to decode).
 * Otherwise the call is the SDK's own, resumes included.
 */
export function needsRun(snapshot: RuntimeSnapshot, options: CallOptions): boolean {
  // the common case first, in one reading: a registered handler
  if (snapshot.handlers.all.length > 0) return true;
  return (
    !isIdle(snapshot) ||
    options.steering !== undefined ||
    options.followUp !== undefined ||
    options.maxSteps !== undefined ||
    hasTypedAnswers(options.messages ?? (Array.isArray(options.prompt) ? options.prompt : []))
  );
}
