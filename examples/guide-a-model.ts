/**
 * Guide a model: instead of blocking, tell it how to do better and let it retry.
 *
 * 1. `beforeToolCall` guide: an email without a subject is not sent; the
 *    model is told to add one and calls the tool again.
 * 2. `afterModelCall` guide: a reply in the wrong tone is discarded before
 *    anyone sees it; the model is retried with the feedback.
 *
 *   npm run example -- guide-a-model
 */
import { isStepCount, tool } from 'ai';
import {
  createInterventions,
  InterventionActions,
  InterventionHandler,
  type AfterModelCallEvent,
  type BeforeToolCallEvent,
} from 'ai-interventions';
import { z } from 'zod';
import { callTool, demoModel, say, usingScriptedModel } from './lib/model.ts';
import { check, heading, note, printRun, summary, user } from './lib/print.ts';

// 1. guide a tool call ------------------------------------------------------

class EmailValidator extends InterventionHandler {
  readonly name = 'email-validator';

  override beforeToolCall(event: BeforeToolCallEvent) {
    if (event.toolCall.toolName === 'send_email') {
      const input = event.toolCall.input as { subject?: string };
      if (!input.subject) {
        return InterventionActions.guide('All emails must include a subject line.');
      }
    }
    return InterventionActions.proceed();
  }
}

const sent: Array<{ to: string; subject?: string | undefined; body: string }> = [];
const tools = {
  send_email: tool({
    description: 'Send an email',
    inputSchema: z.object({ to: z.string(), subject: z.string().optional(), body: z.string() }),
    execute: async (email) => {
      sent.push(email);
      return `sent to ${email.to}`;
    },
  }),
};

const emailModel = demoModel([
  () => [callTool('send_email', { to: 'ops@acme.test', body: 'The nightly backup finished.' })],
  // the model reads the feedback it was sent and tries again
  (request) =>
    request.toolResults.send_email?.includes('subject')
      ? [callTool('send_email', { to: 'ops@acme.test', subject: 'Nightly backup', body: 'The nightly backup finished.' })]
      : [say('Hmm, something went wrong.')],
  () => [say('Done: I emailed ops@acme.test that the nightly backup finished.')],
]);

heading('Guide a tool call: an email needs a subject');
const emailInterventions = createInterventions({ handlers: [new EmailValidator()] });
user('Tell ops@acme.test by email that the nightly backup finished.');
const emailResult = await emailInterventions.generateText({
  model: emailModel,
  tools,
  stopWhen: isStepCount(5),
  prompt: 'Tell ops@acme.test by email that the nightly backup finished.',
});
printRun(emailResult);

console.log();
check(sent.every((email) => Boolean(email.subject)), 'no email left without a subject');
if (usingScriptedModel) check(sent.length === 1, 'the model retried with a subject and the email was sent once');

// 2. guide a model response -------------------------------------------------

class ToneCheck extends InterventionHandler {
  readonly name = 'tone-check';

  override afterModelCall(event: AfterModelCallEvent) {
    const text = event.response.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
    if (/\b(dude|lol)\b/i.test(text)) {
      return InterventionActions.guide('Use a professional tone: no slang.');
    }
    return InterventionActions.proceed();
  }
}

const supportModel = demoModel([
  () => [say('Dude, relax lol, your order ships tomorrow.')],
  // the retry: the feedback arrives as the last user message
  (request) =>
    request.lastUserText.includes('professional tone')
      ? [say('Thank you for your patience. Your order ships tomorrow.')]
      : [say('Dude, relax lol, your order ships tomorrow.')],
]);

heading('Guide a model response: retry with feedback');
const supportInterventions = createInterventions({
  handlers: [new ToneCheck()],
  // only to show each reply before the handler reviews it
  hooks: {
    onResponse: ({ response }) => {
      const text = response.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      note(`the model replied: ${JSON.stringify(text)}`);
    },
  },
});
user('Where is my order? It has been a week!');
const supportResult = await supportInterventions.generateText({
  model: supportModel,
  prompt: 'Where is my order? It has been a week!',
});
printRun(supportResult);
note(`the provider was called ${supportModel.requests.length} time(s); only the last reply was kept`);

console.log();
check(!/\b(dude|lol)\b/i.test(supportResult.text), 'the user never sees the slang reply');
if (usingScriptedModel) {
  check(supportModel.requests.length === 2, 'the model was retried once');
  const retry = supportModel.requests[1]?.prompt.at(-1);
  check(
    retry?.role === 'user' && JSON.stringify(retry.content).includes('[tone-check] Use a professional tone'),
    'the retry carried the feedback, tagged with the handler',
  );
}
summary();
