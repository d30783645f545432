import type { DecisionTrail } from './create-decision-trail.ts';
import { type DecisionTrailLink, GENESIS, linkHash, parseLink } from './decision-trail-link.ts';

/**
 * A link known from outside the store (a span's `ai_interventions.trail.*`
 * attributes, a record's `trail`, a head you saved): its place and hash.
 *
 * @example
 * ```ts
 * const anchor: DecisionTrailAnchor = { index: 41, hash: 'a3f1…' };
 * const check = await verifyDecisionTrail({ trail, key: 'chat:42', anchors: [anchor] });
 * ```
 */
export interface DecisionTrailAnchor {
  readonly index: number;
  readonly hash: string;
}

/**
 * What {@link verifyDecisionTrail} checks: a chain read from a trail (`trail`
 * and `key`), or links you hold (`links`: stored JSON texts or parsed
 * links, in order; `key` optional). `anchors`: links known from outside
 * the store, so that a chain cut at its end, or rewritten whole from some
 * link on with every hash recomputed, is found too.
 *
 * @example
 * ```ts
 * const fromStore: DecisionTrailSource = { trail, key: 'chat:42' };
 * const archived: string = JSON.stringify((await verifyDecisionTrail(fromStore)).links); // e.g. kept in cold storage
 * const exported: DecisionTrailSource = { links: JSON.parse(archived) as unknown[], key: 'chat:42' };
 * ```
 */
export type DecisionTrailSource =
  | { readonly trail: DecisionTrail; readonly key: string; readonly anchors?: readonly DecisionTrailAnchor[] }
  | { readonly links: readonly unknown[]; readonly key?: string; readonly anchors?: readonly DecisionTrailAnchor[] };

/**
 * Where a chain first goes wrong: the place of the first bad link in the
 * chain as read (`index`; for a chain cut at its end, its length), and how:
 * `'altered'` (a link's content no longer matches its hash, is not a link,
 * belongs to another chain, or was replaced or inserted with its hash
 * recomputed), `'reordered'` (a link is not where its index says, and the
 * link it belongs after is elsewhere in the chain), or `'cut'` (links are
 * missing before it, or at the end short of an anchor). `reason` says it
 * in a sentence.
 *
 * @example
 * ```ts
 * const { broken }: { broken?: DecisionTrailBreak } = await verifyDecisionTrail({ trail, key: 'chat:42' });
 * if (broken !== undefined) console.error(`${broken.problem} at ${broken.index}: ${broken.reason}`);
 * ```
 */
export interface DecisionTrailBreak {
  readonly index: number;
  readonly problem: 'altered' | 'reordered' | 'cut';
  readonly reason: string;
}

/**
 * The answer of {@link verifyDecisionTrail}: `valid`, with every link in
 * order and the chain's head (its last link's index and hash, `undefined`
 * for an empty chain: keep it outside the store as an anchor), or not,
 * with the first {@link DecisionTrailBreak} and the links before it.
 *
 * @example
 * ```ts
 * const check: DecisionTrailCheck = await verifyDecisionTrail({ trail, key: 'chat:42' });
 * if (check.valid) console.log(`${check.links.length} links, head ${check.head?.hash ?? '(empty)'}`);
 * else console.error(check.broken.reason);
 * ```
 */
export type DecisionTrailCheck =
  | {
      readonly valid: true;
      readonly links: readonly DecisionTrailLink[];
      readonly head: DecisionTrailAnchor | undefined;
      readonly broken?: undefined;
    }
  | { readonly valid: false; readonly links: readonly DecisionTrailLink[]; readonly broken: DecisionTrailBreak };

/**
 * Checks a decision trail link by link: each link's hash against its
 * content, its index against its place, its `prev` against the hash of the
 * link before it (the first: 64 zeros), its chain key, and the `anchors`
 * against the links at their places. Says where the chain was first
 * altered, reordered or cut, and how (see {@link DecisionTrailBreak}).
 *
 * What the store alone cannot show: a chain cut at its end, or rewritten
 * from some link on with every later hash recomputed, by someone who can
 * write to the store. Keep a head outside it (the spans of `telemetry()`
 * carry every link's index and hash; a record's `trail` has them too) and
 * pass it as an anchor.
 *
 * @example
 * ```ts
 * const check = await verifyDecisionTrail({ trail, key: `chat:${chatId}` });
 * if (!check.valid) {
 *   const { index, problem, reason } = check.broken;
 *   log.error(`decision trail of chat ${chatId}: ${problem} at link ${index}: ${reason}`);
 * }
 * ```
 */
export async function verifyDecisionTrail(source: DecisionTrailSource): Promise<DecisionTrailCheck> {
  const entries = 'trail' in source ? await source.trail.entries(source.key) : source.links;
  const { key, anchors = [] } = source;
  const parsed = entries.map(parseLink);
  const links: DecisionTrailLink[] = [];
  const broken = (index: number, problem: DecisionTrailBreak['problem'], reason: string): DecisionTrailCheck => ({
    valid: false,
    links,
    broken: { index, problem, reason },
  });

  for (let position = 0; position < parsed.length; position++) {
    const link = parsed[position] as DecisionTrailLink | string;
    if (typeof link === 'string') return broken(position, 'altered', `The entry at ${position} is not a link: ${link}.`);
    if ((await linkHash(link)) !== link.hash) {
      return broken(position, 'altered', `Link ${position} was changed after it was written: its content no longer matches its hash.`);
    }
    if (key !== undefined && link.key !== key) {
      return broken(position, 'altered', `Link ${position} belongs to the chain "${link.key}", not "${key}".`);
    }
    const prev = position === 0 ? GENESIS : (links[position - 1] as DecisionTrailLink).hash;
    if (link.index === position && link.prev === prev) {
      links.push(link);
      continue;
    }
    return misplaced(parsed, position, link, broken);
  }

  for (const anchor of [...anchors].sort((a, b) => a.index - b.index)) {
    const link = links[anchor.index];
    if (link === undefined) {
      return broken(
        links.length,
        'cut',
        `The chain ends after ${links.length} links, but link ${anchor.index} was written (hash ${anchor.hash}).`,
      );
    }
    if (link.hash !== anchor.hash) {
      return broken(
        anchor.index,
        'altered',
        `Link ${anchor.index} is not the link written there (hash ${anchor.hash}): the chain was rewritten at or before it, with its hashes recomputed.`,
      );
    }
  }
  const last = links.at(-1);
  return { valid: true, links, head: last === undefined ? undefined : { index: last.index, hash: last.hash } };
}

/** What a link that is not where it belongs says about the chain. */
function misplaced(
  parsed: ReadonlyArray<DecisionTrailLink | string>,
  position: number,
  link: DecisionTrailLink,
  broken: (index: number, problem: DecisionTrailBreak['problem'], reason: string) => DecisionTrailCheck,
): DecisionTrailCheck {
  const indexAt = (at: number) => {
    const other = parsed[at];
    return typeof other === 'string' ? undefined : other?.index;
  };
  if (link.index === position) {
    // in its place, but chained to another link than the one before it
    if (position === 0) return broken(0, 'altered', 'Link 0 does not start the chain: its previous hash is not 64 zeros.');
    return broken(
      position - 1,
      'altered',
      `Link ${position - 1} is not the link that link ${position} was chained to: it was replaced, or changed with its hash recomputed.`,
    );
  }
  if (link.index < position) {
    const twin = parsed.findIndex((other, at) => at < position && typeof other !== 'string' && other.index === link.index);
    if (twin !== -1 && (parsed[twin] as DecisionTrailLink).hash === link.hash) {
      return broken(position, 'altered', `Link ${link.index} appears twice (at ${twin} and ${position}).`);
    }
    if (twin !== -1) {
      return broken(
        twin,
        'altered',
        `Two links claim index ${link.index} (at ${twin} and ${position}): one was inserted, or the chain was written twice from there.`,
      );
    }
    return broken(position, 'reordered', `Link ${link.index} is at ${position}: it was moved after links that followed it.`);
  }
  // link.index > position: the links it follows are later in the chain (moved), or missing (cut)
  for (let at = position + 1; at < parsed.length; at++) {
    const index = indexAt(at);
    if (index !== undefined && index >= position && index < link.index) {
      return broken(position, 'reordered', `Link ${link.index} is at ${position}, before link ${index} (at ${at}) that it follows.`);
    }
  }
  const missing = link.index - position === 1 ? `link ${position} is` : `links ${position} to ${link.index - 1} are`;
  return broken(position, 'cut', `The chain is cut before link ${link.index}: ${missing} missing.`);
}
