/**
 * `verifyDecisionTrail`: a chain written by a runtime's trail, then altered,
 * reordered or cut in its store (memory and a real `redis-server`), is
 * found out at its first bad link, with the kind of break; anchors kept
 * outside the store catch what the store alone cannot show.
 */
import { createHash } from 'node:crypto';
import { isStepCount } from 'ai';
import { describe, expect, it } from 'vitest';
import {
  createDecisionTrail,
  createInterventions,
  createMemoryStore,
  createRedisStore,
  type DecisionTrailAnchor,
  type DecisionTrailLink,
  type Store,
  verifyDecisionTrail,
} from '../../src/index.ts';
import { noWipes, wipeAndLookupTools } from '../helpers/recording-tools.ts';
import { hasRedisServer, redisTitle, uniquePrefix, useRedisServer } from '../helpers/redis-server.ts';
import { scriptedModel, step, text, toolCall } from '../helpers/scripted-model.ts';

const STORE_KEY = 'decision-trail:ops';

/** A chain of 6 links (two runs of three records) written through the public API, and where each record went. */
async function writtenChain(store: Store = createMemoryStore()) {
  const trail = createDecisionTrail({ store, key: ({ runtimeContext }) => String(runtimeContext.chain) });
  const interventions = createInterventions({ handlers: [noWipes], trail, policyVersion: 'p1' });
  const { tools } = wipeAndLookupTools();
  const anchors: DecisionTrailAnchor[] = [];
  for (const chain of ['ops', 'ops', 'other']) {
    const model = scriptedModel(
      step(toolCall('c1', 'wipe_disk', { disk: 'prod' }), toolCall('c2', 'lookup', { q: 'a' }), toolCall('c3', 'lookup', { q: 'b' })),
      step(text('done')),
    );
    const result = await interventions.generateText({ model, tools, prompt: 'go', stopWhen: isStepCount(3), runtimeContext: { chain } });
    if (chain === 'ops') for (const record of result.interventions.decisions) if (record.trail !== undefined) anchors.push(record.trail);
  }
  const entries = [...(await store.list(STORE_KEY))];
  return { store, trail, anchors, entries };
}

/** Replaces the chain in the store with `entries`, as someone with write access to the store could. */
async function overwrite(store: Store, entries: readonly string[]): Promise<void> {
  await store.delete(STORE_KEY);
  for (const [index, entry] of entries.entries()) await store.append(STORE_KEY, entry, { length: index });
}

/** The documented link hash, computed independently: SHA-256 of the sorted-key JSON of ['ai-interventions-trail-v1', content]. */
function rehash(link: Omit<DecisionTrailLink, 'hash'> & { hash?: string }): DecisionTrailLink {
  const { hash: _, ...content } = link;
  const hash = createHash('sha256')
    .update(canonical(['ai-interventions-trail-v1', content]))
    .digest('hex');
  return { ...content, hash };
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const fields = Object.entries(value)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${fields.map(([name, field]) => `${JSON.stringify(name)}:${canonical(field)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const parse = (entry: string | undefined) => JSON.parse(entry ?? 'null') as DecisionTrailLink;
const text_ = (link: DecisionTrailLink) => JSON.stringify(link);

describe('verifyDecisionTrail', () => {
  describe('when the chain is as written', () => {
    it('should say it is valid, with every link in order and its head', async () => {
      const { trail, anchors, entries } = await writtenChain();
      const check = await verifyDecisionTrail({ trail, key: 'ops', anchors });
      expect(check.valid).toBe(true);
      expect(check.links.map((link) => link.index)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(check.links.map((link) => link.record.handler)).toEqual(Array(6).fill('no-wipes'));
      expect(check.valid && check.head).toEqual({ index: 5, hash: anchors[5]?.hash });
      // the same links, exported as JSON and checked elsewhere
      expect(await verifyDecisionTrail({ links: entries, key: 'ops', anchors })).toEqual(check);
      expect(await verifyDecisionTrail({ links: JSON.parse(JSON.stringify(check.links)) as unknown[], key: 'ops' })).toEqual({
        ...check,
      });
      // the documented hash recipe gives the stored hashes
      expect(check.links.map((link) => rehash(link).hash)).toEqual(check.links.map((link) => link.hash));
    });

    it('should say an empty chain is valid, without a head', async () => {
      const trail = createDecisionTrail({ store: createMemoryStore(), key: 'ops' });
      expect(await verifyDecisionTrail({ trail, key: 'ops' })).toEqual({ valid: true, links: [], head: undefined });
    });
  });

  describe('when a link was altered', () => {
    it('should name the link whose content no longer matches its hash', async () => {
      const { store, trail, entries } = await writtenChain();
      const link = parse(entries[2]);
      entries[2] = text_({ ...link, record: { ...link.record, enforced: false } });
      await overwrite(store, entries);

      const check = await verifyDecisionTrail({ trail, key: 'ops' });
      expect(check).toMatchObject({ valid: false, broken: { index: 2, problem: 'altered' } });
      expect(check.broken?.reason).toBe('Link 2 was changed after it was written: its content no longer matches its hash.');
      expect(check.links).toHaveLength(2);
    });

    it('should name a link changed with its hash recomputed, by the link chained to it', async () => {
      const { store, trail, entries } = await writtenChain();
      const link = parse(entries[2]);
      entries[2] = text_(rehash({ ...link, record: { ...link.record, policyVersion: 'p0' } }));
      await overwrite(store, entries);

      expect(await verifyDecisionTrail({ trail, key: 'ops' })).toMatchObject({
        valid: false,
        broken: { index: 2, problem: 'altered', reason: expect.stringContaining('Link 2 is not the link that link 3 was chained to') },
      });
    });

    it('should need an anchor for a chain rewritten from a link on, every hash recomputed', async () => {
      const { store, trail, anchors, entries } = await writtenChain();
      const links = entries.map(parse);
      let prev = (links[1] as DecisionTrailLink).hash;
      for (let index = 2; index < links.length; index++) {
        const link = links[index] as DecisionTrailLink;
        const forged = rehash({ ...link, prev, record: index === 2 ? { ...link.record, reason: 'looked fine' } : link.record });
        entries[index] = text_(forged);
        prev = forged.hash;
      }
      await overwrite(store, entries);

      // the store alone cannot tell
      expect((await verifyDecisionTrail({ trail, key: 'ops' })).valid).toBe(true);
      // the hashes the records (or their spans) carried can
      expect(await verifyDecisionTrail({ trail, key: 'ops', anchors })).toMatchObject({
        valid: false,
        broken: { index: 2, problem: 'altered', reason: expect.stringContaining('the chain was rewritten at or before it') },
      });
      // one head kept outside the store is enough to know, though not where
      expect(await verifyDecisionTrail({ trail, key: 'ops', anchors: anchors.slice(-1) })).toMatchObject({
        valid: false,
        broken: { index: 5, problem: 'altered' },
      });
    });

    it('should refuse an entry that is not a link, a link of another chain, a link twice and an inserted one', async () => {
      const cases: Array<[string, (entries: string[], other: string[]) => void, number]> = [
        ['not JSON', (entries) => void (entries[1] = '{"key":"ops",'), 1],
        ['not a link', (entries) => void (entries[1] = '{"key":"ops"}'), 1],
        ['another chain', (entries, other) => void (entries[0] = other[0] as string), 0],
        ['twice', (entries) => void entries.splice(3, 0, entries[2] as string), 3],
        [
          'inserted',
          (entries) => {
            const before = parse(entries[1]);
            const forged = rehash({ ...before, index: 2, prev: before.hash, record: { ...before.record, reason: 'inserted' } });
            entries.splice(2, 0, text_(forged));
          },
          2,
        ],
      ];
      for (const [name, tamper, index] of cases) {
        const { store, trail, entries } = await writtenChain();
        tamper(entries, [...(await store.list('decision-trail:other'))]);
        await overwrite(store, entries);
        expect(await verifyDecisionTrail({ trail, key: 'ops' }), name).toMatchObject({
          valid: false,
          broken: { index, problem: 'altered' },
        });
      }
    });
  });

  describe('when links were reordered', () => {
    it.each([
      ['two links swapped', [0, 3, 2, 1, 4, 5], 1],
      ['two neighbours swapped', [0, 1, 3, 2, 4, 5], 2],
      ['the last link moved first', [5, 0, 1, 2, 3, 4], 0],
      ['a link moved to the end', [0, 2, 3, 4, 5, 1], 1],
    ])('should name the first link out of place: %s', async (_, order, index) => {
      const { store, trail, entries } = await writtenChain();
      await overwrite(
        store,
        order.map((at) => entries[at] as string),
      );
      expect(await verifyDecisionTrail({ trail, key: 'ops' })).toMatchObject({ valid: false, broken: { index, problem: 'reordered' } });
    });
  });

  describe('when the chain was cut', () => {
    it('should name where links are missing, in the middle or at the start', async () => {
      const { store, trail, entries } = await writtenChain();
      await overwrite(store, [...entries.slice(0, 2), ...entries.slice(3)]);
      expect(await verifyDecisionTrail({ trail, key: 'ops' })).toMatchObject({
        valid: false,
        broken: { index: 2, problem: 'cut', reason: 'The chain is cut before link 3: link 2 is missing.' },
      });
      await overwrite(store, entries.slice(2));
      expect(await verifyDecisionTrail({ trail, key: 'ops' })).toMatchObject({
        valid: false,
        broken: { index: 0, problem: 'cut', reason: 'The chain is cut before link 2: links 0 to 1 are missing.' },
      });
    });

    it('should find a chain cut at its end with an anchor past it', async () => {
      const { store, trail, anchors, entries } = await writtenChain();
      await overwrite(store, entries.slice(0, 4));
      expect((await verifyDecisionTrail({ trail, key: 'ops' })).valid).toBe(true);
      expect(await verifyDecisionTrail({ trail, key: 'ops', anchors: anchors.slice(-1) })).toMatchObject({
        valid: false,
        broken: { index: 4, problem: 'cut', reason: expect.stringContaining('The chain ends after 4 links, but link 5 was written') },
      });
    });
  });
});

describe.skipIf(!hasRedisServer)(redisTitle('verifyDecisionTrail on a real redis-server'), () => {
  const redis = useRedisServer();

  it('should find a link altered, and one removed, in the Redis list', async () => {
    const prefix = uniquePrefix();
    const { trail, entries } = await writtenChain(createRedisStore({ client: redis.client, prefix }));
    const link = parse(entries[4]);
    await redis.client.lset(`${prefix}${STORE_KEY}`, 4, text_({ ...link, record: { ...link.record, toolName: 'wipe_disk' } }));
    expect(await verifyDecisionTrail({ trail, key: 'ops' })).toMatchObject({ valid: false, broken: { index: 4, problem: 'altered' } });

    await redis.client.lrem(`${prefix}${STORE_KEY}`, 1, entries[1] as string);
    expect(await verifyDecisionTrail({ trail, key: 'ops' })).toMatchObject({ valid: false, broken: { index: 1, problem: 'cut' } });
  });
});
