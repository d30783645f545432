/**
 * The interventions around the chat's `streamText`, one per decision the page
 * shows. Each gives the model its reason, and people a short one (the second
 * argument of deny / guide), which reaches the page as `data-intervention`
 * parts, never the model.
 *
 * - ToolGuard DENIES `run_shell`: the call never runs, the model reads why.
 * - EmailValidator GUIDES `send_email` without a subject: not run, the model
 *   reads the feedback and retries.
 * - PathGuard DENIES deleting anything outside /tmp, also when a person
 *   edited the path before approving (every handler runs again on an edit).
 * - humanApproval CONFIRMS `delete_file`: the run pauses for a person
 *   (approve, approve for this chat, deny with a reason, edit then approve)
 *   and the next request resumes it.
 * - humanApproval CONFIRMS `deploy` for a MANAGER only: its request says so
 *   (as words, "a manager", and as a rule the page compares with whoever is
 *   signed in), a requester's own approval would run nothing, and the
 *   approved deployment runs on behalf of the requester.
 *
 * Each handler declares the actions it takes (`toolCallActions`); none
 * transforms a call, so the chat streams each tool call as the provider
 * sends it, as the plain AI SDK does, and the SDK's approval point decides it.
 */
import { randomBytes } from 'node:crypto';
import {
  type BeforeToolCallEvent,
  createApprovalInbox,
  createApprovalLedger,
  createInterventions,
  humanApproval,
  InterventionActions,
  InterventionHandler,
  type ToolCallActionType,
} from 'ai-interventions';
import { sharedStore } from './shared-store';

export class ToolGuard extends InterventionHandler {
  readonly name = 'tool-guard';
  // it only ever denies: the chat streams tool calls as they come, and each is decided at the SDK's approval point
  readonly toolCallActions: readonly ToolCallActionType[] = ['deny'];
  readonly #blocked: ReadonlyMap<string, { readonly reason: string; readonly display: string }>;

  constructor(blocked: Record<string, { readonly reason: string; readonly display: string }>) {
    super();
    this.#blocked = new Map(Object.entries(blocked));
  }

  override beforeToolCall(event: BeforeToolCallEvent) {
    const blocked = this.#blocked.get(event.toolCall.toolName);
    return blocked === undefined ? InterventionActions.proceed() : InterventionActions.deny(blocked.reason, blocked.display);
  }
}

export class EmailValidator extends InterventionHandler {
  readonly name = 'email-validator';
  readonly toolCallActions: readonly ToolCallActionType[] = ['guide'];

  override beforeToolCall(event: BeforeToolCallEvent) {
    const input = event.toolCall.input as { subject?: string };
    if (event.toolCall.toolName === 'send_email' && !input.subject?.trim()) {
      return InterventionActions.guide('All emails must include a subject line.', 'An email needs a subject');
    }
    return InterventionActions.proceed();
  }
}

export class PathGuard extends InterventionHandler {
  readonly name = 'path-guard';
  readonly toolCallActions: readonly ToolCallActionType[] = ['deny'];

  override beforeToolCall(event: BeforeToolCallEvent) {
    if (event.toolCall.toolName !== 'delete_file') return InterventionActions.proceed();
    const { path } = event.toolCall.input as { path: string };
    return path === '/tmp' || path.startsWith('/tmp/')
      ? InterventionActions.proceed()
      : InterventionActions.deny(`Only paths under /tmp may be deleted, not ${JSON.stringify(path)}.`, 'Only /tmp may be deleted');
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
 * approvals were used, so a replayed resume request runs nothing twice;
 * its approval inbox keeps every request a confirm asks, so a manager can
 * list and answer them on the inbox page (`interventions().inbox`); and
 * humanApproval's store remembers "for this chat" answers (per
 * `runtimeContext.sessionId`, the chat id). The ledger and the inbox live in
 * this process's memory, or on Redis when `REDIS_URL` is set
 * (`lib/shared-store.ts`), where a restarted server, or another instance,
 * finds them.
 */
export function interventions() {
  const store = globalThis as typeof globalThis & { [RUNTIME_KEY]?: ReturnType<typeof createInterventions> };
  return (store[RUNTIME_KEY] ??= createInterventions({
    handlers: [
      new ToolGuard({
        run_shell: {
          reason: 'Shell commands are disabled in this chat; use the file tools instead.',
          display: 'The shell is off in this chat',
        },
      }),
      new EmailValidator(),
      new PathGuard(),
      humanApproval({
        name: 'delete-approval',
        tools: 'delete_file',
        prompt: ({ toolCall }) => `Approve deleting "${(toolCall.input as { path: string }).path}"?`,
      }),
      humanApproval({
        name: 'deploy-approval',
        tools: 'deploy',
        prompt: ({ toolCall }) => `Approve deploying to ${(toolCall.input as { environment: string }).environment}?`,
        // who may answer: from the trusted runtimeContext of the request that carries the answer
        approvers: { roles: ['manager'], label: 'a manager' },
      }),
    ],
    // the page shows a decision log of every call, proceed included, and the person's answers
    decisionParts: 'all',
    approvalSecret: approvalSecret(),
    // in this process's memory, or on Redis (REDIS_URL): instances behind a load balancer, or a restarted one, share it
    approvalLedger: createApprovalLedger({ store: sharedStore() }),
    // the requests waiting for people, listed and answered on the inbox page
    approvalInbox: createApprovalInbox({ store: sharedStore() }),
  }));
}
