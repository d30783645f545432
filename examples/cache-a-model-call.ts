/**
 * Cache a model call: an `onResponse` hook fills a cache, a `preRequest` hook
 * answers an identical request from it (the provider is not called). Both
 * work on provider-level requests and responses, so a response cached from
 * `generateText` also serves `streamText`.
 *
 *   npm run example -- cache-a-model-call
 */
import { createInterventions, type ProviderRequest, type ProviderResponse } from 'ai-interventions';
import { demoModel, say } from './lib/model.ts';
import { check, heading, note, summary, user } from './lib/print.ts';

const cache = new Map<string, ProviderResponse>();

/** What makes two requests the same (not the abort signal or headers). */
function cacheKey(request: ProviderRequest): string {
  const { prompt, tools, toolChoice, temperature, maxOutputTokens, responseFormat } = request;
  return JSON.stringify({ prompt, tools, toolChoice, temperature, maxOutputTokens, responseFormat });
}

const interventions = createInterventions({
  hooks: {
    preRequest: ({ request }) => {
      const cached = cache.get(cacheKey(request));
      if (cached !== undefined) {
        note('cache hit: the provider is not called');
        return { response: cached };
      }
      note('cache miss: calling the provider');
    },
    onResponse: ({ request, response }) => {
      cache.set(cacheKey(request), response);
    },
  },
});

const model = demoModel([
  () => [say('The Eiffel Tower is 330 metres tall.')],
  () => [say('(the provider was called a second time)')],
]);
const prompt = 'How tall is the Eiffel Tower? Answer in one sentence.';

heading('First call: generateText, the provider answers');
user(prompt);
const first = await interventions.generateText({ model, prompt });
console.log(`  answer: ${first.text}`);

heading('Same request again: streamText, served from the cache');
user(prompt);
const second = interventions.streamText({ model, prompt });
let streamed = '';
for await (const chunk of second.textStream) streamed += chunk;
console.log(`  streamed: ${streamed}`);

note(`the provider was called ${model.requests.length} time(s) for 2 requests`);
console.log();
check(model.requests.length === 1, 'the provider was called once');
check(streamed === first.text, 'the stream replayed the cached answer');
summary();
