/**
 * Redact a tool result: an `onToolCallResult` hook removes emails and SSNs
 * from what a tool returned, before the model sees it. (The same as a
 * handler: an `afterToolCall` returning `InterventionActions.transform`,
 * see demo.ts.)
 *
 *   npm run example -- redact-a-result
 */
import { isStepCount, tool } from 'ai';
import { createInterventions } from 'ai-interventions';
import { z } from 'zod';
import { callTool, demoModel, outputText, say } from './lib/model.ts';
import { check, heading, note, printRun, summary, user } from './lib/print.ts';

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
const SSN = /\b\d{3}-\d{2}-\d{4}\b/g;

/** Any JSON value, with every email and SSN in it replaced. */
function redact(value: unknown): unknown {
  if (value === undefined) return value;
  return JSON.parse(JSON.stringify(value).replace(EMAIL, '[email]').replace(SSN, '[ssn]'));
}

const customer = {
  id: 'c-42',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  ssn: '123-45-6789',
  plan: 'Pro',
  notes: 'Asked to be contacted at ada.l@home.example about the renewal.',
};
const tools = {
  lookup_customer: tool({
    description: 'Look up a customer record by id',
    inputSchema: z.object({ id: z.string() }),
    execute: async () => customer,
  }),
};

const model = demoModel([
  () => [callTool('lookup_customer', { id: 'c-42' })],
  // the model repeats what it was given: whatever it received, it can leak
  (request) => {
    const record = JSON.parse(request.toolResults.lookup_customer ?? '{}') as Record<string, string>;
    return [say(`${record.name} (${record.email}, SSN ${record.ssn}) is on the ${record.plan} plan. ${record.notes}`)];
  },
]);

const interventions = createInterventions({
  hooks: {
    onToolCallResult: ({ call, result }) =>
      call.toolName === 'lookup_customer' ? { result: redact(result) } : undefined,
  },
});

heading('Redact a tool result before the model sees it');
user('Summarize customer c-42 for me.');
const result = await interventions.generateText({
  model,
  tools,
  stopWhen: isStepCount(5),
  prompt: 'Summarize customer c-42 for me.',
});
printRun(result);

// what the provider actually received, read from the recorded requests
const received = model.requests.flatMap((request) =>
  request.prompt.flatMap((message) =>
    message.role === 'tool'
      ? message.content.flatMap((part) => (part.type === 'tool-result' ? [outputText(part.output)] : []))
      : [],
  ),
);
console.log();
note(`the tool returned    : ${JSON.stringify(customer)}`);
note(`the model received   : ${received.join(' | ') || '(no tool result)'}`);

console.log();
const sentToModel = JSON.stringify(model.requests.map((request) => request.prompt));
check(!sentToModel.includes('123-45-6789'), 'the SSN never reached the model');
check(!sentToModel.includes('ada@example.com') && !sentToModel.includes('ada.l@home.example'), 'no email reached the model');
check(!/[\w.+-]+@[\w-]+\.[\w-]+|\d{3}-\d{2}-\d{4}/.test(result.text), 'the answer contains no email or SSN');
summary();
