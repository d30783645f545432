import { interventions } from '../../../lib/interventions';
import { runtimeContextOf, signedInUser } from '../../../lib/users';

export const dynamic = 'force-dynamic';

// the requests the signed-in person may answer, newest first (`?cursor=` for the next page)
export async function GET(request: Request) {
  const cursor = new URL(request.url).searchParams.get('cursor') ?? undefined;
  const page = await interventions().inbox.list({ runtimeContext: runtimeContextOf(signedInUser(request)), cursor });
  return Response.json(page, { headers: { 'cache-control': 'no-store' } });
}
