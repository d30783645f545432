/**
 * End to end, in a real browser: the Next.js example (examples/nextjs) built
 * and started with `next start`, its chat driven in Debian's Chromium
 * (/usr/bin/chromium) through playwright-core, by its two demo users, Sam (a
 * developer) and Morgan (a manager), each in a browser context of their own:
 * deny, guide, approve, deny with a reason, approve for this chat, edit then
 * approve (a malformed edit explained and corrected, a blocked one shown with
 * the arguments decided), a manager's approval of a developer's request, the
 * same approved and refused from the manager's approval inbox page while the
 * developer's chat continues by itself, a closed stale request, a failed
 * request retried, a stopped answer, what the server accepts over HTTP, and,
 * on a redis-server started on 127.0.0.1 (the build reused, a second
 * `next start` with REDIS_URL), the server restarted between the request and
 * the answer. The model is the example's scripted local
 * OpenAI-compatible server (OPENAI_API_KEY is removed from the server's
 * environment), so every run is the same.
 *
 *   npm run test:e2e
 *
 * Before the tests: the library is built when dist/ is missing or older than
 * src/, the example's dependencies are installed (`npm --prefix examples/nextjs
 * install`), and the example is built (`next build`). No browser is ever
 * downloaded: playwright-core only drives the Chromium at CHROMIUM_PATH
 * (default /usr/bin/chromium). Screenshots go to test-results/ (not committed).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasRedisServer, startRedisServer } from '../helpers/redis-server.ts';
import {
  type Browser,
  type BrowserContext,
  freePort,
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
const timings: Array<[string, number]> = [];

interface Execution {
  readonly chatId: string;
  readonly tool: string;
  readonly input: Record<string, unknown>;
}

type User = 'sam' | 'morgan';

let server: NextServer | undefined;
let baseURL = '';
let browser: Browser | undefined;
/** Each person's browser: a context of its own (its cookies, so who is signed in), made once. */
const contexts = new Map<User, BrowserContext>();
/** The pages a test opened, closed after it. */
const pages: Page[] = [];
/** Errors thrown in any page of the test. */
let pageErrors: Error[] = [];

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

/** The decision log's entries: tool, action, handler, answer, who asked and answered, and text. */
async function decisionLog(
  page: Page,
): Promise<Array<Record<'tool' | 'action' | 'handler' | 'answer' | 'askedBy' | 'answeredBy' | 'text', string>>> {
  const entries = page.locator('[data-testid="decision-log"] [data-testid="decision"]');
  const count = await entries.count();
  const log = [];
  for (let index = 0; index < count; index++) {
    const entry = entries.nth(index);
    const attribute = async (name: string) => (await entry.getAttribute(name)) ?? '';
    log.push({
      tool: await attribute('data-tool'),
      action: await attribute('data-action'),
      handler: await attribute('data-handler'),
      answer: await attribute('data-answer'),
      askedBy: await attribute('data-asked-by'),
      answeredBy: await attribute('data-answered-by'),
      text: await entry.innerText(),
    });
  }
  return log;
}

/** The conversation the server keeps. */
async function storedChat(chatId: string): Promise<{ messages: UIMessage[]; version: number }> {
  const response = await fetch(`${baseURL}/api/chats/${encodeURIComponent(chatId)}`);
  expect(response.ok).toBe(true);
  return (await response.json()) as { messages: UIMessage[]; version: number };
}

/** One request to the chat route as the page sends it (its last message), signed in as `user`: status, and the stream's chunks. */
async function postChat(
  chatId: string,
  message: UIMessage,
  user: User = 'sam',
): Promise<{ status: number; text: string; chunks: UIMessageChunk[]; message: UIMessage | undefined }> {
  const response = await fetch(`${baseURL}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `demo-user=${user}` },
    body: JSON.stringify({ id: chatId, message, trigger: 'submit-message' }),
  });
  const text = await response.text();
  if (response.status !== 200) return { status: response.status, text, chunks: [], message: undefined };
  const chunks = text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice('data: '.length)) as UIMessageChunk);
  let last: UIMessage | undefined;
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  for await (const update of readUIMessageStream({ stream, onError: () => {} })) last = update;
  return { status: response.status, text, chunks, message: last };
}

/** The message with its delete_file approval answered (and its input optionally changed), as a client could send it. */
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

/** A new page in `user`'s browser (a context of its own, signed in; cookies do not depend on the port). */
async function newPage(user: User): Promise<Page> {
  if (browser === undefined) throw new Error('no browser');
  let context = contexts.get(user);
  if (context === undefined) {
    context = await browser.newContext();
    await context.addCookies([{ name: 'demo-user', value: user, url: baseURL }]);
    contexts.set(user, context);
  }
  const page = await context.newPage();
  pages.push(page);
  page.on('pageerror', (error) => pageErrors.push(error));
  return page;
}

/** `user`'s approval inbox, hydrated: reached from a chat page's header link (`from`), or opened in a new page. */
async function openInbox(user: User, from?: Page): Promise<Page> {
  const page = from ?? (await newPage(user));
  if (from === undefined) await page.goto(`${baseURL}/inbox`);
  else await from.getByTestId('inbox-link').click();
  await page.locator(`[data-testid="inbox"][data-hydrated][data-user="${user}"]`).waitFor();
  return page;
}

/** The inbox's entry for the request of a chat, once it is listed. */
async function inboxRequest(inbox: Page, chatId: string): Promise<Locator> {
  const request = inbox.locator(`[data-testid="inbox-request"][data-conversation-id="${chatId}"]`);
  await request.waitFor({ timeout: 10_000 });
  return request;
}

/** What a page posted to the chat route (its bodies, parsed), from now on. */
async function chatRequests(page: Page): Promise<Array<{ resume?: boolean; message?: UIMessage }>> {
  const bodies: Array<{ resume?: boolean; message?: UIMessage }> = [];
  await page.route('**/api/chat', (route) => {
    bodies.push(JSON.parse(route.request().postData() ?? '{}') as { resume?: boolean; message?: UIMessage });
    return route.continue();
  });
  return bodies;
}

/** Sam asks for a deployment, which waits for a manager: the waiting card says it is in the inbox. */
async function askToDeploy(page: Page, environment: 'production' | 'staging'): Promise<Locator> {
  await say(page, `Deploy the build to ${environment}`);
  const waiting = page.locator('[data-testid="tool-deploy"][data-state="approval-requested"]');
  await waiting.waitFor();
  await settled(page);
  expect(await text(waiting.getByTestId('tool-status'))).toBe('waiting for a manager');
  expect(await text(waiting.getByTestId('approval-inbox'))).toBe(
    'It is in the approval inbox: once a manager answers it there, this chat continues by itself.',
  );
  return waiting;
}

/** Sam's page on a deployment Morgan approved: it says who approved it, on whose behalf, in the call and in the log. */
async function approvedByMorgan(page: Page, call: Locator): Promise<void> {
  expect(await text(call.getByTestId('tool-status'))).toBe('approved by Morgan, ran');
  expect(await text(call.getByTestId('tool-why'))).toBe('Morgan approved it; it ran on your behalf.');
  expect((await decisionLog(page)).at(-1)).toEqual(
    expect.objectContaining({
      action: 'proceed',
      askedBy: 'sam',
      answeredBy: 'morgan',
      text: 'deploy approved by Morgan (on your behalf)',
    }),
  );
}

/** No part of a message a page sent carries an answer to an approval. */
const carriesNoAnswer = (bodies: ReadonlyArray<{ message?: UIMessage }>) =>
  bodies.every((body) => !JSON.stringify(body.message ?? {}).includes('approval-responded'));

/**
 * `user`'s browser (a context of its own, signed in), on a new chat or on
 * `url`, hydrated; returns the page and its chat id (the log's key).
 */
async function openChat(user: User, url = baseURL): Promise<{ page: Page; chatId: string }> {
  const page = await newPage(user);
  await page.goto(url);
  const chat = page.locator(`[data-testid="chat"][data-hydrated][data-user="${user}"]`);
  await chat.waitFor();
  const chatId = await chat.getAttribute('data-chat-id');
  if (!chatId) throw new Error('the page has no chat id');
  expect(page.url()).toBe(`${baseURL}/chat/${chatId}`);
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

const text = (locator: Locator) => locator.innerText();

/** The clean-up conversation, up to the approval request for delete_file, which anyone may answer. */
async function askToCleanUp(page: Page, chatId: string, path = '/tmp/build-cache'): Promise<Locator> {
  await say(page, `Clean up ${path}`);

  // the ToolGuard denied run_shell: shown as blocked by a rule (never as a person), with the short reason for people
  const shell = page.locator('[data-testid="tool-run_shell"][data-state="output-denied"][data-decision="denied"]').last();
  await shell.waitFor();
  expect(await text(shell.getByTestId('tool-why'))).toBe('Blocked by the rule tool-guard: The shell is off in this chat');

  // the model read the denial (the model's own wording) and asked for delete_file, which waits for a person
  const deletion = page.locator('[data-testid="tool-delete_file"][data-state="approval-requested"]');
  await deletion.waitFor();
  expect(await text(deletion.getByTestId('approval-prompt'))).toBe(`Approve deleting "${path}"?`);
  expect(await text(deletion.getByTestId('approval-who'))).toBe('Asked by you. Anyone in this chat may answer it.');
  expect(await text(deletion.getByTestId('tool-status'))).toBe('needs your approval');
  await deletion.getByTestId('approve-button').waitFor();
  await deletion.getByTestId('deny-button').waitFor();
  await settled(page);
  expect(await text(page.getByTestId('message-assistant').last())).toContain(
    'The shell command was blocked ("Shell commands are disabled in this chat; use the file tools instead.")',
  );
  // nothing ran before a person answered
  expect(await executions(chatId)).toEqual([]);
  return deletion;
}

describe('the Next.js example in Chromium, used by a developer and a manager', () => {
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
    contexts.clear();
    await browser?.close();
    browser = undefined;
    await server?.stop();
    server = undefined;
    console.log(['e2e timings:', ...timings.map(([label, ms]) => `  ${label}: ${(ms / 1000).toFixed(1)} s`)].join('\n'));
  });

  /** Runs a test with fresh pages, and checks that none threw; its time is reported. */
  const test = (name: string, label: string, body: () => Promise<void>, { skip = false } = {}) =>
    it.skipIf(skip)(name, async () => {
      const started = performance.now();
      pageErrors = [];
      try {
        await body();
        expect(pageErrors).toEqual([]);
      } finally {
        await Promise.all(pages.splice(0).map((page) => page.close()));
        timings.push([label, performance.now() - started]);
      }
    });

  test(
    "denies run_shell as a rule's decision, runs delete_file once Sam approves, and tells Morgan's browser the same chat with Sam's name",
    'deny, approve; the same chat in another browser',
    async () => {
      const sam = await openChat('sam');
      const deletion = await askToCleanUp(sam.page, sam.chatId);
      expect(await decisionLog(sam.page)).toEqual([
        expect.objectContaining({
          tool: 'run_shell',
          action: 'deny',
          handler: 'tool-guard',
          text: 'run_shell blocked by the rule tool-guard: The shell is off in this chat',
        }),
        expect.objectContaining({
          tool: 'delete_file',
          action: 'confirm',
          askedBy: 'sam',
          text: 'delete_file asked by you, waiting for anyone in this chat to approve',
        }),
      ]);
      await sam.page.screenshot({ path: join(results, 'approval.png'), fullPage: true });
      await deletion.getByTestId('approve-button').click();

      // the next request resumed the run: the tool ran, the model read its result
      const ran = sam.page.locator('[data-testid="tool-delete_file"][data-state="output-available"]');
      await ran.waitFor();
      expect(await lastAnswer(sam.page, 'delete_file reported: "deleted /tmp/build-cache"')).toContain('Done.');
      await settled(sam.page);
      expect(await text(ran.getByTestId('tool-output'))).toBe('deleted /tmp/build-cache');
      expect(await ran.getAttribute('data-decision')).toBe('approved-and-ran');
      expect(await text(ran.getByTestId('tool-status'))).toBe('approved by you, ran');
      expect((await decisionLog(sam.page)).at(-1)).toEqual(
        expect.objectContaining({
          tool: 'delete_file',
          action: 'proceed',
          answer: 'approved',
          answeredBy: 'sam',
          text: 'delete_file approved by you',
        }),
      );
      expect(await executions(sam.chatId)).toEqual([expect.objectContaining({ tool: 'delete_file', input: { path: '/tmp/build-cache' } })]);

      // Morgan opens the chat's link in another browser: the same conversation, as the server keeps it, in Morgan's words
      const morgan = await openChat('morgan', sam.page.url());
      expect(morgan.chatId).toBe(sam.chatId);
      expect(await morgan.page.getByTestId('message-author').first().textContent()).toBe('Sam');
      const seen = morgan.page.locator('[data-testid="tool-delete_file"][data-state="output-available"]');
      expect(await text(seen.getByTestId('tool-status'))).toBe('approved by Sam, ran');
      expect((await decisionLog(morgan.page)).map((entry) => entry.text)).toEqual([
        'run_shell blocked by the rule tool-guard: The shell is off in this chat',
        'delete_file asked by Sam, waiting for anyone in this chat to approve',
        'delete_file approved by Sam',
      ]);
      expect(await text(morgan.page.getByTestId('message-assistant').last())).toContain('delete_file reported: "deleted /tmp/build-cache"');
      await morgan.page.screenshot({ path: join(results, 'approved-seen-by-morgan.png'), fullPage: true });
    },
  );

  test(
    "runs nothing when the deletion is denied with a reason, says who refused, and the model reads the person's reason",
    'deny with a reason',
    async () => {
      const since = await modelRequestCount();
      const { page, chatId } = await openChat('sam');
      const deletion = await askToCleanUp(page, chatId);

      await deletion.getByTestId('deny-reason').fill('Keep the cache until Friday');
      await deletion.getByTestId('deny-button').click();

      // the model was told plainly that the person refused, with their reason (the runtime's wording)
      expect(await lastAnswer(page, 'you did not approve the deletion (your reason: "Keep the cache until Friday")')).toContain(
        'I did not delete /tmp/build-cache',
      );
      await settled(page);
      const refused = page.locator('[data-testid="tool-delete_file"][data-state="output-denied"]');
      expect(await refused.getAttribute('data-decision')).toBe('refused');
      expect(await text(refused.getByTestId('tool-status'))).toBe('refused by you');
      expect(await text(refused.getByTestId('tool-why'))).toBe('You refused: Keep the cache until Friday.');
      expect((await decisionLog(page)).at(-1)).toEqual(
        expect.objectContaining({
          tool: 'delete_file',
          action: 'deny',
          handler: '',
          answer: 'refused',
          answeredBy: 'sam',
          text: 'delete_file refused by you: Keep the cache until Friday',
        }),
      );
      await page.screenshot({ path: join(results, 'denied.png'), fullPage: true });

      const sent = await modelRequestsSince(since);
      expect(sent.at(-1)).toContain(
        'The user did not approve the call to \\"delete_file\\", so it was not executed. Their reason: Keep the cache until Friday',
      );
      expect(sent.join('\n')).not.toContain('ai-interventions/approval-answer');
      expect(await executions(chatId)).toEqual([]);
    },
  );

  test('guides send_email without a subject as a rule, then sends the retried call once', 'guide', async () => {
    const { page, chatId } = await openChat('sam');
    await say(page, 'Email the team that the build is green');

    // the first call had no subject: not run, sent back with the validator's feedback
    const guided = page.locator('[data-testid="tool-send_email"][data-state="output-denied"][data-decision="guided"]');
    await guided.waitFor();
    expect(await text(guided.getByTestId('tool-why'))).toBe('Sent back by the rule email-validator: An email needs a subject');
    expect(await text(guided.getByTestId('tool-input'))).not.toContain('subject');

    // the model read the feedback and retried with a subject: this one ran
    const sent = page.locator('[data-testid="tool-send_email"][data-state="output-available"]');
    await sent.waitFor();
    expect(await text(sent.getByTestId('tool-output'))).toBe('email "Update: the build is green" sent to team@example.com');
    expect(
      await lastAnswer(page, 'Email sent. send_email reported: "email "Update: the build is green" sent to team@example.com".'),
    ).toContain('The email was sent back with feedback ("All emails must include a subject line.")');
    await settled(page);
    expect(await page.locator('[data-testid="tool-send_email"]').count()).toBe(2);
    expect((await decisionLog(page)).map((entry) => entry.text)).toEqual([
      'send_email sent back to the model by the rule email-validator: An email needs a subject',
      'send_email allowed: no rule objected',
    ]);
    expect(await executions(chatId)).toEqual([
      expect.objectContaining({
        tool: 'send_email',
        input: expect.objectContaining({ to: 'team@example.com', subject: 'Update: the build is green' }),
      }),
    ]);
  });

  test(
    'remembers "approve for this chat": a later deletion runs without asking and says whose approval allowed it; another chat still asks',
    'remember for this chat',
    async () => {
      const { page, chatId } = await openChat('sam');
      const deletion = await askToCleanUp(page, chatId);
      await deletion.getByTestId('approve-session-button').click();
      await page.locator('[data-testid="tool-delete_file"][data-state="output-available"]').waitFor();
      await lastAnswer(page, 'delete_file reported: "deleted /tmp/build-cache"');
      await settled(page);

      // the same chat: the shell is still denied, the deletion runs at once, allowed by Sam's earlier approval
      await say(page, 'Clean up /tmp/old-logs');
      expect(await lastAnswer(page, 'delete_file reported: "deleted /tmp/old-logs"')).toContain('Done.');
      await settled(page);
      const second = page.locator('[data-testid="tool-delete_file"]').last();
      expect(await second.getAttribute('data-decision')).toBe('ran-remembered');
      expect(await text(second.getByTestId('tool-why'))).toBe('Allowed by an earlier approval: you approved delete_file for this chat.');
      expect(await page.getByTestId('approval').count()).toBe(0);
      expect((await decisionLog(page)).filter((entry) => entry.tool === 'delete_file').map((entry) => entry.text)).toEqual([
        'delete_file asked by you, waiting for anyone in this chat to approve',
        'delete_file approved by you (for this chat)',
        'delete_file allowed without asking: you approved it for this chat',
      ]);
      await page.screenshot({ path: join(results, 'remembered.png'), fullPage: true });
      expect((await executions(chatId)).map((entry) => entry.input)).toEqual([{ path: '/tmp/build-cache' }, { path: '/tmp/old-logs' }]);

      // another chat is another session: it asks again
      const other = await openChat('sam');
      await askToCleanUp(other.page, other.chatId, '/tmp/old-logs');
    },
  );

  test(
    'runs the arguments a person edited before approving, shows them in the call, and sends the model the call as it ran',
    'edit, then approve',
    async () => {
      const since = await modelRequestCount();
      const { page, chatId } = await openChat('sam');
      const deletion = await askToCleanUp(page, chatId);

      await deletion.getByTestId('edit-button').click();
      await deletion.getByTestId('edit-input').fill('{"path":"/tmp/build-cache/old"}');
      await deletion.getByTestId('approve-edited-button').click();

      const ran = page.locator('[data-testid="tool-delete_file"][data-state="output-available"]');
      await ran.waitFor();
      expect(await lastAnswer(page, 'delete_file reported: "deleted /tmp/build-cache/old"')).toContain('Done.');
      await settled(page);
      expect(await ran.getAttribute('data-decision')).toBe('edited-and-ran');
      expect(await text(ran.getByTestId('tool-status'))).toBe('edited and approved by you, ran');
      expect(JSON.parse(await text(ran.getByTestId('tool-input')))).toEqual({ path: '/tmp/build-cache/old' });
      expect(await text(ran.getByTestId('tool-output'))).toBe('deleted /tmp/build-cache/old');
      expect((await decisionLog(page)).at(-1)?.text).toBe('delete_file approved by you (edited arguments)');
      await page.screenshot({ path: join(results, 'edited.png'), fullPage: true });

      expect(await executions(chatId)).toEqual([expect.objectContaining({ tool: 'delete_file', input: { path: '/tmp/build-cache/old' } })]);
      // the model read the call with the edited arguments and its result, never the answer's encoding
      const sent = await modelRequestsSince(since);
      expect(sent.at(-1)).toContain('{\\"path\\":\\"/tmp/build-cache/old\\"}');
      expect(sent.at(-1)).not.toContain('{\\"path\\":\\"/tmp/build-cache\\"}');
      expect(sent.join('\n')).not.toContain('ai-interventions/approval-answer');
    },
  );

  test(
    'explains a malformed edit where it is typed and lets it be corrected, and shows a blocked edit with the arguments that were decided',
    'malformed edit, corrected, blocked',
    async () => {
      const { page, chatId } = await openChat('sam');
      const deletion = await askToCleanUp(page, chatId);
      await deletion.getByTestId('edit-button').click();
      const problem = deletion.getByTestId('edit-problem');
      const approveEdited = deletion.getByTestId('approve-edited-button');

      await deletion.getByTestId('edit-input').fill('{"path": "/tmp/x"');
      expect(await text(problem)).toMatch(/^This is not JSON \(.+\)\. Write an object, like \{"path": "\/tmp\/old"\}\.$/);
      expect(await approveEdited.getAttribute('disabled')).not.toBeNull();
      await deletion.getByTestId('edit-input').fill('{"pth": "/tmp/x"}');
      expect(await text(problem)).toBe('delete_file has no "pth": its arguments are "path".');
      await deletion.getByTestId('edit-input').fill('{"path": 3}');
      expect(await text(problem)).toBe('"path" must be a string, not a number.');
      expect(await approveEdited.getAttribute('disabled')).not.toBeNull();
      await page.screenshot({ path: join(results, 'edit-explained.png'), fullPage: true });

      // corrected: it fits the tool, so it can be sent; the path rule then blocks it, and the call shows the path decided
      await deletion.getByTestId('edit-input').fill('{"path": "/etc/passwd"}');
      expect(await problem.count()).toBe(0);
      await approveEdited.click();
      const blocked = page.locator('[data-testid="tool-delete_file"][data-state="output-denied"]');
      await blocked.waitFor();
      await lastAnswer(page, 'Nothing was removed.');
      await settled(page);
      expect(await blocked.getAttribute('data-decision')).toBe('denied');
      expect(JSON.parse(await text(blocked.getByTestId('tool-input')))).toEqual({ path: '/etc/passwd' });
      expect(await text(blocked.getByTestId('tool-edited'))).toBe('Edited by you; the model asked for {"path":"/tmp/build-cache"}.');
      expect(await text(blocked.getByTestId('tool-why'))).toBe(
        'You approved an edit, then the rule path-guard blocked it: Only /tmp may be deleted',
      );
      await settled(page);
      expect((await decisionLog(page)).at(-1)?.text).toBe(
        'delete_file approved by you (edited arguments), then blocked by the rule path-guard: Only /tmp may be deleted',
      );
      await page.screenshot({ path: join(results, 'edit-blocked.png'), fullPage: true });
      expect(await executions(chatId)).toEqual([]);
    },
  );

  test(
    "lets only a manager approve a deployment: Sam sees who it waits for and no buttons, Morgan's browser approves it, it runs once on Sam's behalf",
    'a manager approves, in two browsers',
    async () => {
      const sam = await openChat('sam');
      await say(sam.page, 'Deploy the build to production');
      const waiting = sam.page.locator('[data-testid="tool-deploy"][data-state="approval-requested"]');
      await waiting.waitFor();
      await settled(sam.page);
      expect(await waiting.getAttribute('data-decision')).toBe('waiting');
      expect(await text(waiting.getByTestId('tool-status'))).toBe('waiting for a manager');
      expect(await text(waiting.getByTestId('approval-prompt'))).toBe('Approve deploying to production?');
      expect(await text(waiting.getByTestId('approval-who'))).toBe(
        'Asked by you. Waiting for a manager: only a manager may approve this, so you cannot.',
      );
      // the request and why, and no buttons that would do nothing (the one who asked may withdraw it)
      expect(await waiting.getByTestId('approve-button').count()).toBe(0);
      expect(await waiting.getByTestId('approve-session-button').count()).toBe(0);
      expect(await waiting.getByTestId('edit-button').count()).toBe(0);
      await waiting.getByTestId('withdraw-button').waitFor();
      expect((await decisionLog(sam.page)).at(-1)?.text).toBe('deploy asked by you, waiting for a manager to approve');
      await sam.page.screenshot({ path: join(results, 'waiting-for-a-manager.png'), fullPage: true });

      // Morgan (a manager) opens the chat in another browser: the pending request, Sam's, with the buttons
      const morgan = await openChat('morgan', sam.page.url());
      const asking = morgan.page.locator('[data-testid="tool-deploy"][data-state="approval-requested"]');
      expect(await asking.getAttribute('data-decision')).toBe('awaiting-approval');
      expect(await text(asking.getByTestId('approval-who'))).toBe('Asked by Sam. Only a manager may approve it: you can.');
      expect(await morgan.page.getByTestId('message-author').first().textContent()).toBe('Sam');
      await asking.getByTestId('approve-button').click();
      const ran = morgan.page.locator('[data-testid="tool-deploy"][data-state="output-available"]');
      await ran.waitFor();
      expect(await lastAnswer(morgan.page, 'deploy reported: "deployed to production"')).toContain('Done.');
      await settled(morgan.page);
      expect(await text(ran.getByTestId('tool-output'))).toBe('deployed to production');
      expect(await text(ran.getByTestId('tool-status'))).toBe('approved by you, ran');
      expect(await text(ran.getByTestId('tool-why'))).toBe("You approved it; it ran on Sam's behalf.");

      // Sam's page follows the chat: the request ended, approved by Morgan
      const done = sam.page.locator('[data-testid="tool-deploy"][data-state="output-available"]');
      await done.waitFor({ timeout: 10_000 });
      await approvedByMorgan(sam.page, done);
      await sam.page.screenshot({ path: join(results, 'approved-by-a-manager.png'), fullPage: true });
      expect(await executions(sam.chatId)).toEqual([expect.objectContaining({ tool: 'deploy', input: { environment: 'production' } })]);

      // a reload shows the same, from the server
      await sam.page.reload();
      await sam.page.locator('[data-testid="chat"][data-hydrated]').waitFor();
      expect(await text(sam.page.locator('[data-testid="tool-deploy"]').getByTestId('tool-status'))).toBe('approved by Morgan, ran');

      // a request Sam may not approve, Sam may still withdraw: it ends, refused, and nothing runs
      await say(sam.page, 'Deploy the build to staging');
      const staging = sam.page.locator('[data-testid="tool-deploy"][data-state="approval-requested"]');
      await staging.getByTestId('withdraw-button').click();
      await lastAnswer(sam.page, 'I did not deploy');
      await settled(sam.page);
      const withdrawn = sam.page.locator('[data-testid="tool-deploy"]').last();
      expect(await withdrawn.getAttribute('data-decision')).toBe('refused');
      expect(await text(withdrawn.getByTestId('tool-why'))).toBe('You refused: Withdrawn by Sam before a decision.');
      expect(await executions(sam.chatId)).toHaveLength(1);
    },
  );

  test(
    'tells the second of two people answering the same request that the first already did, and shows the chat as it is',
    'answered in two browsers at once',
    async () => {
      const sam = await openChat('sam');
      await askToCleanUp(sam.page, sam.chatId);
      // Morgan's page shows the open request, and does not hear of Sam's answer before answering too
      const morgan = await openChat('morgan', sam.page.url());
      let answered = false;
      await morgan.page.route('**/api/chats/**', (route) => (answered ? route.continue() : route.abort()));
      await morgan.page.route('**/api/chat', (route) => {
        answered = true;
        return route.continue();
      });
      const open = morgan.page.locator('[data-testid="tool-delete_file"][data-state="approval-requested"]');
      expect(await text(open.getByTestId('approval-who'))).toBe('Asked by Sam. Anyone in this chat may answer it.');

      await sam.page.locator('[data-testid="tool-delete_file"]').getByTestId('approve-button').click();
      await lastAnswer(sam.page, 'delete_file reported: "deleted /tmp/build-cache"');
      await settled(sam.page);
      await open.getByTestId('approve-button').click();
      const notice = morgan.page.getByTestId('chat-notice');
      await notice.waitFor();
      expect(await text(notice)).toBe('This request was already answered by Sam: there is nothing left to answer.');
      expect(await morgan.page.getByTestId('chat-error').count()).toBe(0);
      const ran = morgan.page.locator('[data-testid="tool-delete_file"][data-state="output-available"]');
      expect(await text(ran.getByTestId('tool-status'))).toBe('approved by Sam, ran');
      await morgan.page.screenshot({ path: join(results, 'already-answered.png'), fullPage: true });
      expect(await executions(sam.chatId)).toHaveLength(1);
    },
  );

  test(
    "lets a manager approve a developer's deployment from the inbox page: Sam's chat continues by itself, with no answer sent from it, and the deployment runs once",
    'a manager approves from the inbox',
    async () => {
      const sam = await openChat('sam');
      const posted = await chatRequests(sam.page);
      await askToDeploy(sam.page, 'production');

      // Morgan goes from a chat's header to the inbox: the request, its arguments, who asked, when, who may answer
      const morgan = await openChat('morgan');
      const inbox = await openInbox('morgan', morgan.page);
      expect(inbox.url()).toBe(`${baseURL}/inbox`);
      const request = await inboxRequest(inbox, sam.chatId);
      expect(await request.getAttribute('data-tool')).toBe('deploy');
      expect(await text(request.getByTestId('request-prompt'))).toBe('Approve deploying to production?');
      expect(JSON.parse(await text(request.getByTestId('request-input')))).toEqual({ environment: 'production' });
      expect(await text(request.getByTestId('request-status'))).toBe('waiting');
      expect(await text(request.getByTestId('request-who'))).toMatch(/^Asked by Sam at .+ in this chat\. Only a manager may answer it\.$/);
      expect(await request.getByTestId('request-chat').getAttribute('href')).toBe(`/chat/${sam.chatId}`);
      await inbox.screenshot({ path: join(results, 'inbox.png'), fullPage: true });
      await request.getByTestId('inbox-approve').click();
      const notice = inbox.getByTestId('inbox-notice');
      await notice.waitFor();
      expect(await text(notice)).toBe("Approved: deploy runs on Sam's behalf when Sam's chat continues, by itself while it is open.");
      await expect.poll(() => request.count(), { timeout: 10_000 }).toBe(0);

      // Sam's page learned it from the inbox and continued: the deployment ran, once, approved by Morgan on Sam's behalf
      const ran = sam.page.locator('[data-testid="tool-deploy"][data-state="output-available"]');
      await ran.waitFor({ timeout: 15_000 });
      expect(await lastAnswer(sam.page, 'deploy reported: "deployed to production"')).toContain('Done.');
      await settled(sam.page);
      await approvedByMorgan(sam.page, ran);
      await sam.page.screenshot({ path: join(results, 'approved-from-the-inbox.png'), fullPage: true });
      // the page asked, then resumed: it never carried an answer
      expect(posted.map((body) => body.resume === true)).toEqual([false, true]);
      expect(carriesNoAnswer(posted)).toBe(true);
      expect(await executions(sam.chatId)).toEqual([expect.objectContaining({ tool: 'deploy', input: { environment: 'production' } })]);
      // nothing left to answer, and nothing ran twice
      expect((await storedChat(sam.chatId)).messages.at(-1)?.parts ?? []).toContainEqual(
        expect.objectContaining({ type: 'tool-deploy', state: 'output-available' }),
      );
      expect(await inbox.locator(`[data-testid="inbox-request"][data-conversation-id="${sam.chatId}"]`).count()).toBe(0);
      expect(await executions(sam.chatId)).toHaveLength(1);
    },
  );

  test(
    "shows Sam a manager's refusal given in the inbox, with her reason, and runs nothing; Sam's own inbox does not offer the request",
    'a manager refuses from the inbox',
    async () => {
      const since = await modelRequestCount();
      const sam = await openChat('sam');
      const posted = await chatRequests(sam.page);
      await askToDeploy(sam.page, 'staging');
      // a developer may not answer a deployment: it is not in Sam's inbox
      const samsInbox = await openInbox('sam');
      expect(await samsInbox.locator(`[data-testid="inbox-request"][data-conversation-id="${sam.chatId}"]`).count()).toBe(0);

      const inbox = await openInbox('morgan');
      const request = await inboxRequest(inbox, sam.chatId);
      expect(JSON.parse(await text(request.getByTestId('request-input')))).toEqual({ environment: 'staging' });
      await request.getByTestId('inbox-reason').fill('Not before the release');
      await request.getByTestId('inbox-refuse').click();
      const notice = inbox.getByTestId('inbox-notice');
      await notice.waitFor();
      expect(await text(notice)).toBe("Refused: Not before the release. Nothing runs, and Sam's chat says so.");

      // Sam's chat continues by itself: refused by Morgan, with her reason, which the model read
      await lastAnswer(sam.page, 'I did not deploy');
      await settled(sam.page);
      const refused = sam.page.locator('[data-testid="tool-deploy"][data-state="output-denied"]');
      expect(await refused.getAttribute('data-decision')).toBe('refused');
      expect(await text(refused.getByTestId('tool-status'))).toBe('refused by Morgan');
      expect(await text(refused.getByTestId('tool-why'))).toBe('Morgan refused: Not before the release.');
      expect((await decisionLog(sam.page)).at(-1)).toEqual(
        expect.objectContaining({ answer: 'refused', askedBy: 'sam', answeredBy: 'morgan' }),
      );
      await sam.page.screenshot({ path: join(results, 'refused-from-the-inbox.png'), fullPage: true });
      expect((await modelRequestsSince(since)).at(-1)).toContain('Not before the release');
      expect(posted.map((body) => body.resume === true)).toEqual([false, true]);
      expect(carriesNoAnswer(posted)).toBe(true);
      expect(await executions(sam.chatId)).toEqual([]);
    },
  );

  test('closes a request nobody answered once the conversation moves on: no buttons, nothing ran', 'a stale request closed', async () => {
    const { page, chatId } = await openChat('sam');
    await askToCleanUp(page, chatId);
    await say(page, 'Email the team that the build is green');
    await lastAnswer(page, 'Email sent.');
    await settled(page);
    const stale = page.locator('[data-testid="tool-delete_file"]');
    expect(await stale.getAttribute('data-decision')).toBe('closed');
    expect(await text(stale.getByTestId('tool-status'))).toBe('closed without an answer');
    expect(await text(stale.getByTestId('tool-why'))).toBe(
      'The conversation moved on before anyone answered your request, so nothing ran.',
    );
    expect(await stale.getByTestId('approve-button').count()).toBe(0);
    await page.screenshot({ path: join(results, 'closed.png'), fullPage: true });
    expect((await executions(chatId)).map((entry) => entry.tool)).toEqual(['send_email']);
  });

  test(
    'says in a sentence that a request failed, and retries it: an approval runs once, a message is not repeated',
    'failed requests retried',
    async () => {
      const { page, chatId } = await openChat('sam');
      const deletion = await askToCleanUp(page, chatId);

      // the approval's request never reaches the server
      await page.route('**/api/chat', (route) => route.abort('internetdisconnected'), { times: 1 });
      await deletion.getByTestId('approve-button').click();
      const failure = page.getByTestId('chat-error-text');
      await failure.waitFor();
      expect(await text(failure)).toBe(
        'The server could not be reached: the request did not get through. Check the connection, then press Retry.',
      );
      const undelivered = page.locator('[data-testid="tool-delete_file"][data-decision="not-delivered"]');
      expect(await text(undelivered.getByTestId('tool-status'))).toBe('approval not delivered');
      expect(await executions(chatId)).toEqual([]);
      await page.screenshot({ path: join(results, 'not-delivered.png'), fullPage: true });
      await page.getByTestId('retry-button').click();
      await page.locator('[data-testid="tool-delete_file"][data-state="output-available"]').waitFor();
      await lastAnswer(page, 'delete_file reported: "deleted /tmp/build-cache"');
      await settled(page);
      expect(await page.getByTestId('chat-error').count()).toBe(0);
      expect(await executions(chatId)).toEqual([expect.objectContaining({ tool: 'delete_file' })]);

      // a message whose request fails: Retry sends it again, once
      await page.route('**/api/chat', (route) => route.abort('internetdisconnected'), { times: 1 });
      await say(page, 'Email the team that the build is green');
      await failure.waitFor();
      expect(await page.getByTestId('message-user').count()).toBe(2);
      await page.getByTestId('retry-button').click();
      await lastAnswer(page, 'Email sent.');
      await settled(page);
      expect(await page.getByTestId('message-user').count()).toBe(2);

      // a message whose request fails, sent again from the form: it replaces the one that failed
      await page.route('**/api/chat', (route) => route.abort('internetdisconnected'), { times: 1 });
      await say(page, 'Write to the team that the build is green');
      await failure.waitFor();
      expect(await page.getByTestId('message-user').count()).toBe(3);
      await say(page, 'Write to the team that the build is green');
      await lastAnswer(page, 'Email sent.');
      await settled(page);
      expect(await page.getByTestId('message-user').count()).toBe(3);
      // the server kept each once, too
      await page.reload();
      await page.locator('[data-testid="chat"][data-hydrated]').waitFor();
      expect(await page.getByTestId('message-user').count()).toBe(3);
      expect((await executions(chatId)).map((entry) => entry.tool)).toEqual(['delete_file', 'send_email', 'send_email']);
    },
  );

  test('stops a running answer: the page says so, and the chat keeps what was said before the stop', 'a stopped answer', async () => {
    const { page, chatId } = await openChat('sam');
    await say(page, 'Write a status report');
    const answer = page.getByTestId('message-assistant').last();
    await expect.poll(() => text(answer), { timeout: 10_000 }).toContain('Status report.');
    await page.getByTestId('stop-button').click();
    await settled(page);
    await page.getByTestId('message-stopped').waitFor();
    const said = await text(answer.getByTestId('message-text'));
    expect(said).not.toContain('approve the deployment.');
    await page.screenshot({ path: join(results, 'stopped.png'), fullPage: true });
    // what the server kept: the answer up to the stop, marked as stopped; a reload shows it
    await expect.poll(async () => (await storedChat(chatId)).messages.at(-1)?.metadata, { timeout: 10_000 }).toEqual({ stopped: true });
    await page.reload();
    await page.locator('[data-testid="chat"][data-hydrated]').waitFor();
    await page.getByTestId('message-stopped').waitFor();
    expect(await text(page.getByTestId('message-assistant').last().getByTestId('message-text'))).toContain('Status report.');
    expect(await text(page.getByTestId('message-assistant').last().getByTestId('message-text'))).not.toContain('approve the deployment.');
  });

  test(
    'keeps the conversation on the server: a client can only answer the open request, once, and not one the conversation moved past',
    'what the route accepts (HTTP)',
    async () => {
      const chatId = `http-${Date.now()}`;
      const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Clean up /tmp/build-cache' }] };
      const first = await postChat(chatId, user);
      expect(first.chunks).toContainEqual(expect.objectContaining({ type: 'tool-approval-request', signature: expect.any(String) }));
      if (first.message === undefined) throw new Error('no assistant message');

      // an answer that points the call elsewhere changes nothing: the server's copy of the call runs, once
      const forged = await postChat(chatId, answered(first.message, { path: '/etc' }));
      expect(forged.chunks).toContainEqual(expect.objectContaining({ type: 'tool-output-available', output: 'deleted /tmp/build-cache' }));
      expect(await executions(chatId)).toEqual([expect.objectContaining({ tool: 'delete_file', input: { path: '/tmp/build-cache' } })]);

      // the same answer again: nothing left to answer, said in a sentence
      const replayed = await postChat(chatId, answered(first.message), 'morgan');
      expect(replayed).toMatchObject({ status: 409, text: 'This request was already answered by Sam: there is nothing left to answer.' });

      // a request the conversation moved past cannot be answered
      const second = await postChat(chatId, { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'Clean up /tmp/old-logs' }] });
      if (second.message === undefined) throw new Error('no assistant message');
      expect(await postChat(chatId, { id: 'u3', role: 'user', parts: [{ type: 'text', text: 'Hello' }] })).toMatchObject({ status: 200 });
      const stale = await postChat(chatId, answered(second.message));
      expect(stale).toMatchObject({
        status: 409,
        text: 'This request was closed: the conversation moved on before it was answered, so nothing ran.',
      });
      expect(await executions(chatId)).toHaveLength(1);
      expect(await postChat('no such id!', user)).toMatchObject({ status: 400, text: 'This chat has no valid id: open a new chat.' });
    },
  );
  test(
    `keeps a request through a restart of the server on Redis: asked before, answered from the inbox after, and Sam's open chat continues by itself${hasRedisServer ? '' : ' (SKIPPED: no redis-server on the PATH; apt-get install redis-server)'}`,
    'a restart between the request and the answer (Redis)',
    async () => {
      const redis = await startRedisServer();
      const memoryURL = baseURL;
      const port = await freePort();
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        NODE_ENV: 'production',
        // the ledger, the inbox and the chats on Redis; requests sealed with a secret that outlives the process
        REDIS_URL: `redis://127.0.0.1:${redis.port}`,
        APPROVAL_SECRET: 'the e2e approval secret, the same for every instance',
      };
      delete env.OPENAI_API_KEY;
      let redisServer: NextServer | undefined;
      try {
        redisServer = await timed('next start on Redis (until ready)', () => startNext({ command: 'start', env, ready: '/api/log', port }));
        baseURL = redisServer.baseURL;
        const sam = await openChat('sam');
        const posted = await chatRequests(sam.page);
        await askToDeploy(sam.page, 'production');

        // the server stops, and another process starts on the same port: nothing of the first is in its memory
        await redisServer.stop();
        redisServer = await timed('next restart on Redis (until ready)', () =>
          startNext({ command: 'start', env, ready: '/api/log', port }),
        );
        expect(await executions(sam.chatId)).toEqual([]);
        expect((await storedChat(sam.chatId)).messages.at(-1)?.parts ?? []).toContainEqual(
          expect.objectContaining({ type: 'tool-deploy', state: 'approval-requested' }),
        );

        // Morgan's inbox lists the request kept on Redis; she sends it to staging instead, and approves that
        const inbox = await openInbox('morgan');
        const request = await inboxRequest(inbox, sam.chatId);
        expect(JSON.parse(await text(request.getByTestId('request-input')))).toEqual({ environment: 'production' });
        await request.getByTestId('inbox-edit').click();
        const edit = request.getByTestId('edit-input');
        await edit.fill('{"environment":"moon"}');
        expect(await text(request.getByTestId('edit-problem'))).toBe('"environment" must be one of "staging", "production".');
        await edit.fill('{"environment":"staging"}');
        await request.getByTestId('approve-edited-button').click();
        await inbox.getByTestId('inbox-notice').waitFor();
        expect(await text(inbox.getByTestId('inbox-notice'))).toBe(
          "Approved: deploy runs on Sam's behalf when Sam's chat continues, by itself while it is open.",
        );

        // Sam's page, open all along, continues by itself on the new process: the edited deployment runs, once
        const ran = sam.page.locator('[data-testid="tool-deploy"][data-state="output-available"]');
        await ran.waitFor({ timeout: 20_000 });
        await lastAnswer(sam.page, 'deploy reported: "deployed to staging"');
        await settled(sam.page);
        // (polled: once, in 20 full runs, the page read 'approved, ran' here, without Morgan's decision, at first)
        await expect.poll(() => text(ran.getByTestId('tool-status')), { timeout: 5_000 }).toBe('edited and approved by Morgan, ran');
        // the call shows the arguments that ran, Morgan's
        expect(JSON.parse(await text(ran.getByTestId('tool-input')))).toEqual({ environment: 'staging' });
        expect(await text(ran.getByTestId('tool-output'))).toBe('deployed to staging');
        await sam.page.screenshot({ path: join(results, 'approved-after-a-restart.png'), fullPage: true });
        expect(carriesNoAnswer(posted)).toBe(true);
        expect(posted.at(-1)?.resume).toBe(true);
        expect(await executions(sam.chatId)).toEqual([expect.objectContaining({ tool: 'deploy', input: { environment: 'staging' } })]);
        // the conversation is on Redis: a reload shows it as it ended
        await sam.page.reload();
        await sam.page.locator('[data-testid="chat"][data-hydrated]').waitFor();
        expect(await text(sam.page.locator('[data-testid="tool-deploy"]').getByTestId('tool-status'))).toBe(
          'edited and approved by Morgan, ran',
        );
        expect(await executions(sam.chatId)).toHaveLength(1);
      } finally {
        baseURL = memoryURL;
        await redisServer?.stop();
        await redis.kill();
      }
    },
    { skip: !hasRedisServer },
  );
});
