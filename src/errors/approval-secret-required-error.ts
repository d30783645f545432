import { InterventionsError } from './interventions-error.ts';

const name = 'AIInterventions_ApprovalSecretRequiredError';
const marker = `ai-interventions.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * A resumed approval does not carry a valid signature of this runtime, and
 * the runtime has no configured `approvalSecret`: without one, each runtime
 * signs approvals with a random secret of its own, so an approval made by
 * another server instance, or by this one before a restart, cannot be
 * verified here (nor can one whose call or arguments were changed).
 * Nothing was executed. Set `createInterventions({ approvalSecret })` to the
 * same secret on every instance. (With a configured secret, a bad signature
 * is the AI SDK's own `InvalidToolApprovalSignatureError`: a forgery.)
 *
 * The wrappers no longer fail a call with it: they refuse such an approval
 * for the person before the SDK reads it (a `deny` record of
 * `'approval-verification'`; the model reads why and may ask again). It
 * remains for a call the SDK still rejects that way.
 *
 * @example
 * ```ts
 * try {
 *   await interventions.generateText({ model, tools, messages });
 * } catch (error) {
 *   if (ApprovalSecretRequiredError.isInstance(error)) console.error('set APPROVAL_SECRET on every instance:', error.approvalId);
 * }
 * ```
 */
export class ApprovalSecretRequiredError extends InterventionsError {
  // used in isInstance
  private readonly [symbol] = true;

  /** The approval that could not be verified. */
  readonly approvalId: string;
  /** The tool call it approves. */
  readonly toolCallId: string;
  /** `'missing'`: the request has no signature; `'invalid'`: it was signed with another secret, or changed. */
  readonly signature: 'missing' | 'invalid';

  constructor({
    approvalId,
    toolCallId,
    signature,
    cause,
  }: {
    approvalId: string;
    toolCallId: string;
    signature: 'missing' | 'invalid';
    cause?: unknown;
  }) {
    super({
      name,
      code: 'approval-secret-required',
      message:
        `The approval "${approvalId}" (tool call "${toolCallId}") ${signature === 'missing' ? 'is not signed' : 'was not signed by this runtime'}, so nothing was executed. ` +
        'Without approvalSecret, each runtime signs approvals with a random secret of its own: an approval made by another server instance, ' +
        'or before a restart, cannot be verified (nor one whose call or arguments were changed). ' +
        'Set createInterventions({ approvalSecret }) to the same secret on every instance.',
      cause,
    });
    this.approvalId = approvalId;
    this.toolCallId = toolCallId;
    this.signature = signature;
  }

  static override isInstance(error: unknown): error is ApprovalSecretRequiredError {
    return InterventionsError.hasMarker(error, marker);
  }
}
