/**
 * Compact a long history: a `transformContext` hook runs right before every
 * model call. When the history grows past a budget, it summarises the older
 * turns with a model call and sends the summary instead, keeping the recent
 * turns as they are (cut at a user message, so no tool call loses its
 * result).
 *
 *   npm run example -- compact-history
 */
import { generateText, isStepCount, tool, type LanguageModel, type ModelMessage } from 'ai';
import { createInterventions, type InterventionHooks } from 'ai-interventions';
import { z } from 'zod';
import { callTool, demoModel, say, usingScriptedModel } from './lib/model.ts';
import { check, heading, note, printRun, summary, user } from './lib/print.ts';

/**
 * A `transformContext` hook that keeps the last `keepTurns` user turns and
 * replaces everything before them with one summary message, once the history
 * has more than `maxMessages` messages.
 */
function compactHistory({
  model,
  maxMessages,
  keepTurns,
}: {
  model: LanguageModel;
  maxMessages: number;
  keepTurns: number;
}): InterventionHooks['transformContext'] {
  return async ({ messages }) => {
    if (messages.length <= maxMessages) return;
    const userTurns = messages.flatMap((message, index) => (message.role === 'user' ? [index] : []));
    const cut = userTurns.at(-keepTurns);
    if (cut === undefined || cut === 0) return;
    const { text } = await generateText({
      model,
      instructions: 'Summarise this conversation in two sentences. Keep names, numbers and decisions.',
      prompt: JSON.stringify(messages.slice(0, cut)),
    });
    const summaryMessage: ModelMessage = { role: 'user', content: `Summary of the earlier conversation: ${text}` };
    return [summaryMessage, ...messages.slice(cut)];
  };
}

const tools = {
  get_order: tool({
    description: 'Look up an order',
    inputSchema: z.object({ id: z.string() }),
    execute: async ({ id }) => ({ id, status: 'shipped', carrier: 'DHL', eta: 'Friday' }),
  }),
};

const summarizer = demoModel([() => [say('The customer asked about order 1042; it shipped with DHL and arrives Friday.')]]);
const model = demoModel([
  () => [callTool('get_order', { id: '1042' })],
  () => [say('Order 1042 has shipped with DHL and should arrive on Friday.')],
  (request) => {
    // the scripted model answers from the first message it was sent: the summary
    const first = request.raw.prompt[0];
    const summaryText = first?.role === 'user' ? first.content.map((part) => (part.type === 'text' ? part.text : '')).join('') : '';
    return [say(`Yes. ${summaryText.replace('Summary of the earlier conversation: ', 'From earlier: ')}`)];
  },
]);

const interventions = createInterventions({
  hooks: { transformContext: compactHistory({ model: summarizer, maxMessages: 4, keepTurns: 1 }) },
});

heading('Turn 1: a tool call, the history grows');
user('Where is my order 1042?');
const first = await interventions.generateText({
  model,
  tools,
  stopWhen: isStepCount(3),
  prompt: 'Where is my order 1042?',
});
printRun(first);

heading('Turn 2: the older turn is compacted before the model call');
const history: ModelMessage[] = [{ role: 'user', content: 'Where is my order 1042?' }, ...first.responseMessages];
user('Can you confirm the carrier again?');
const second = await interventions.generateText({
  model,
  tools,
  stopWhen: isStepCount(3),
  messages: [...history, { role: 'user', content: 'Can you confirm the carrier again?' }],
});
printRun(second);

const sent = model.requests.at(-1)?.prompt ?? [];
note(`the last request carried ${sent.length} messages instead of ${history.length + 1}`);
console.log();
check(summarizer.requests.length === 1, 'the summariser was called once');
check(sent.length === 2, 'the model got the summary and the new question');
check(JSON.stringify(sent).includes('Summary of the earlier conversation'), 'the summary replaced the older turns');
if (usingScriptedModel) check(second.text.includes('DHL'), 'the model still knew the carrier');
summary();
