/**
 * Guard a tool: a `ToolGuard` handler denies `delete_file`. The tool does not
 * run; the model reads why and recovers.
 *
 *   npm run example -- guard-a-tool
 */
import { isStepCount, tool } from 'ai';
import {
  createInterventions,
  InterventionActions,
  InterventionHandler,
  type BeforeToolCallEvent,
} from 'ai-interventions';
import { z } from 'zod';
import { callTool, demoModel, say, usingScriptedModel } from './lib/model.ts';
import { check, heading, printRun, summary, user } from './lib/print.ts';

class ToolGuard extends InterventionHandler {
  readonly name = 'tool-guard';
  private readonly blockedTools: string[];

  constructor(blockedTools: string[]) {
    super();
    this.blockedTools = blockedTools;
  }

  override beforeToolCall(event: BeforeToolCallEvent) {
    if (this.blockedTools.includes(event.toolCall.toolName)) {
      return InterventionActions.deny(`Tool '${event.toolCall.toolName}' is not allowed in this environment`);
    }
    return InterventionActions.proceed();
  }
}

const deleted: string[] = [];
const tools = {
  list_files: tool({
    description: 'List the files in a directory',
    inputSchema: z.object({ dir: z.string() }),
    execute: async ({ dir }) => [`${dir}/build-cache`, `${dir}/session.log`],
  }),
  delete_file: tool({
    description: 'Delete a file',
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => {
      deleted.push(path);
      return `deleted ${path}`;
    },
  }),
};

// what the scripted model answers, one function per model call
const model = demoModel([
  () => [callTool('list_files', { dir: '/tmp' })],
  () => [callTool('delete_file', { path: '/tmp/build-cache' })],
  (request) => {
    const reason = /Reason: (.*)/.exec(request.toolResults.delete_file ?? '')?.[1];
    return [say(`I found /tmp/build-cache and /tmp/session.log, but I could not delete them (${reason}). You can remove them by hand.`)];
  },
]);

const interventions = createInterventions({ handlers: [new ToolGuard(['delete_file'])] });

heading('Guard a tool: deny delete_file');
user('Clean up the temp directory /tmp.');
const result = await interventions.generateText({
  model,
  tools,
  stopWhen: isStepCount(5),
  prompt: 'Clean up the temp directory /tmp.',
});
printRun(result);

console.log();
check(deleted.length === 0, 'delete_file never ran');
const denials = result.interventions.decisions.filter((record) => record.action === 'deny');
check(denials.every((record) => record.toolName === 'delete_file'), 'only delete_file was denied');
if (usingScriptedModel) {
  check(denials.length === 1, 'the guard denied one call');
  check(result.text.includes('not allowed in this environment'), 'the model read the denial reason and said so');
}
summary();
