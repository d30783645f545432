/**
 * End to end, in a real browser: the Next.js example (examples/nextjs) built
 * and started with `next start`, its chat driven in Debian's Chromium
 * (/usr/bin/chromium) through playwright-core: deny, guide, approve, deny with
 * a reason, approve for this chat, edit then approve, and a forged and a
 * replayed approval. The model is the example's
 * scripted local OpenAI-compatible server (OPENAI_API_KEY is removed from the
 * server's environment), so every run is the same.
 *
 *   npm run test:e2e
 *
 * Before the tests: the library is built when dist/ is missing or older than
 * src/, the example's dependencies are installed (`npm --prefix examples/nextjs
 * install`), and the example is built (`next build`). No browser is ever
 * downloaded: playwright-core only drives the Chromium at CHROMIUM_PATH
 * (default /usr/bin/chromium).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserContext,
  type Locator,
  launchChromium,
  type NextServer,
  nextBuild,
  type Page,
  prepareExample,
  root,
  startNext,
} from './next-app.ts';

const results = join(root, 'test-results');
const screenshotPath = join(results, 'approval.png');
const timings: Array<[string, number]> = [];

interface Execution {
  readonly chatId: string;
  readonly tool: string;
  readonly input: Record<string, unknown>;
}

let server: NextServer | undefined;
let baseURL = '';
let browser: { context: BrowserContext; close(): Promise<void> } | undefined;

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    timings.push([label, performance.now() - started]);
  }
}

async function activity(chatId: string): Promise<{ executions: Execution[]; modelRequests: string[] }> {
  const response = await fetch(`${baseURL}/api/log?chatId=${encodeURIComponent(chatId)}`);
  expect(response.ok).toBe(true);
  return (await response.json()) as { executions: Execution[]; modelRequests: string[] };
}

/** The tools that really ran in a chat. */
async function executions(chatId: string): Promise<Execution[]> {
  return (await activity(chatId)).executions;
}

/** What the scripted model was sent since `since` requests (all chats; the tests run one at a time). */
async function modelRequestsSince(since: number): Promise<string[]> {
  return (await activity('-')).modelRequests.slice(since);
}

/** How many requests the scripted model has answered (the start of a test's window). */
async function modelRequestCount(): Promise<number> {
  return (await activity('-')).modelRequests.length;
}

/** The decision log's entries: tool, action, handler, answer and text. */
async function decisionLog(
  page: Page,
): Promise<Array<{ tool: string | null; action: string | null; handler: string | null; answer: string | null; text: string }>> {
  const entries = page.locator('[data-testid="decision-log"] [data-testid="decision"]');
  const count = await entries.count();
  const log = [];
  for (let index = 0; index < count; index++) {
    const entry = entries.nth(index);
    log.push({
      tool: await entry.getAttribute('data-tool'),
      action: await entry.getAttribute('data-action'),
      handler: await entry.getAttribute('data-handler'),
      answer: await entry.getAttribute('data-answer'),
      text: await entry.innerText(),
    });
  }
  return log;
}

/** One request to the chat route, as useChat sends it: the response's chunks and assistant message. */
async function postChat(
  chatId: string,
  messages: readonly UIMessage[],
): Promise<{ chunks: UIMessageChunk[]; message: UIMessage | undefined }> {
  const response = await fetch(`${baseURL}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: chatId, messages, trigger: 'submit-message' }),
  });
  expect(response.status).toBe(200);
  const chunks = (await response.text())
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice('data: '.length)) as UIMessageChunk);
  let message: UIMessage | undefined;
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  for await (const update of readUIMessageStream({ stream, onError: () => {} })) message = update;
  return { chunks, message };
}

/** The message with its delete_file approval answered (and its input optionally edited), as a client could send it. */
function answered(message: UIMessage, edit?: { path: string }): UIMessage {
  const copy = structuredClone(message);
  for (const part of copy.parts as Array<Record<string, any>>) {
    if (part.type === 'tool-delete_file' && part.state === 'approval-requested') {
      part.state = 'approval-responded';
      part.approval = { ...part.approval, approved: true };
      if (edit !== undefined) part.input = edit;
    }
  }
  return copy;
}

/** A fresh chat page, hydrated; returns it with its chat id (the log's key). */
async function openChat(errors: Error[]): Promise<{ page: Page; chatId: string }> {
  if (browser === undefined) throw new Error('no browser');
  const page = await browser.context.newPage();
  page.on('pageerror', (error) => errors.push(error));
  await page.goto(baseURL);
  const chat = page.locator('[data-testid="chat"][data-chat-id]');
  await chat.waitFor();
  const chatId = await chat.getAttribute('data-chat-id');
  if (!chatId) throw new Error('the page has no chat id');
  return { page, chatId };
}

async function say(page: Page, text: string): Promise<void> {
  await page.getByTestId('chat-input').fill(text);
  await page.getByTestId('chat-send').click();
}

/** Waits until the chat is idle again (no request in flight). */
async function settled(page: Page): Promise<void> {
  await page.locator('[data-testid="chat"][data-status="ready"]').waitFor({ timeout: 30_000 });
}

/** The text of the last assistant message, once it contains `expected`. */
async function lastAnswer(page: Page, expected: string): Promise<string> {
  const answer = page.getByTestId('message-assistant').last();
  await expect.poll(() => answer.innerText(), { timeout: 30_000 }).toContain(expected);
  return answer.innerText();
}

/** The clean-up conversation, up to the approval request for delete_file. */
async function askToCleanUp(page: Page, chatId: string, path = '/tmp/build-cache'): Promise<Locator> {
  await say(page, `Clean up ${path}`);

  // the ToolGuard denied run_shell: shown as a denied call, with the short reason for people
  const shell = page.locator('[data-testid="tool-run_shell"][data-state="output-denied"][data-decision="denied"]').last();
  await shell.waitFor();
  expect(await shell.getByTestId('tool-why').innerText()).toBe('tool-guard: The shell is off in this chat');

  // the model read the denial (the model's own wording) and asked for delete_file, which waits for a person
  const deletion = page.locator('[data-testid="tool-delete_file"][data-state="approval-requested"]');
  await deletion.waitFor();
  expect(await deletion.getByTestId('approval-prompt').innerText()).toBe(`Approve deleting "${path}"?`);
  await deletion.getByTestId('approve-button').waitFor();
  await deletion.getByTestId('deny-button').waitFor();
  await settled(page);
  expect(await page.getByTestId('message-assistant').last().innerText()).toContain(
    'The shell command was blocked ("Shell commands are disabled in this chat; use the file tools instead.")',
  );
  // nothing ran before a person answered
  expect(await executions(chatId)).toEqual([]);
  return deletion;
}

describe('the Next.js example in Chromium', () => {
  beforeAll(async () => {
    mkdirSync(results, { recursive: true });
    await prepareExample(timed);
    await timed('next build', () => nextBuild());
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production' };
    delete env.OPENAI_API_KEY; // always the scripted local model
    server = await timed('next start (until ready)', () => startNext({ command: 'start', env, ready: '/api/log' }));
    baseURL = server.baseURL;
    browser = await timed('Chromium launch', () => launchChromium());
  });

  afterAll(async () => {
    await browser?.close();
    browser = undefined;
    await server?.stop();
    server = undefined;
    console.log(['e2e timings:', ...timings.map(([label, ms]) => `  ${label}: ${(ms / 1000).toFixed(1)} s`)].join('\n'));
  });

  it('denies run_shell with a reason for people, asks before delete_file, runs it once when approved, and logs each decision', async () => {
    const started = performance.now();
    const errors: Error[] = [];
    const { page, chatId } = await openChat(errors);
    const deletion = await askToCleanUp(page, chatId);
    expect(await decisionLog(page)).toEqual([
      expect.objectContaining({
        tool: 'run_shell',
        action: 'deny',
        handler: 'tool-guard',
        text: expect.stringContaining('The shell is off in this chat'),
      }),
      expect.objectContaining({ tool: 'delete_file', action: 'confirm', handler: 'delete-approval' }),
    ]);

    await page.screenshot({ path: screenshotPath, fullPage: true });
    await deletion.getByTestId('approve-button').click();

    // the next request resumed the run: the tool ran, the model read its result
    const ran = page.locator('[data-testid="tool-delete_file"][data-state="output-available"]');
    await ran.waitFor();
    expect(await ran.getByTestId('tool-output').innerText()).toBe('deleted /tmp/build-cache');
    expect(await ran.getAttribute('data-decision')).toBe('approved-and-ran');
    expect(await lastAnswer(page, 'delete_file reported: "deleted /tmp/build-cache"')).toContain('Done.');
    await settled(page);
    expect(await decisionLog(page)).toEqual([
      expect.objectContaining({ tool: 'run_shell', action: 'deny' }),
      expect.objectContaining({ tool: 'delete_file', action: 'confirm' }),
      expect.objectContaining({
        tool: 'delete_file',
        action: 'proceed',
        answer: 'approved',
        text: expect.stringContaining('approved by you'),
      }),
    ]);

    await page.screenshot({ path: join(results, 'approved.png'), fullPage: true });
    expect(await executions(chatId)).toEqual([expect.objectContaining({ tool: 'delete_file', input: { path: '/tmp/build-cache' } })]);
    expect(errors).toEqual([]);
    await page.close();
    timings.push(['test 1 (deny, approve)', performance.now() - started]);
  });

  it("runs nothing when the deletion is denied with a reason, and the model reads the person's reason", async () => {
    const started = performance.now();
    const errors: Error[] = [];
    const { page, chatId } = await openChat(errors);
    const since = await modelRequestCount();
    const deletion = await askToCleanUp(page, chatId);

    await deletion.getByTestId('deny-reason').fill('Keep the cache until Friday');
    await deletion.getByTestId('deny-button').click();

    const refused = page.locator('[data-testid="tool-delete_file"][data-state="output-denied"]');
    await refused.waitFor();
    expect(await refused.getAttribute('data-decision')).toBe('refused');
    expect(await refused.getByTestId('tool-status').innerText()).toBe('refused by you');
    expect(await refused.getByTestId('tool-why').innerText()).toBe('You: Keep the cache until Friday');
    // the model was told plainly that the person refused, with their reason (the runtime's wording)
    expect(await lastAnswer(page, 'you did not approve the deletion (your reason: "Keep the cache until Friday")')).toContain(
      'I did not delete /tmp/build-cache',
    );
    await settled(page);
    expect((await decisionLog(page)).at(-1)).toEqual(
      expect.objectContaining({
        tool: 'delete_file',
        action: 'deny',
        handler: '',
        answer: 'refused',
        text: expect.stringContaining('refused by you: Keep the cache until Friday'),
      }),
    );
    await page.screenshot({ path: join(results, 'denied.png'), fullPage: true });

    const sent = await modelRequestsSince(since);
    expect(sent.at(-1)).toContain(
      'The user did not approve the call to \\"delete_file\\", so it was not executed. Their reason: Keep the cache until Friday',
    );
    expect(sent.join('\n')).not.toContain('ai-interventions/approval-answer');
    expect(await executions(chatId)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
    timings.push(['test 2 (deny with a reason)', performance.now() - started]);
  });

  it('guides send_email without a subject, then sends the retried call once', async () => {
    const started = performance.now();
    const errors: Error[] = [];
    const { page, chatId } = await openChat(errors);
    await say(page, 'Email the team that the build is green');

    // the first call had no subject: not run, sent back with the validator's feedback
    const guided = page.locator('[data-testid="tool-send_email"][data-state="output-denied"][data-decision="guided"]');
    await guided.waitFor();
    expect(await guided.getByTestId('tool-why').innerText()).toBe('email-validator: An email needs a subject');
    expect(await guided.getByTestId('tool-input').innerText()).not.toContain('subject');

    // the model read the feedback and retried with a subject: this one ran
    const sent = page.locator('[data-testid="tool-send_email"][data-state="output-available"]');
    await sent.waitFor();
    expect(await sent.getByTestId('tool-output').innerText()).toBe('email "Update: the build is green" sent to team@example.com');
    expect(
      await lastAnswer(page, 'Email sent. send_email reported: "email "Update: the build is green" sent to team@example.com".'),
    ).toContain('The email was sent back with feedback ("All emails must include a subject line.")');
    await settled(page);
    expect(await page.locator('[data-testid="tool-send_email"]').count()).toBe(2);
    expect(await decisionLog(page)).toEqual([
      expect.objectContaining({ tool: 'send_email', action: 'guide', handler: 'email-validator' }),
      expect.objectContaining({ tool: 'send_email', action: 'proceed' }),
    ]);
    await page.screenshot({ path: join(results, 'guided.png'), fullPage: true });

    expect(await executions(chatId)).toEqual([
      expect.objectContaining({
        tool: 'send_email',
        input: expect.objectContaining({ to: 'team@example.com', subject: 'Update: the build is green' }),
      }),
    ]);
    expect(errors).toEqual([]);
    await page.close();
    timings.push(['test 3 (guide)', performance.now() - started]);
  });

  it('remembers "approve for this chat": a later deletion in the chat runs without asking, another chat still asks', async () => {
    const started = performance.now();
    const errors: Error[] = [];
    const { page, chatId } = await openChat(errors);
    const deletion = await askToCleanUp(page, chatId);
    await deletion.getByTestId('approve-session-button').click();
    await page.locator('[data-testid="tool-delete_file"][data-state="output-available"]').waitFor();
    await lastAnswer(page, 'delete_file reported: "deleted /tmp/build-cache"');
    await settled(page);

    // the same chat: the shell is still denied, the deletion runs at once
    await say(page, 'Clean up /tmp/old-logs');
    expect(await lastAnswer(page, 'delete_file reported: "deleted /tmp/old-logs"')).toContain('Done.');
    await settled(page);
    const second = page.locator('[data-testid="tool-delete_file"]').last();
    expect(await second.getAttribute('data-decision')).toBe('ran');
    expect(await page.getByTestId('approval').count()).toBe(0);
    expect((await decisionLog(page)).filter((entry) => entry.tool === 'delete_file')).toEqual([
      expect.objectContaining({ action: 'confirm' }),
      expect.objectContaining({ action: 'proceed', answer: 'approved', text: expect.stringContaining('approved by you (for this chat)') }),
      expect.objectContaining({ action: 'proceed', answer: '', handler: '' }),
    ]);
    await page.screenshot({ path: join(results, 'remembered.png'), fullPage: true });
    expect((await executions(chatId)).map((entry) => entry.input)).toEqual([{ path: '/tmp/build-cache' }, { path: '/tmp/old-logs' }]);

    // another chat is another session: it asks again
    const other = await openChat(errors);
    await askToCleanUp(other.page, other.chatId, '/tmp/old-logs');
    expect(errors).toEqual([]);
    await other.page.close();
    await page.close();
    timings.push(['test 4 (remember for this chat)', performance.now() - started]);
  });

  it('runs the arguments a person edited before approving, shows them in the call, and sends the model the call as it ran', async () => {
    const started = performance.now();
    const errors: Error[] = [];
    const { page, chatId } = await openChat(errors);
    const since = await modelRequestCount();
    const deletion = await askToCleanUp(page, chatId);

    await deletion.getByTestId('edit-button').click();
    await deletion.getByTestId('edit-input').fill('{"path":"/tmp/build-cache/old"}');
    await deletion.getByTestId('approve-edited-button').click();

    const ran = page.locator('[data-testid="tool-delete_file"][data-state="output-available"]');
    await ran.waitFor();
    expect(await ran.getAttribute('data-decision')).toBe('edited-and-ran');
    expect(await ran.getByTestId('tool-status').innerText()).toBe('edited and approved by you, ran');
    expect(JSON.parse(await ran.getByTestId('tool-input').innerText())).toEqual({ path: '/tmp/build-cache/old' });
    expect(await ran.getByTestId('tool-output').innerText()).toBe('deleted /tmp/build-cache/old');
    expect(await lastAnswer(page, 'delete_file reported: "deleted /tmp/build-cache/old"')).toContain('Done.');
    await settled(page);
    expect((await decisionLog(page)).at(-1)).toEqual(
      expect.objectContaining({
        tool: 'delete_file',
        action: 'proceed',
        answer: 'approved',
        text: expect.stringContaining('approved by you (edited arguments)'),
      }),
    );
    await page.screenshot({ path: join(results, 'edited.png'), fullPage: true });

    expect(await executions(chatId)).toEqual([expect.objectContaining({ tool: 'delete_file', input: { path: '/tmp/build-cache/old' } })]);
    // the model read the call with the edited arguments and its result, never the answer's encoding
    const sent = await modelRequestsSince(since);
    expect(sent.at(-1)).toContain('{\\"path\\":\\"/tmp/build-cache/old\\"}');
    expect(sent.at(-1)).not.toContain('{\\"path\\":\\"/tmp/build-cache\\"}');
    expect(sent.join('\n')).not.toContain('ai-interventions/approval-answer');
    expect(errors).toEqual([]);
    await page.close();
    timings.push(['test 5 (edit, then approve)', performance.now() - started]);
  });

  it('runs nothing for an approval whose arguments a client changed without a typed answer, and a replayed approval once (approvalSecret)', async () => {
    const started = performance.now();
    const chatId = `forged-${Date.now()}`;
    const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Clean up /tmp/build-cache' }] };
    const first = await postChat(chatId, [user]);
    expect(first.chunks).toContainEqual(expect.objectContaining({ type: 'tool-approval-request', signature: expect.any(String) }));
    if (first.message === undefined) throw new Error('no assistant message');

    // a client approves, but points the call somewhere else: the signature no longer matches, so the approval
    // answers no confirm: the call is refused for the person, typed, and nothing runs
    const forged = await postChat(chatId, [user, answered(first.message, { path: '/etc' })]);
    expect(forged.chunks).toContainEqual(expect.objectContaining({ type: 'tool-output-denied' }));
    expect(forged.chunks.filter((chunk) => chunk.type === 'error')).toEqual([]);
    expect(await executions(chatId)).toEqual([]);

    // the honest approval runs the call; the same approval sent again runs nothing and gets the recorded outcome
    const honest = await postChat(chatId, [user, answered(first.message)]);
    const outcome = { type: 'tool-output-available', output: 'deleted /tmp/build-cache' };
    expect(honest.chunks).toContainEqual(expect.objectContaining(outcome));
    const replayed = await postChat(chatId, [user, answered(first.message)]);
    expect(replayed.chunks).toContainEqual(expect.objectContaining(outcome));
    expect(replayed.chunks).toContainEqual(
      expect.objectContaining({
        type: 'data-intervention',
        data: expect.objectContaining({ records: expect.arrayContaining([expect.objectContaining({ handler: 'approval-ledger' })]) }),
      }),
    );
    expect(await executions(chatId)).toEqual([expect.objectContaining({ tool: 'delete_file', input: { path: '/tmp/build-cache' } })]);
    timings.push(['test 6 (forged and replayed approvals, HTTP)', performance.now() - started]);
  });

  it("lets only a manager approve the deployment: the requester's own approval runs nothing and leaves it waiting, the manager's runs it once", async () => {
    const started = performance.now();
    const errors: Error[] = [];
    const { page, chatId } = await openChat(errors);
    await say(page, 'Deploy the build to production');
    const asking = page.locator('[data-testid="tool-deploy"][data-state="approval-requested"]');
    await asking.waitFor();
    expect(await asking.getByTestId('approval-prompt').innerText()).toBe('Approve deploying to production?');
    expect(await asking.getByTestId('approval-who').innerText()).toBe('Only a manager may approve this.');
    await settled(page);

    // Sam (a developer) approves: nothing runs, and the request waits for a manager, saying so
    await asking.getByTestId('approve-button').click();
    const waiting = page.locator('[data-testid="tool-deploy"][data-state="approval-requested"] [data-testid="approval-waiting"]');
    await waiting.waitFor();
    expect(await waiting.innerText()).toBe('Only a manager may approve this. It is still waiting.');
    await settled(page);
    expect(await executions(chatId)).toEqual([]);
    expect((await decisionLog(page)).at(-1)).toEqual(
      expect.objectContaining({ tool: 'deploy', action: 'confirm', handler: 'approval-approvers' }),
    );
    await page.screenshot({ path: join(results, 'waiting-for-a-manager.png'), fullPage: true });

    // Morgan (a manager) signs in on the same chat and approves: the deployment runs, once
    await page.getByTestId('user-select').selectOption('morgan');
    await page.locator('[data-testid="tool-deploy"][data-state="approval-requested"]').getByTestId('approve-button').click();
    const ran = page.locator('[data-testid="tool-deploy"][data-state="output-available"]');
    await ran.waitFor();
    expect(await ran.getByTestId('tool-output').innerText()).toBe('deployed to production');
    expect(await lastAnswer(page, 'deploy reported: "deployed to production"')).toContain('Done.');
    await settled(page);
    expect(await executions(chatId)).toEqual([expect.objectContaining({ tool: 'deploy', input: { environment: 'production' } })]);
    expect(errors).toEqual([]);
    await page.close();
    timings.push(['test 7 (a manager approves)', performance.now() - started]);
  });
});
