/**
 * The benchmark's own dependencies that the library does not have: mitata and
 * the peers. They are loaded with `import()` of a computed specifier, so the
 * root `npm run typecheck` (whose tsconfig includes bench/) still passes when
 * bench/node_modules is not installed. The small interfaces below describe
 * exactly the part of each API the benchmark uses.
 */

async function load<T>(specifier: string): Promise<T> {
  return (await import(specifier)) as T;
}

// mitata
export interface MitataStats {
  readonly samples: readonly number[]; // ns, sorted, trimmed
  readonly avg: number;
}
export interface Mitata {
  measure(fn: () => unknown, options: { min_samples?: number; min_cpu_time?: number }): Promise<MitataStats>;
}
export const loadMitata = (): Promise<Mitata> => load<Mitata>('mitata');

// LangChain.js v1 (langchain + @langchain/core)
export type Constructor<T = object> = new (...args: never[]) => T;
export interface LangChainMessage {
  readonly content: unknown;
}
export interface LangChain {
  createAgent(params: { model: unknown; tools: unknown[]; middleware?: unknown[] }): {
    invoke(
      input: { messages: { role: string; content: string }[] },
      config?: { recursionLimit?: number },
    ): Promise<{ messages: LangChainMessage[] }>;
  };
  createMiddleware(config: {
    name: string;
    beforeModel?: (state: unknown) => unknown;
    afterModel?: (state: unknown) => unknown;
    wrapToolCall?: (request: unknown, handler: (request: unknown) => unknown) => unknown;
  }): unknown;
  tool<I>(fn: (input: I) => unknown, fields: { name: string; description: string; schema: unknown }): unknown;
  AIMessage: (new (
    fields: string | { content: string; tool_calls?: unknown[] },
  ) => LangChainMessage) & {
    isInstance(message: unknown): boolean;
  };
}
export interface LangChainCore {
  BaseChatModel: new (fields: object) => object;
}
export const loadLangChain = (): Promise<LangChain> => load<LangChain>('langchain');
export const loadLangChainChatModels = (): Promise<LangChainCore> => load<LangChainCore>('@langchain/core/language_models/chat_models');

// Strands Agents TS
export interface StrandsMessage {
  readonly role: string;
}
export interface StrandsAgent {
  messages: StrandsMessage[];
  invoke(prompt: string): Promise<{ stopReason: string; toString(): string }>;
}
export interface Strands {
  Agent: new (config: {
    model: unknown;
    tools: unknown[];
    printer: boolean;
    conversationManager: unknown;
    interventions: unknown[];
  }) => StrandsAgent;
  Model: new () => object;
  InterventionHandler: new () => object;
  InterventionActions: { proceed(): unknown };
  NullConversationManager: new () => unknown;
  tool<I>(config: { name: string; description: string; inputSchema: unknown; callback: (input: I) => unknown }): unknown;
}
export const loadStrands = (): Promise<Strands> => load<Strands>('@strands-agents/sdk');
