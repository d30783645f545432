/**
 * What the documentation's fragments assume you already have: a model, your
 * tools, the conversation, your runtime, a Redis client. A fragment (a TSDoc
 * example, or a block of a page whose fence says ```ts fragment) may use
 * these names (see `check-snippets.ts`); every other block of a page is a
 * program and must stand on its own.
 *
 * Only things that live outside the snippet are here, declared (no values)
 * with the types they would have in an app. The handler classes are the
 * documentation's own, declared as its pages define them, so a snippet that
 * uses one uses it as the docs show it.
 */
import type { ChatAddToolApproveResponseFunction, LanguageModel, ModelMessage, Tool, ToolUIPart } from 'ai';
import type { Redis } from 'ioredis';
import type { ApprovalLedger, DecisionTrail, Redactor, Store } from '../../src/index.ts';
import {
  type BeforeToolCallEvent,
  type Confirm,
  type Deny,
  InterventionHandler,
  type InterventionHandlerLike,
  type Interventions,
  type Proceed,
} from '../../src/index.ts';

/** Any AI SDK model, e.g. `openai('gpt-5-mini')`. */
export declare const model: LanguageModel;
/** A second model, e.g. a small one for a judge. */
export declare const judgeModel: LanguageModel;

/** Your tools, made with `tool()` from 'ai'. */
export declare const search: Tool<{ query: string }, string[]>;
export declare const list_files: Tool<{ dir: string }, string[]>;
export declare const read_file: Tool<{ path: string }, string>;
export declare const delete_file: Tool<{ path: string }, string>;
export declare const send_email: Tool<{ to: string; subject?: string; body: string }, { sent: boolean }>;
export declare const tools: {
  search: typeof search;
  list_files: typeof list_files;
  read_file: typeof read_file;
  delete_file: typeof delete_file;
  send_email: typeof send_email;
};

/** The conversation so far, and a user's message. */
export declare const messages: ModelMessage[];
export declare const prompt: string;
/** Your system prompt. */
export declare const instructions: string;

/** Your runtime, made once with `createInterventions(...)`. */
export declare const interventions: Interventions;
/** Your handlers. */
export declare const handlers: InterventionHandlerLike[];

/** The signed-in user's session, as your auth library gives it. */
export declare const session: { readonly userId: string; readonly chatId: string };

/** An ioredis client, `new Redis(process.env.REDIS_URL)`, under both names snippets give it. */
export declare const redis: Redis;
export declare const client: Redis;
/** ioredis's client class, for snippets that make one. */
export { Redis } from 'ioredis';
/** A store on that Redis, `createRedisStore({ client: redis })`. */
export declare const redisStore: Store;

/** The conversation's id, and the signed-in user's. */
export declare const chatId: string;
export declare const userId: string;

/** A decision trail, `createDecisionTrail({ store: redisStore, key: ... })`. */
export declare const trail: DecisionTrail;

/** An approval ledger, and the id of an approval a human answered. */
export declare const ledger: ApprovalLedger;
export declare const approvalId: string;
/** The request's abort signal. */
export declare const abortSignal: AbortSignal;

/** A redactor, e.g. `redactPii().redactor`. */
export declare const redactor: Redactor;

/** `useChat`'s `addToolApprovalResponse` (from `@ai-sdk/react`), in a chat page. */
export declare const addToolApprovalResponse: ChatAddToolApproveResponseFunction;
/** A tool part of a `useChat` message that waits for a person's answer. */
export declare const part: Extract<ToolUIPart, { state: 'approval-requested' }>;

/** Your logger. */
export declare const log: Pick<Console, 'info' | 'warn' | 'error'>;

/** Your policy service. */
export declare const policy: { allows(toolName: string): Promise<boolean> };

/** Denies the tools it is given (README, "Quick start"; `InterventionHandler`'s TSDoc). */
export declare class ToolGuard extends InterventionHandler {
  readonly name: 'tool-guard';
  constructor(blockedTools: readonly string[]);
  override beforeToolCall(event: BeforeToolCallEvent): Proceed | Deny;
}

/** Asks a human before `delete_file` (docs/human-approval.md). */
export declare class DeleteApproval extends InterventionHandler {
  readonly name: 'delete-approval';
  override beforeToolCall(event: BeforeToolCallEvent): Proceed | Confirm;
}

/** Denies queries on production databases (docs/testing.md). */
export declare class EnvironmentGuard extends InterventionHandler {
  readonly name: 'environment-guard';
  override beforeToolCall(event: BeforeToolCallEvent): Proceed | Deny;
}
