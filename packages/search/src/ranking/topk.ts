/**
 * Top-k BM25 over a {@link PostingsCache} that scores only entries that can still enter the
 * top k: document-at-a-time block-max MaxScore.
 *
 * - The query's lists are ordered by their score bound (ascending). While the k-th best score θ
 *   is at least the sum of the smallest bounds, those lists are "non-essential": an entry found
 *   only in them cannot beat θ, so candidates come from the other lists only, and a
 *   non-essential list is probed (galloping search) only while the entry can still beat θ.
 * - Per block of 128 postings the cache keeps the largest field mask and the shortest entry;
 *   when the bounds of the current blocks of the essential lists at the candidate cannot beat
 *   θ, every entry up to the end of the nearest such block (or up to the next cursor of another
 *   list) is skipped unscored. This is what makes a term present in
 *   nearly every entry (idf at its 1e-6 floor, e.g. `py`) cheap: it still counts, with its
 *   true (tiny) score, but its blocks are skipped once k entries beat them.
 *
 * Exactness: entries are visited in ascending docId and ties go to the smaller docId, so an
 * entry equal to θ can never enter; a bound and a score are sums over the lists in the same
 * order of terms that are each ≥ the score's (floating-point addition and `tfPart` are
 * monotone), so a bound ≤ θ proves the entry cannot enter. The result is the exhaustive top k
 * (same scores; among equal scores the earlier-written entry).
 *
 * @module search/ranking/topk
 */
import { idf, tfPart, weightOf } from "./bm25.js";
import { BLOCK, blockMaskOf, blockMinLenOf, type PostingsCache, type TermList } from "./postings.js";

/** Field weights and filters of one ranking. */
export interface RankQuery {
  readonly k: number;
  readonly summaryWeight: number;
  readonly contentWeight: number;
  /** Namespace id to keep (-1: none matches; undefined: every namespace). */
  readonly namespace?: number;
  /** Kind ids to keep (undefined: every kind). */
  readonly kinds?: ReadonlySet<number>;
}

/** One ranked entry. */
export interface Ranked {
  readonly doc: number;
  readonly score: number;
}

const SHIFT = Math.log2(BLOCK);

/** The exhaustive-equivalent top k of the distinct term ids, best first. */
export function topK<H>(cache: PostingsCache<H>, termIds: readonly number[], q: RankQuery): Ranked[] {
  const n = cache.live;
  if (n === 0 || q.namespace === -1) return [];
  const avgLen = cache.totalLen / n;
  const ws = q.summaryWeight;
  const wc = q.contentWeight;
  const chosen: { list: TermList; idf: number; ub: number }[] = [];
  for (const id of termIds) {
    const list = cache.list(id);
    if (list === undefined || list.df <= 0) continue;
    const w = idf(n, list.df);
    chosen.push({ list, idf: w, ub: w * tfPart(weightOf(list.orMask, ws, wc), list.minLen, avgLen) });
  }
  if (chosen.length === 0) return [];
  chosen.sort((a, b) => a.ub - b.ub);
  const m = chosen.length;
  const lists = chosen.map((c) => c.list);
  const idfs = Float64Array.from(chosen, (c) => c.idf);
  const ub = Float64Array.from(chosen, (c) => c.ub);
  // prefix[i] = ub[0] + … + ub[i-1], summed in list order.
  const prefix = new Float64Array(m + 1);
  for (let i = 0; i < m; i++) prefix[i + 1] = prefix[i]! + ub[i]!;
  const pos = new Int32Array(m);
  const curBlock = new Int32Array(m).fill(-1);
  const curBound = new Float64Array(m);
  const curLast = new Int32Array(m);
  const contrib = new Float64Array(m);
  const docLen = cache.docLen;
  const docLive = cache.docLive;
  const docNs = cache.docNs;
  const docKind = cache.docKind;
  const wantNs = q.namespace;
  const kinds = q.kinds;

  const k = q.k;
  const heapScore = new Float64Array(k);
  const heapDoc = new Int32Array(k);
  let size = 0;
  let theta = Number.NEGATIVE_INFINITY;
  let essential = 0; // lists [0, essential) are non-essential

  /** Heap order: the root is the worst (lowest score, then highest docId). */
  const worse = (i: number, j: number): boolean =>
    heapScore[i]! < heapScore[j]! || (heapScore[i] === heapScore[j] && heapDoc[i]! > heapDoc[j]!);
  const swap = (i: number, j: number): void => {
    const s = heapScore[i]!;
    heapScore[i] = heapScore[j]!;
    heapScore[j] = s;
    const d = heapDoc[i]!;
    heapDoc[i] = heapDoc[j]!;
    heapDoc[j] = d;
  };
  const push = (doc: number, score: number): void => {
    if (size < k) {
      let i = size++;
      heapScore[i] = score;
      heapDoc[i] = doc;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!worse(i, p)) break;
        swap(i, p);
        i = p;
      }
    } else {
      heapScore[0] = score;
      heapDoc[0] = doc;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let w = i;
        if (l < size && worse(l, w)) w = l;
        if (r < size && worse(r, w)) w = r;
        if (w === i) break;
        swap(i, w);
        i = w;
      }
    }
    if (size === k) {
      theta = heapScore[0]!;
      while (essential < m && prefix[essential + 1]! <= theta) essential++;
    }
  };

  /** Moves list i's cursor to its first posting with docId ≥ target (galloping). */
  const seek = (i: number, target: number): void => {
    const list = lists[i]!;
    const p = list.postings;
    const len = list.length;
    let lo = pos[i]!;
    if (lo >= len || p[lo]! >>> 2 >= target) return;
    let step = 1;
    let hi = lo + 1;
    while (hi < len && p[hi]! >>> 2 < target) {
      lo = hi;
      step *= 2;
      hi = lo + step;
    }
    if (hi > len) hi = len;
    // p[lo] < target; answer in (lo, hi]
    while (lo + 1 < hi) {
      const mid = (lo + hi) >>> 1;
      if (p[mid]! >>> 2 < target) lo = mid;
      else hi = mid;
    }
    pos[i] = hi;
  };

  for (;;) {
    if (essential >= m) break;
    // The candidate: the smallest current docId of the essential lists.
    let doc = 0x7fffffff;
    for (let i = essential; i < m; i++) {
      const pi = pos[i]!;
      if (pi < lists[i]!.length) {
        const d = lists[i]!.postings[pi]! >>> 2;
        if (d < doc) doc = d;
      }
    }
    if (doc === 0x7fffffff) break;
    if (size === k) {
      // Block-max bound of every entry from the candidate up to `boundary`: the end of the
      // nearest current block of a list at the candidate, or just before another list's cursor.
      let bound = prefix[essential]!;
      let boundary = 0x7fffffff;
      for (let i = essential; i < m; i++) {
        const list = lists[i]!;
        const pi = pos[i]!;
        if (pi >= list.length) {
          bound += 0;
          continue;
        }
        const c = list.postings[pi]! >>> 2;
        if (c !== doc) {
          // This list holds nothing before its cursor: no contribution up to c − 1.
          bound += 0;
          if (c - 1 < boundary) boundary = c - 1;
          continue;
        }
        const b = pi >> SHIFT;
        if (b !== curBlock[i]) {
          // Bounds of a block are computed once per query, when a cursor enters it.
          curBlock[i] = b;
          curBound[i] = idfs[i]! * tfPart(weightOf(blockMaskOf(list, pi), ws, wc), blockMinLenOf(list, pi), avgLen);
          curLast[i] = list.postings[Math.min(list.length, (b + 1) * BLOCK) - 1]! >>> 2;
        }
        bound += curBound[i]!;
        if (curLast[i]! < boundary) boundary = curLast[i]!;
      }
      if (bound <= theta) {
        for (let i = essential; i < m; i++) seek(i, boundary + 1);
        continue;
      }
    }
    // Score the candidate, unless it is dead or filtered out.
    const keep =
      docLive[doc] === 1 &&
      (wantNs === undefined || docNs[doc] === wantNs) &&
      (kinds === undefined || kinds.has(docKind[doc]!));
    const len = docLen[doc]!;
    let partial = 0;
    for (let i = essential; i < m; i++) {
      contrib[i] = 0;
      const list = lists[i]!;
      const pi = pos[i]!;
      if (pi < list.length && list.postings[pi]! >>> 2 === doc) {
        if (keep) {
          contrib[i] = idfs[i]! * tfPart(weightOf(list.postings[pi]! & 3, ws, wc), len, avgLen);
          partial += contrib[i]!;
        }
        pos[i] = pi + 1;
      }
    }
    if (!keep) continue;
    let viable = true;
    for (let i = essential - 1; i >= 0; i--) {
      contrib[i] = 0;
      // Even with every remaining non-essential list at its bound the entry cannot reach θ
      // (a safety margin of 1e-9 keeps this pre-check from ever cutting an exact tie).
      if (viable && (partial + prefix[i + 1]!) * (1 + 1e-9) < theta) viable = false;
      if (!viable) continue;
      seek(i, doc);
      const list = lists[i]!;
      const pi = pos[i]!;
      if (pi < list.length && list.postings[pi]! >>> 2 === doc) {
        contrib[i] = idfs[i]! * tfPart(weightOf(list.postings[pi]! & 3, ws, wc), len, avgLen);
        partial += contrib[i]!;
      }
    }
    if (!viable) continue;
    let score = 0;
    for (let i = 0; i < m; i++) score += contrib[i]!;
    if (size < k || score > theta) push(doc, score);
  }

  const out: Ranked[] = [];
  for (let i = 0; i < size; i++) out.push({ doc: heapDoc[i]!, score: heapScore[i]! });
  out.sort((a, b) => b.score - a.score || a.doc - b.doc);
  return out;
}

/** A ranked entry with the backend's handle. */
export interface RankedHandle<H> {
  readonly handle: H;
  readonly score: number;
}

/** Options of {@link rank}. */
export interface RankOptions {
  readonly k: number;
  readonly summaryWeight: number;
  /** @default 1 */
  readonly contentWeight?: number;
  readonly namespace?: string | undefined;
  /** An empty list matches nothing. */
  readonly kinds?: readonly string[] | undefined;
}

/**
 * The top `k` entries of the cache for the query terms (already tokenised, distinct), best
 * first, with their handles: see {@link topK}.
 *
 * @example
 * import { queryTerms } from "../query.js";
 * import { PostingsCache } from "./postings.js";
 * const cache = new PostingsCache<string>();
 * rank(cache, queryTerms("KeyError reader.py"), { k: 10, summaryWeight: 2, namespace: "run-1" })
 */
export function rank<H>(cache: PostingsCache<H>, terms: readonly string[], options: RankOptions): RankedHandle<H>[] {
  const ids: number[] = [];
  for (const t of terms) {
    const id = cache.termId(t);
    if (id >= 0 && !ids.includes(id)) ids.push(id);
  }
  if (ids.length === 0) return [];
  let kinds: Set<number> | undefined;
  if (options.kinds !== undefined) {
    kinds = new Set();
    for (const kind of options.kinds) {
      const id = cache.kindId(kind);
      if (id >= 0) kinds.add(id);
    }
    if (kinds.size === 0) return [];
  }
  const ranked = topK(cache, ids, {
    k: options.k,
    summaryWeight: options.summaryWeight,
    contentWeight: options.contentWeight ?? 1,
    ...(options.namespace === undefined ? {} : { namespace: cache.namespaceId(options.namespace) }),
    ...(kinds === undefined ? {} : { kinds }),
  });
  return ranked.map((r) => ({ handle: cache.handleOf(r.doc), score: r.score }));
}
