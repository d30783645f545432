/**
 * The README's programs, run as they are written: `@ai-sdk/openai` answers
 * with a scripted model and `node:fs/promises` is a recording stand-in, the
 * rest is the real package. Each test checks what the text around the
 * program says it does.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as ai from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as zod from 'zod';
import * as aiInterventions from '../../src/index.ts';
import * as testing from '../../src/testing/index.ts';
import { runHandler, scriptedModel, text, toolCall, type ScriptedModel } from '../../src/testing/index.ts';
import { runSnippet } from './run-snippet.ts';
import { markdownSnippets } from './snippets.ts';

const readme = markdownSnippets(readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8'), 'README.md');

function program(marker: string): string {
  const found = readme.filter((snippet) => snippet.code.includes(marker));
  if (found.length !== 1) throw new Error(`expected one README block with ${JSON.stringify(marker)}, found ${found.length}`);
  return (found[0] as (typeof found)[number]).code;
}

/** Runs a README program against `model`, with a file system that records instead of deleting. */
async function run(code: string, model: ScriptedModel, expose: readonly string[] = []) {
  const fs = {
    readdir: vi.fn(async (dir: string) => [`${dir}/build-cache`, `${dir}/session.log`]),
    rm: vi.fn(async (_path: string) => undefined),
  };
  const printed: unknown[][] = [];
  vi.spyOn(console, 'log').mockImplementation((...values: unknown[]) => void printed.push(values));
  const exposed = await runSnippet(
    code,
    {
      ai,
      zod,
      'ai-interventions': aiInterventions,
      'ai-interventions/testing': testing,
      '@ai-sdk/openai': { openai: () => model },
      'node:fs/promises': fs,
    },
    expose,
  );
  return { fs, printed, exposed };
}

const sent = (model: ScriptedModel, call: number) => JSON.stringify(model.calls[call]?.prompt);

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

describe('the README programs', () => {
  it('the opening example: delete_file never runs; the model reads why and answers without it', async () => {
    const model = scriptedModel(
      toolCall('c1', 'list_files', { dir: '/tmp' }),
      toolCall('c2', 'delete_file', { path: '/tmp/build-cache' }),
      text('I could not delete /tmp/build-cache: deleting files is not allowed here.'),
    );
    const { fs, printed } = await run(program("rules: [{ deny: 'delete_file'"), model);

    expect(fs.readdir).toHaveBeenCalledWith('/tmp');
    expect(fs.rm).not.toHaveBeenCalled();
    expect(sent(model, 2)).toContain('Deleting files is not allowed here');
    expect(printed).toEqual([['I could not delete /tmp/build-cache: deleting files is not allowed here.']]);
  });

  it('the quick start: ToolGuard denies delete_file, and the decisions say who decided', async () => {
    const model = scriptedModel(toolCall('c1', 'delete_file', { path: '/tmp/build-cache' }), text('Not allowed, sorry.'));
    const { fs, printed } = await run(program('class ToolGuard extends InterventionHandler'), model);

    expect(fs.rm).not.toHaveBeenCalled();
    expect(sent(model, 1)).toContain("Tool 'delete_file' is not allowed in this environment");
    expect(printed[0]).toEqual(['Not allowed, sorry.']);
    expect(printed[1]?.[0]).toEqual([
      expect.objectContaining({ handler: 'tool-guard', lifecycle: 'beforeToolCall', action: 'deny', toolName: 'delete_file' }),
    ]);
  });

  it('StrictAuth: the auth service decides; when it fails, the call is denied (fail closed)', async () => {
    const { exposed } = await run(program('class StrictAuth'), scriptedModel(), ['StrictAuth']);
    const StrictAuth = exposed.StrictAuth as new () => aiInterventions.InterventionHandler;
    const call = { lifecycle: 'beforeToolCall', toolCall: { toolName: 'delete_file', input: { path: '/tmp/x' } }, runtimeContext: { userId: 'u1' } } as const;

    vi.stubGlobal('fetch', vi.fn(async () => Response.json({ allowed: true })));
    expect((await runHandler(new StrictAuth(), call)).action).toBe('proceed');

    vi.stubGlobal('fetch', vi.fn(async () => Response.json({ allowed: false })));
    expect((await runHandler(new StrictAuth(), call)).record).toMatchObject({ action: 'deny', reason: 'You may not use this tool.' });

    vi.stubGlobal('fetch', vi.fn(async () => new Response('down', { status: 503 })));
    const failed = await runHandler(new StrictAuth(), call);
    expect(failed.executed).toEqual([]);
    expect(failed.record).toMatchObject({
      action: 'deny',
      error: expect.objectContaining({ cause: new Error('auth service answered 503') }),
    });
  });

  it('human approval: the first call stops at the request, the second runs delete_file once', async () => {
    vi.stubEnv('APPROVAL_SECRET', 'a-long-random-secret');
    const model = scriptedModel(toolCall('c1', 'delete_file', { path: '/tmp/report.txt' }), text('Deleted /tmp/report.txt.'));
    const { fs, printed } = await run(program('class DeleteApproval'), model);

    expect(printed[0]).toEqual([expect.any(String), 'Approve deleting "/tmp/report.txt"?']);
    expect(fs.rm.mock.calls).toEqual([['/tmp/report.txt']]);
    expect(printed[1]).toEqual(['Deleted /tmp/report.txt.']);
  });

  it('the testing kit: runHandler says the guard denied and nothing ran', async () => {
    const { exposed } = await run(program("from 'ai-interventions/testing'"), scriptedModel(), ['action', 'record', 'executed']);
    expect(exposed).toEqual({
      action: 'deny',
      record: expect.objectContaining({ reason: 'Production database access is not allowed' }),
      executed: [],
    });
  });
});
