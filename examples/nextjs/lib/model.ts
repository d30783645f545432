/**
 * The model the chat route talks to.
 *
 * With `OPENAI_API_KEY` set: OpenAI (`OPENAI_MODEL`, default `gpt-5-mini`).
 * Without it: the scripted local model, an OpenAI-compatible server this
 * process starts on 127.0.0.1 on first use, reached through the same
 * `@ai-sdk/openai` provider (`createOpenAI({ baseURL })`), so the requests
 * and streams are the real wire format either way.
 */
import { createOpenAI, openai } from '@ai-sdk/openai';
import type { LanguageModel } from 'ai';
import { respond } from './scripted-brain';
import { type ScriptedOpenAIServer, startScriptedOpenAIServer } from './scripted-openai-server';

export const usingScriptedModel = (): boolean => !process.env.OPENAI_API_KEY;

const KEY = Symbol.for('ai-interventions-example.scripted-server');

/** One scripted server per process (kept on `globalThis`, so `next dev` reloads reuse it). */
function scriptedServer(): Promise<ScriptedOpenAIServer> {
  const store = globalThis as typeof globalThis & { [KEY]?: Promise<ScriptedOpenAIServer> };
  store[KEY] ??= startScriptedOpenAIServer({ respond }).then((server) => {
    console.log(`[example] scripted local model listening on ${server.baseURL} (set OPENAI_API_KEY to use OpenAI)`);
    return server;
  });
  store[KEY].catch(() => (store[KEY] = undefined));
  return store[KEY];
}

export async function chatModel(): Promise<LanguageModel> {
  if (!usingScriptedModel()) return openai(process.env.OPENAI_MODEL ?? 'gpt-5-mini');
  const { baseURL } = await scriptedServer();
  return createOpenAI({ baseURL, apiKey: 'scripted-local-model' })('scripted-local-model');
}

/**
 * What the scripted model was sent (example-only, for the page's readers and
 * the end-to-end tests): the JSON bodies of its last requests; empty before
 * the first request, or with OpenAI.
 */
export async function modelRequests(): Promise<readonly string[]> {
  const store = globalThis as typeof globalThis & { [KEY]?: Promise<ScriptedOpenAIServer> };
  const server = await store[KEY]?.catch(() => undefined);
  return server?.requests() ?? [];
}
