/**
 * Parity tests for seed 001 (experimental-agent hooks), through the public
 * API: every example and rule of the seed, run through
 * `interventions.generateText` and again through `interventions.streamText`
 * on a scripted `MockLanguageModelV4`. Assertions are on what the provider
 * was sent (`model.calls[n].prompt` / `.tools`), which tools executed and
 * with what input, and what the caller got.
 *
 * Name mapping (DESIGN.md): `tool.before` is `preToolCall` (`{ input }` →
 * `{ call: { ...call, input } }`; a throw ends the call, `{ error }` is the
 * recoverable block), `tool.after` is `onToolCallResult` (`{ result }`), the
 * hook's `context: ToolContext` is `ctx.runtimeContext` (per-request data),
 * `ctx.toolContext` (the tool's own `contextSchema` context) and
 * `ctx.messages`, and the `status` hook is the `onStatus` observer.
 */
import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { dynamicTool, isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type AfterModelCallEvent,
  type BeforeToolCallEvent,
  createInterventions,
  InterventionActions,
  InterventionHandler,
  type InterventionHooks,
  type OnToolCallResultContext,
  type PreToolCallContext,
  type RunStatus,
} from '../../src/index.ts';
import { rejectionOf } from '../helpers/rejection-of.ts';
import { type CallOptions, MODES, run } from '../helpers/run-both.ts';
import { scriptedModel, step, text, toolCall, toolResultsSent } from '../helpers/scripted-model.ts';

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------- tools

type CommandInput = { command: string };

/**
 * The agent's tools: `Bash` and `Read` named like experimental-agent's
 * built-in tools, a custom `run_tests` tool, and a dynamic `mcp_exec` tool
 * (`dynamicTool`, as an MCP server would give it). Every execution is
 * recorded with the input it actually ran with.
 */
function agentTools(outputs: { bashStdout?: (command: string) => string } = {}) {
  const ran: Array<{ readonly tool: string; readonly input: unknown }> = [];
  const Bash = tool({
    description: 'Run a shell command',
    inputSchema: z.object({ command: z.string() }),
    execute: async (input) => {
      ran.push({ tool: 'Bash', input });
      return { stdout: outputs.bashStdout?.(input.command) ?? `ran: ${input.command}`, exitCode: 0 };
    },
  });
  const Read = tool({
    description: 'Read a file',
    inputSchema: z.object({ path: z.string() }),
    execute: async (input) => {
      ran.push({ tool: 'Read', input });
      return `contents of ${input.path}`;
    },
  });
  const run_tests = tool({
    description: 'Run the project tests (a custom tool)',
    inputSchema: z.object({ command: z.string() }),
    execute: async (input) => {
      ran.push({ tool: 'run_tests', input });
      return `tests ran with: ${input.command}`;
    },
  });
  const mcp_exec = dynamicTool({
    description: 'Execute a command on a remote host (a dynamic MCP tool)',
    inputSchema: z.object({ command: z.string() }),
    execute: async (input) => {
      ran.push({ tool: 'mcp_exec', input });
      return { remote: `executed ${(input as CommandInput).command}` };
    },
  });
  const inputsOf = (name: string) => ran.filter((entry) => entry.tool === name).map((entry) => entry.input);
  return { tools: { Bash, Read, run_tests, mcp_exec }, ran, inputsOf };
}

/**
 * The seed's `tool.before` example as a `preToolCall` hook: block a
 * destructive Bash command by throwing, otherwise prefix every command with
 * `cd /safe && `; tools without a command pass through (return undefined).
 */
const toolBefore: InterventionHooks['preToolCall'] = async ({ call }) => {
  const input = call.input as Record<string, unknown>;
  if (typeof input.command !== 'string') return undefined;
  if (call.toolName === 'Bash' && input.command.includes('rm -rf')) {
    throw new Error('Destructive commands are not allowed');
  }
  return { call: { ...call, input: { ...input, command: `cd /safe && ${input.command}` } } };
};

/** The seed's `redactSecrets`. */
function redactSecrets(value: string): string {
  return value
    .replace(/\b(sk|pk)-[A-Za-z0-9-]{6,}\b/g, '[REDACTED]')
    .replace(/\b([A-Z_]*(?:SECRET|TOKEN|PASSWORD|KEY)[A-Z_]*)=\S+/g, '$1=[REDACTED]');
}

/** The seed's `tool.after` example as an `onToolCallResult` hook. */
const toolAfter: InterventionHooks['onToolCallResult'] = async ({ call, result }) => {
  if (call.toolName === 'Bash') {
    const r = result as { stdout: string };
    return { result: { ...r, stdout: redactSecrets(r.stdout) } };
  }
  return undefined;
};

/** The names of the tools offered to the model in the n-th request. */
function toolsOffered(model: ReturnType<typeof scriptedModel>, call: number): string[] {
  return (model.calls[call]?.tools ?? []).map((offered) => offered.name).sort();
}

/** Every tool result of a prompt has its tool call earlier in the same prompt. */
function orphanToolResults(prompt: LanguageModelV4Prompt | undefined): string[] {
  const calls = new Set<string>();
  const orphans: string[] = [];
  for (const message of prompt ?? []) {
    if (message.role === 'assistant') {
      for (const part of message.content) if (part.type === 'tool-call') calls.add(part.toolCallId);
    }
    if (message.role === 'tool') {
      for (const part of message.content) {
        if (part.type === 'tool-result' && !calls.has(part.toolCallId)) orphans.push(part.toolCallId);
      }
    }
  }
  return orphans;
}

// ---------------------------------------------------------------- tool.before

describe.each(MODES)('seed 001: tool.before → preToolCall (%s)', (mode) => {
  it('should replace the input before the tool runs, for built-in-like, custom and dynamic tools alike (`cd /safe && …`)', async () => {
    const { tools, inputsOf } = agentTools();
    const interventions = createInterventions({ hooks: { preToolCall: toolBefore } });
    const model = scriptedModel(
      step(
        toolCall('c1', 'Bash', { command: 'ls -la' }),
        toolCall('c2', 'run_tests', { command: 'npm test' }),
        toolCall('c3', 'mcp_exec', { command: 'whoami' }),
        toolCall('c4', 'Read', { path: '/etc/motd' }),
      ),
      step(text('All done in /safe.')),
    );

    const result = await run(interventions, mode, {
      model,
      tools,
      stopWhen: isStepCount(5),
      prompt: 'Inspect the project',
    });

    // every tool, built-in-like, custom and dynamic, was offered and ran with the replaced input
    expect(toolsOffered(model, 0)).toEqual(['Bash', 'Read', 'mcp_exec', 'run_tests']);
    expect(inputsOf('Bash')).toEqual([{ command: 'cd /safe && ls -la' }]);
    expect(inputsOf('run_tests')).toEqual([{ command: 'cd /safe && npm test' }]);
    expect(inputsOf('mcp_exec')).toEqual([{ command: 'cd /safe && whoami' }]);
    // return undefined: passed through unchanged
    expect(inputsOf('Read')).toEqual([{ path: '/etc/motd' }]);

    // the model read the results of the replaced inputs
    const sent = toolResultsSent(model, 1);
    expect(sent.c1).toEqual({ type: 'json', value: { stdout: 'ran: cd /safe && ls -la', exitCode: 0 } });
    expect(sent.c2).toEqual({ type: 'text', value: 'tests ran with: cd /safe && npm test' });
    expect(sent.c3).toEqual({ type: 'json', value: { remote: 'executed cd /safe && whoami' } });
    expect(sent.c4).toEqual({ type: 'text', value: 'contents of /etc/motd' });
    expect(result.text).toBe('All done in /safe.');
    // the caller's tool results are the ones of the replaced inputs
    const callerResults = Object.fromEntries((result.steps[0]?.toolResults ?? []).map((part) => [part.toolCallId, part.output]));
    expect(callerResults.c1).toEqual({ stdout: 'ran: cd /safe && ls -la', exitCode: 0 });
    expect(callerResults.c3).toEqual({ remote: 'executed cd /safe && whoami' });
  });

  it('should give the hook the tool name to branch on (no per-tool configuration) and the parsed input', async () => {
    const { tools } = agentTools();
    const seen: Array<{ name: string; input: unknown }> = [];
    const interventions = createInterventions({
      hooks: {
        preToolCall: ({ call }) => {
          seen.push({ name: call.toolName, input: call.input });
        },
      },
    });
    const model = scriptedModel(
      step(toolCall('c1', 'Bash', { command: 'pwd' }), toolCall('c2', 'mcp_exec', { command: 'uptime' })),
      step(text('ok')),
    );
    await run(interventions, mode, { model, tools, stopWhen: isStepCount(5), prompt: 'go' });
    expect([...seen].sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'Bash', input: { command: 'pwd' } },
      { name: 'mcp_exec', input: { command: 'uptime' } },
    ]);
  });

  it('should block by throwing: the call ends with the error, the tool never runs, the model is not called again', async () => {
    const { tools, ran } = agentTools();
    const errors: unknown[] = [];
    const done: unknown[] = [];
    const interventions = createInterventions({
      hooks: {
        preToolCall: toolBefore,
        onChatError: ({ error }) => void errors.push(error),
        onChatDone: (ctx) => void done.push(ctx),
      },
    });
    const model = scriptedModel(step(toolCall('c1', 'Bash', { command: 'rm -rf /' })), step(text('should never be reached')));

    const error = await rejectionOf(run(interventions, mode, { model, tools, stopWhen: isStepCount(5), prompt: 'Clean everything' }));

    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('Destructive commands are not allowed');
    expect(ran).toEqual([]);
    expect(model.calls).toHaveLength(1);
    expect(errors).toEqual([error]);
    expect(done).toEqual([]);
  });

  it.each(['run_tests', 'mcp_exec'] as const)(
    'should block a %s call by throwing the same way: hooks run for every tool',
    async (toolName) => {
      const { tools, ran } = agentTools();
      const interventions = createInterventions({
        hooks: {
          preToolCall: ({ call }) => {
            if ((call.input as Partial<CommandInput>).command?.includes('rm -rf')) {
              throw new Error('Destructive commands are not allowed');
            }
          },
        },
      });
      const model = scriptedModel(step(toolCall('c1', toolName, { command: 'rm -rf build' })), step(text('never')));

      const error = await rejectionOf(run(interventions, mode, { model, tools, stopWhen: isStepCount(5), prompt: 'Clean the build' }));

      expect((error as Error).message).toBe('Destructive commands are not allowed');
      expect(ran).toEqual([]);
      expect(model.calls).toHaveLength(1);
    },
  );

  it('should let a safe Bash command through the seed hook while blocking only the destructive one (separate calls)', async () => {
    const safe = agentTools();
    const interventions = createInterventions({ hooks: { preToolCall: toolBefore } });
    const safeModel = scriptedModel(step(toolCall('c1', 'Bash', { command: 'git status' })), step(text('clean')));
    const ok = await run(interventions, mode, { model: safeModel, tools: safe.tools, stopWhen: isStepCount(5), prompt: 'status?' });
    expect(ok.text).toBe('clean');
    expect(safe.inputsOf('Bash')).toEqual([{ command: 'cd /safe && git status' }]);

    // "rm -rf" in a tool that is not Bash is not blocked by the seed hook (it branches on the name)
    const other = agentTools();
    const otherModel = scriptedModel(step(toolCall('c1', 'run_tests', { command: 'rm -rf coverage && npm test' })), step(text('ok')));
    await run(interventions, mode, { model: otherModel, tools: other.tools, stopWhen: isStepCount(5), prompt: 'test' });
    expect(other.inputsOf('run_tests')).toEqual([{ command: 'cd /safe && rm -rf coverage && npm test' }]);
  });

  it('should block recoverably with { error } instead of a throw: the tool never runs, the model reads the reason and the run goes on', async () => {
    const { tools, inputsOf } = agentTools();
    const toolErrors: unknown[] = [];
    const interventions = createInterventions({
      hooks: {
        preToolCall: ({ call }) => {
          const input = call.input as Partial<CommandInput>;
          if (call.toolName === 'Bash' && input.command?.includes('rm -rf')) {
            return { error: new Error('Destructive commands are not allowed') };
          }
        },
        onToolCallError: ({ error }) => void toolErrors.push(error),
      },
    });
    const model = scriptedModel(
      step(toolCall('c1', 'Bash', { command: 'rm -rf /' }), toolCall('c2', 'Bash', { command: 'ls' })),
      step(text('I will not delete anything; here is the listing instead.')),
    );

    const result = await run(interventions, mode, { model, tools, stopWhen: isStepCount(5), prompt: 'Clean up' });

    expect(inputsOf('Bash')).toEqual([{ command: 'ls' }]);
    expect(model.calls).toHaveLength(2);
    const sent = toolResultsSent(model, 1);
    expect(sent.c1).toMatchObject({ type: 'error-text' });
    expect(JSON.stringify(sent.c1)).toContain('Destructive commands are not allowed');
    expect(sent.c2).toEqual({ type: 'json', value: { stdout: 'ran: ls', exitCode: 0 } });
    expect(orphanToolResults(model.calls[1]?.prompt)).toEqual([]);
    expect(toolErrors).toHaveLength(1);
    expect(result.text).toBe('I will not delete anything; here is the listing instead.');
  });

  it('should block recoverably with a beforeToolCall deny too: the model reads that the call was blocked and not executed', async () => {
    const { tools, ran } = agentTools();
    class NoDestructiveCommands extends InterventionHandler {
      readonly name = 'no-destructive-commands';
      override beforeToolCall(event: BeforeToolCallEvent) {
        const input = event.toolCall.input as Partial<CommandInput>;
        return event.toolCall.toolName === 'Bash' && input.command?.includes('rm -rf')
          ? InterventionActions.deny('Destructive commands are not allowed')
          : InterventionActions.proceed();
      }
    }
    const interventions = createInterventions({ handlers: [new NoDestructiveCommands()] });
    const model = scriptedModel(step(toolCall('c1', 'Bash', { command: 'rm -rf /' })), step(text('Blocked, as expected.')));

    const result = await run(interventions, mode, { model, tools, stopWhen: isStepCount(5), prompt: 'Clean up' });

    expect(ran).toEqual([]);
    const sent = toolResultsSent(model, 1).c1;
    expect(sent).toMatchObject({ type: 'execution-denied' });
    expect(JSON.stringify(sent)).toContain('was blocked and was not executed');
    expect(JSON.stringify(sent)).toContain('Destructive commands are not allowed');
    expect(result.text).toBe('Blocked, as expected.');
    expect(result.decisions).toMatchObject([{ handler: 'no-destructive-commands', action: 'deny', toolCallId: 'c1' }]);
  });
});

// ---------------------------------------------------------------- tool.after

describe.each(MODES)('seed 001: tool.after → onToolCallResult (%s)', (mode) => {
  const secretStdout = 'DATABASE_URL=postgres://db\nAPI_KEY=sk-live-123456789\nSTRIPE_SECRET=whsec_abcdef\ndone';

  it('should redact secrets in the Bash result (redactSecrets(stdout)) before the model sees it', async () => {
    const { tools, inputsOf } = agentTools({ bashStdout: () => secretStdout });
    const interventions = createInterventions({ hooks: { onToolCallResult: toolAfter } });
    const model = scriptedModel(
      step(toolCall('c1', 'Bash', { command: 'cat .env' }), toolCall('c2', 'Read', { path: 'API_KEY=sk-live-123456789' })),
      step(text('The env file is configured.')),
    );

    const result = await run(interventions, mode, { model, tools, stopWhen: isStepCount(5), prompt: 'Show the env' });

    // the tool itself ran once, with the original input
    expect(inputsOf('Bash')).toEqual([{ command: 'cat .env' }]);
    const sent = toolResultsSent(model, 1);
    expect(sent.c1).toEqual({
      type: 'json',
      value: {
        stdout: 'DATABASE_URL=postgres://db\nAPI_KEY=[REDACTED]\nSTRIPE_SECRET=[REDACTED]\ndone',
        exitCode: 0,
      },
    });
    // what the model read of the Bash result has no secret left
    expect(JSON.stringify(sent.c1)).not.toContain('sk-live-123456789');
    expect(JSON.stringify(sent.c1)).not.toContain('whsec_abcdef');
    // return undefined: other tools pass through unchanged
    expect(sent.c2).toEqual({ type: 'text', value: 'contents of API_KEY=sk-live-123456789' });
    // the caller's step results carry the redacted result too
    const bashResult = result.steps[0]?.toolResults.find((part) => part.toolCallId === 'c1');
    expect(bashResult?.output).toEqual({
      stdout: 'DATABASE_URL=postgres://db\nAPI_KEY=[REDACTED]\nSTRIPE_SECRET=[REDACTED]\ndone',
      exitCode: 0,
    });
    expect(result.text).toBe('The env file is configured.');
  });

  it('should give tool.after the name, the input the tool ran with, and the result', async () => {
    const { tools } = agentTools({ bashStdout: () => secretStdout });
    const seen: Array<{ name: string; input: unknown; result: unknown }> = [];
    const interventions = createInterventions({
      hooks: {
        preToolCall: toolBefore,
        onToolCallResult: [
          ({ call, result }) => {
            seen.push({ name: call.toolName, input: call.input, result });
          },
          toolAfter,
        ],
      },
    });
    const model = scriptedModel(step(toolCall('c1', 'Bash', { command: 'cat .env' })), step(text('ok')));

    await run(interventions, mode, { model, tools, stopWhen: isStepCount(5), prompt: 'Show the env' });

    expect(seen).toEqual([{ name: 'Bash', input: { command: 'cd /safe && cat .env' }, result: { stdout: secretStdout, exitCode: 0 } }]);
    expect(JSON.stringify(model.calls[1]?.prompt)).not.toContain('sk-live-123456789');
  });

  it('should run tool.after for a dynamic tool as well', async () => {
    const { tools } = agentTools();
    const interventions = createInterventions({
      hooks: {
        onToolCallResult: ({ call, result }) =>
          call.toolName === 'mcp_exec'
            ? { result: { remote: redactSecrets(`${(result as { remote: string }).remote} TOKEN=abc123`) } }
            : undefined,
      },
    });
    const model = scriptedModel(step(toolCall('c1', 'mcp_exec', { command: 'printenv' })), step(text('ok')));
    await run(interventions, mode, { model, tools, stopWhen: isStepCount(5), prompt: 'env?' });
    expect(toolResultsSent(model, 1).c1).toEqual({ type: 'json', value: { remote: 'executed printenv TOKEN=[REDACTED]' } });
  });
});

// ---------------------------------------------------------------- ToolContext

describe.each(MODES)("seed 001: the hooks' context (%s)", (mode) => {
  /** A tool that needs per-request data (an auth token), declared with `contextSchema`. */
  function deployTool() {
    const executed: Array<{ input: unknown; context: unknown }> = [];
    const deploy = tool({
      description: 'Deploy the app',
      inputSchema: z.object({ env: z.string() }),
      contextSchema: z.object({ authToken: z.string(), region: z.string() }),
      execute: async (input, { context }) => {
        executed.push({ input, context });
        return `deployed to ${input.env} in ${context.region}`;
      },
    });
    return { deploy, executed };
  }

  it("should give both tool hooks the runtime context, the tool's own context and the messages", async () => {
    const { deploy, executed } = deployTool();
    const { tools: agent } = agentTools();
    const before: PreToolCallContext[] = [];
    const after: OnToolCallResultContext[] = [];
    const interventions = createInterventions({
      hooks: {
        preToolCall: (ctx) => void before.push(ctx),
        onToolCallResult: (ctx) => void after.push(ctx),
      },
    });
    const model = scriptedModel(
      step(toolCall('c1', 'deploy', { env: 'staging' }), toolCall('c2', 'Bash', { command: 'ls' })),
      step(text('Deployed.')),
    );

    const result = await run(interventions, mode, {
      model,
      tools: { deploy, Bash: agent.Bash },
      // typed per tool set; `run` takes the options of any tool set
      toolsContext: { deploy: { authToken: 'tok-123', region: 'eu-west-1' } } as never,
      runtimeContext: { userId: 'user-42' },
      stopWhen: isStepCount(5),
      prompt: 'Deploy to staging',
    });

    expect(result.text).toBe('Deployed.');
    expect(executed).toEqual([{ input: { env: 'staging' }, context: { authToken: 'tok-123', region: 'eu-west-1' } }]);
    const beforeDeploy = before.find((ctx) => ctx.call.toolName === 'deploy');
    const afterDeploy = after.find((ctx) => ctx.call.toolName === 'deploy');
    for (const ctx of [beforeDeploy, afterDeploy]) {
      expect(ctx?.runtimeContext).toEqual({ userId: 'user-42' });
      expect(ctx?.toolContext).toEqual({ authToken: 'tok-123', region: 'eu-west-1' });
      // the messages the model was sent when it made the call
      expect(ctx?.messages).toHaveLength(1);
      expect(ctx?.messages[0]).toMatchObject({ role: 'user' });
      expect(JSON.stringify(ctx?.messages[0]?.content)).toContain('Deploy to staging');
      expect(ctx?.stepNumber).toBe(0);
    }
    expect(afterDeploy?.result).toBe('deployed to staging in eu-west-1');
    // a tool receives only its own context: Bash has none
    const beforeBash = before.find((ctx) => ctx.call.toolName === 'Bash');
    expect(beforeBash?.runtimeContext).toEqual({ userId: 'user-42' });
    expect(beforeBash?.toolContext).toBeUndefined();
  });

  it('should let a hook decide with the per-request context (block a user without deploy rights)', async () => {
    const { deploy, executed } = deployTool();
    const allowedUsers = new Set(['user-42']);
    const interventions = createInterventions({
      hooks: {
        preToolCall: ({ call, runtimeContext, toolContext }) => {
          if (call.toolName !== 'deploy') return undefined;
          if (!allowedUsers.has(String(runtimeContext.userId))) {
            return { error: new Error(`User ${String(runtimeContext.userId)} may not deploy`) };
          }
          // the tool context is available to the hook: record which region is targeted
          return {
            call: {
              ...call,
              input: {
                ...(call.input as object),
                env: `${(call.input as { env: string }).env}@${(toolContext as { region: string }).region}`,
              },
            },
          };
        },
      },
    });
    const options = (userId: string, model: ReturnType<typeof scriptedModel>): CallOptions => ({
      model,
      tools: { deploy },
      // typed per tool set; `run` takes the options of any tool set
      toolsContext: { deploy: { authToken: 'tok-123', region: 'eu-west-1' } } as never,
      runtimeContext: { userId },
      stopWhen: isStepCount(5),
      prompt: 'Deploy to prod',
    });

    const intruderModel = scriptedModel(step(toolCall('c1', 'deploy', { env: 'prod' })), step(text('Not allowed.')));
    await run(interventions, mode, options('user-7', intruderModel));
    expect(executed).toEqual([]);
    expect(JSON.stringify(toolResultsSent(intruderModel, 1).c1)).toContain('User user-7 may not deploy');

    const ownerModel = scriptedModel(step(toolCall('c1', 'deploy', { env: 'prod' })), step(text('Deployed.')));
    await run(interventions, mode, options('user-42', ownerModel));
    expect(executed).toEqual([{ input: { env: 'prod@eu-west-1' }, context: { authToken: 'tok-123', region: 'eu-west-1' } }]);
  });
});

// ---------------------------------------------------------------- status

describe.each(MODES)('seed 001: status hook → onStatus (%s)', (mode) => {
  /** Guides the model once when it answers too casually (afterModelCall → guide-retry). */
  class ToneCheck extends InterventionHandler {
    readonly name = 'tone-check';
    override afterModelCall(event: AfterModelCallEvent) {
      const said = event.response.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      return said.startsWith('yo') ? InterventionActions.guide('Use a professional tone.') : InterventionActions.proceed();
    }
  }
  /** An async policy check (handler-pending) that asks a human before Bash deletes anything (approval-pending). */
  class AsyncPolicy extends InterventionHandler {
    readonly name = 'async-policy';
    override async beforeToolCall(event: BeforeToolCallEvent) {
      await delay(5);
      const input = event.toolCall.input as Partial<CommandInput>;
      return input.command?.startsWith('rm ') ? InterventionActions.confirm(`Approve "${input.command}"?`) : InterventionActions.proceed();
    }
  }

  it('should report model calls, a guide retry, a pending async handler, a pending approval and the tool calls', async () => {
    const { tools, inputsOf } = agentTools();
    const statuses: RunStatus[] = [];
    const logged: string[] = [];
    const interventions = createInterventions({
      handlers: [new ToneCheck(), new AsyncPolicy()],
      hooks: {
        // the seed's example: status => console.log(`Agent status: ${status.type}`, status)
        onStatus: ({ status }) => {
          logged.push(`Agent status: ${status.type}`);
          statuses.push(status);
        },
      },
    });
    const model = scriptedModel(
      step(text('yo, on it')),
      step(
        text('I will list the files and remove the old build.'),
        toolCall('c1', 'Bash', { command: 'ls' }),
        toolCall('c2', 'Bash', { command: 'rm old-build.tar' }),
      ),
    );

    const result = await run(interventions, mode, {
      model,
      tools,
      stopWhen: isStepCount(5),
      prompt: 'Tidy the workspace',
    });

    // the run paused for the approval: ls ran, rm waits
    expect(inputsOf('Bash')).toEqual([{ command: 'ls' }]);
    expect(result.content.filter((part) => part.type === 'tool-approval-request')).toHaveLength(1);
    expect(model.calls).toHaveLength(2);
    // the retry carried the feedback
    expect(JSON.stringify(model.calls[1]?.prompt.at(-1))).toContain('[tone-check] Use a professional tone.');

    expect(statuses).toEqual([
      { type: 'model-call', stepNumber: 0, attempt: 0 },
      { type: 'guide-retry', stepNumber: 0, attempt: 1, feedback: '[tone-check] Use a professional tone.' },
      { type: 'model-call', stepNumber: 0, attempt: 1 },
      { type: 'handler-pending', handler: 'async-policy', lifecycle: 'beforeToolCall', toolCallId: 'c1', toolName: 'Bash' },
      { type: 'handler-pending', handler: 'async-policy', lifecycle: 'beforeToolCall', toolCallId: 'c2', toolName: 'Bash' },
      { type: 'approval-pending', toolCallId: 'c2', toolName: 'Bash', prompt: 'Approve "rm old-build.tar"?' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'Bash' },
    ]);
    expect(logged).toEqual(statuses.map((status) => `Agent status: ${status.type}`));
  });

  it('should report every model call and tool call to an onStatus observer registered alone', async () => {
    const { tools, inputsOf } = agentTools();
    const statuses: RunStatus[] = [];
    const interventions = createInterventions({ hooks: { onStatus: ({ status }) => void statuses.push(status) } });
    const model = scriptedModel(step(toolCall('c1', 'Bash', { command: 'ls' })), step(text('Listed.')));

    const result = await run(interventions, mode, { model, tools, stopWhen: isStepCount(5), prompt: 'List' });

    expect(result.text).toBe('Listed.');
    expect(inputsOf('Bash')).toEqual([{ command: 'ls' }]);
    expect(statuses).toEqual([
      { type: 'model-call', stepNumber: 0, attempt: 0 },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'Bash' },
      { type: 'model-call', stepNumber: 1, attempt: 0 },
    ]);
  });

  it('should report model calls when only a beforeToolCall handler runs around them (no response hooks)', async () => {
    const { tools, inputsOf } = agentTools();
    const statuses: RunStatus[] = [];
    const interventions = createInterventions({
      handlers: [{ name: 'allow-all', beforeToolCall: () => InterventionActions.proceed() }],
      hooks: { onStatus: ({ status }) => void statuses.push(status) },
    });
    const model = scriptedModel(step(toolCall('c1', 'Bash', { command: 'ls' })), step(text('Listed.')));

    await run(interventions, mode, { model, tools, stopWhen: isStepCount(5), prompt: 'List' });

    expect(inputsOf('Bash')).toEqual([{ command: 'ls' }]);
    expect(statuses).toEqual([
      { type: 'model-call', stepNumber: 0, attempt: 0 },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'Bash' },
      { type: 'model-call', stepNumber: 1, attempt: 0 },
    ]);
  });

  it("should give onStatus the run's runtime context", async () => {
    const { tools } = agentTools();
    const seen: Array<{ type: string; runtimeContext: unknown }> = [];
    const interventions = createInterventions({
      handlers: [new ToneCheck()],
      hooks: { onStatus: ({ status, runtimeContext }) => void seen.push({ type: status.type, runtimeContext }) },
    });
    const model = scriptedModel(step(toolCall('c1', 'Bash', { command: 'ls' })), step(text('Listed.')));
    await run(interventions, mode, {
      model,
      tools,
      stopWhen: isStepCount(5),
      prompt: 'List',
      runtimeContext: { userId: 'u1' },
    });
    expect(seen.map((entry) => entry.type)).toEqual(['model-call', 'tool-call', 'model-call']);
    for (const entry of seen) expect(entry.runtimeContext).toEqual({ userId: 'u1' });
  });
});
