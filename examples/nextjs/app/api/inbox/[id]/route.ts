import { interventions } from '../../../../lib/interventions';
import { inputProblem } from '../../../../lib/tool-inputs';
import { runtimeContextOf, signedInUser } from '../../../../lib/users';
import { inboxAnswerSentence } from '../../../../lib/words';

export const dynamic = 'force-dynamic';

const sentence = (status: number, text: string) => new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });

// one request, for someone who may answer it or who asked it (the asker's chat follows it here)
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const found = await interventions().inbox.get(id, { runtimeContext: runtimeContextOf(signedInUser(request)) });
  if (found === undefined) return sentence(404, 'No such request is waiting for you.');
  return Response.json(found, { headers: { 'cache-control': 'no-store' } });
}

// an answer from the inbox page: approve (optionally edited arguments, `input`) or refuse with a reason,
// admitted as the signed-in person's exactly as an answer given in the chat
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const body = (await request.json().catch(() => undefined)) as { approved?: unknown; reason?: unknown; input?: unknown } | undefined;
  if (typeof body?.approved !== 'boolean') return sentence(400, 'An answer says whether you approve: reload the page and try again.');
  const reason = typeof body.reason === 'string' && body.reason.trim() !== '' ? body.reason.trim() : undefined;
  const user = signedInUser(request);
  if (body.approved && body.input !== undefined) {
    // an edit is checked against the tool's schema before it is admitted, so a mistake can be corrected (the runtime checks again)
    const found = await interventions().inbox.get(id, { runtimeContext: runtimeContextOf(user) });
    const problem = found === undefined ? undefined : inputProblem(found.toolName, JSON.stringify(body.input));
    if (problem !== undefined) return sentence(400, problem);
  }
  const result = await interventions().inbox.answer(id, {
    approved: body.approved,
    ...(reason === undefined ? {} : { reason }),
    ...(body.approved && body.input !== undefined ? { input: body.input } : {}),
    runtimeContext: runtimeContextOf(user),
  });
  const said = inboxAnswerSentence(result, user);
  return Response.json(
    { type: result.type, sentence: said, request: result.type === 'not-found' ? undefined : result.request },
    { status: result.type === 'not-found' ? 404 : 200 },
  );
}
