/**
 * The ways a script is run. `raw` is the AI SDK itself, the reference; the
 * others are `createInterventions()` wrappers that must behave exactly like
 * it, since nothing they run decides anything.
 */
import { generateText, streamText } from 'ai';
import { createInterventions, InterventionActions, type InterventionHandlerLike, type InterventionHooks } from '../../src/index.ts';

export const CONFIGURATIONS = ['raw', 'idle', 'noop', 'handler', 'decides', 'declared', 'declared-held', 'tools'] as const;
export type Configuration = (typeof CONFIGURATIONS)[number];
/** The configurations compared against `raw`. */
export const WRAPPED = ['idle', 'noop', 'handler', 'decides', 'declared', 'declared-held', 'tools'] as const;
export type Wrapped = (typeof WRAPPED)[number];

export const DESCRIPTIONS: Readonly<Record<Configuration, string>> = {
  raw: 'the AI SDK generateText / streamText',
  idle: 'createInterventions() with nothing registered',
  noop: 'one no-op handler (all five lifecycle methods) and every hook registered as a no-op',
  handler: 'one no-op handler (all five lifecycle methods), no hooks',
  decides:
    "one no-op handler with beforeToolCall only (the most common guard): the model layer decides each tool call, a streamed step's calls are held each until decided, and nothing else is",
  declared:
    "the same handler declaring it only proceeds (toolCallActions: []): nothing holds a streamed step's calls, each is decided at the SDK's own approval point as the SDK hands it over",
  'declared-held':
    "one no-op handler (all five lifecycle methods) declaring it only proceeds (toolCallActions: []): afterModelCall holds each streamed step whole, and its calls are decided at the SDK's own approval point",
  tools:
    "only the tool-level hooks as no-ops (gateToolCalls proceeding, preToolCall, onToolCallResult, onToolCallError): tools are guarded and a streamed step's tool calls are held, but the step itself is not",
};

export const MODES = ['generateText', 'streamText'] as const;
export type Mode = (typeof MODES)[number];

/** A runtime: `generateText` / `streamText` with the SDK's option and result types loosened. */
export interface Runner {
  readonly generateText: (options: Record<string, unknown>) => Promise<object>;
  readonly streamText: (options: Record<string, unknown>) => object;
}

/** A handler defining all five lifecycle methods, each proceeding. */
export function noopHandler(): InterventionHandlerLike {
  return {
    name: 'conformance-noop',
    beforeInvocation: () => InterventionActions.proceed(),
    beforeModelCall: () => InterventionActions.proceed(),
    afterModelCall: () => InterventionActions.proceed(),
    beforeToolCall: () => InterventionActions.proceed(),
    afterToolCall: () => InterventionActions.proceed(),
  };
}

/** Every hook, each doing nothing (gates proceed with every call). */
export function noopHooks(): InterventionHooks {
  return {
    onChatStart: () => {},
    onChatDone: () => {},
    onChatAbort: () => {},
    onChatError: () => {},
    onMessage: () => {},
    onDecision: () => {},
    onStatus: () => {},
    preRequest: () => undefined,
    onResponse: () => undefined,
    preToolCall: () => undefined,
    onToolCallResult: () => undefined,
    onToolCallError: () => undefined,
    transformContext: () => undefined,
    gateToolCalls: ({ calls }) => calls.map(() => InterventionActions.proceed()),
    drainSteering: () => undefined,
    drainFollowUp: () => undefined,
  };
}

/**
 * A fresh runtime for one script (a script's phases share it, as one
 * server's requests share a runtime).
 */
export function runnerFor(configuration: Configuration): Runner {
  switch (configuration) {
    case 'raw':
      return {
        generateText: (options) => generateText(options as never),
        streamText: (options) => streamText(options as never),
      };
    case 'idle':
      return loosen(createInterventions());
    case 'noop':
      return loosen(createInterventions({ handlers: [noopHandler()], hooks: noopHooks() }));
    case 'handler':
      return loosen(createInterventions({ handlers: [noopHandler()] }));
    case 'decides':
      return loosen(
        createInterventions({ handlers: [{ name: 'conformance-decides', beforeToolCall: () => InterventionActions.proceed() }] }),
      );
    case 'declared':
      return loosen(
        createInterventions({
          handlers: [{ name: 'conformance-declared', toolCallActions: [], beforeToolCall: () => InterventionActions.proceed() }],
        }),
      );
    case 'declared-held':
      return loosen(createInterventions({ handlers: [{ ...noopHandler(), name: 'conformance-declared-held', toolCallActions: [] }] }));
    case 'tools': {
      const { gateToolCalls, preToolCall, onToolCallResult, onToolCallError } = noopHooks();
      return loosen(createInterventions({ hooks: { gateToolCalls, preToolCall, onToolCallResult, onToolCallError } }));
    }
  }
}

function loosen(interventions: ReturnType<typeof createInterventions>): Runner {
  return {
    generateText: (options) => interventions.generateText(options as never),
    streamText: (options) => interventions.streamText(options as never),
  };
}
