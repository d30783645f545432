/**
 * The interventions around the chat's `streamText`: three handlers, one per
 * decision the page shows.
 *
 * - ToolGuard DENIES `run_shell`: the call never runs, the model reads why.
 * - EmailValidator GUIDES `send_email` without a subject: not run, the model
 *   reads the feedback and retries.
 * - DeleteApproval CONFIRMS `delete_file`: the run pauses for a human
 *   (Approve / Deny in the page) and the next request resumes it.
 */
import { randomBytes } from 'node:crypto';
import {
  createInterventions,
  InterventionActions,
  InterventionHandler,
  type BeforeToolCallEvent,
} from 'ai-interventions';

export class ToolGuard extends InterventionHandler {
  readonly name = 'tool-guard';
  readonly #blocked: ReadonlyMap<string, string>;

  constructor(blocked: Record<string, string>) {
    super();
    this.#blocked = new Map(Object.entries(blocked));
  }

  override beforeToolCall(event: BeforeToolCallEvent) {
    const reason = this.#blocked.get(event.toolCall.toolName);
    return reason === undefined ? InterventionActions.proceed() : InterventionActions.deny(reason);
  }
}

export class EmailValidator extends InterventionHandler {
  readonly name = 'email-validator';

  override beforeToolCall(event: BeforeToolCallEvent) {
    const input = event.toolCall.input as { subject?: string };
    if (event.toolCall.toolName === 'send_email' && !input.subject?.trim()) {
      return InterventionActions.guide('All emails must include a subject line.');
    }
    return InterventionActions.proceed();
  }
}

export class DeleteApproval extends InterventionHandler {
  readonly name = 'delete-approval';

  override beforeToolCall(event: BeforeToolCallEvent) {
    if (event.toolCall.toolName === 'delete_file') {
      const input = event.toolCall.input as { path: string };
      return InterventionActions.confirm(`Approve deleting "${input.path}"?`);
    }
    return InterventionActions.proceed();
  }
}

const SECRET_KEY = Symbol.for('ai-interventions-example.approval-secret');

/**
 * Signs approval requests, so a forged or edited approval sent by a client runs
 * nothing. Set APPROVAL_SECRET in production (and share it between instances);
 * without it, a random secret per server process.
 */
function approvalSecret(): string {
  if (process.env.APPROVAL_SECRET) return process.env.APPROVAL_SECRET;
  const store = globalThis as typeof globalThis & { [SECRET_KEY]?: string };
  return (store[SECRET_KEY] ??= randomBytes(32).toString('hex'));
}

const RUNTIME_KEY = Symbol.for('ai-interventions-example.runtime');

/**
 * One runtime per server process: its approval ledger remembers which
 * approvals were used, so a replayed resume request runs nothing twice.
 */
export function interventions() {
  const store = globalThis as typeof globalThis & { [RUNTIME_KEY]?: ReturnType<typeof createInterventions> };
  return (store[RUNTIME_KEY] ??= createInterventions({
    handlers: [
      new ToolGuard({ run_shell: 'Shell commands are disabled in this chat; use the file tools instead.' }),
      new EmailValidator(),
      new DeleteApproval(),
    ],
    approvalSecret: approvalSecret(),
  }));
}
