/**
 * The Go original's eviction order, defect included (GO-FINDINGS item 1): it sorts the segment
 * slice with Go's `sort.SliceStable` (insertion sort on blocks of 20, then SymMerge) and a
 * comparator `scores[i] < scores[j]` whose score array is indexed by ORIGINAL position while the
 * slice is permuted. The comparator therefore compares fixed positions, not the moved elements.
 *
 * A faithful transcription of the algorithm (our own code), so the retention benchmark can
 * measure what the stale order costs.
 */

/** Swap/less over positions of a slice, as Go's `lessSwap`. */
interface LessSwap {
  less(i: number, j: number): boolean;
  swap(i: number, j: number): void;
}

function insertionSort(d: LessSwap, a: number, b: number): void {
  for (let i = a + 1; i < b; i++) {
    for (let j = i; j > a && d.less(j, j - 1); j--) d.swap(j, j - 1);
  }
}

function swapRange(d: LessSwap, a: number, b: number, n: number): void {
  for (let i = 0; i < n; i++) d.swap(a + i, b + i);
}

function rotate(d: LessSwap, a: number, m: number, b: number): void {
  let i = m - a;
  let j = b - m;
  while (i !== j) {
    if (i > j) {
      swapRange(d, m - i, m, j);
      i -= j;
    } else {
      swapRange(d, m - i, m + j - i, i);
      j -= i;
    }
  }
  swapRange(d, m - i, m, i);
}

function symMerge(d: LessSwap, a: number, m: number, b: number): void {
  if (m - a === 1) {
    let i = m;
    let j = b;
    while (i < j) {
      const h = (i + j) >>> 1;
      if (d.less(h, a)) i = h + 1;
      else j = h;
    }
    for (let k = a; k < i - 1; k++) d.swap(k, k + 1);
    return;
  }
  if (b - m === 1) {
    let i = a;
    let j = m;
    while (i < j) {
      const h = (i + j) >>> 1;
      if (!d.less(m, h)) i = h + 1;
      else j = h;
    }
    for (let k = m; k > i; k--) d.swap(k, k - 1);
    return;
  }
  const mid = (a + b) >>> 1;
  const n = mid + m;
  let start: number;
  let r: number;
  if (m > mid) {
    start = n - b;
    r = mid;
  } else {
    start = a;
    r = m;
  }
  const p = n - 1;
  while (start < r) {
    const c = (start + r) >>> 1;
    if (!d.less(p - c, c)) start = c + 1;
    else r = c;
  }
  const end = n - start;
  if (start < m && m < end) rotate(d, start, m, end);
  if (a < start && start < mid) symMerge(d, a, start, mid);
  if (mid < end && end < b) symMerge(d, mid, end, b);
}

/** Go's `sort.Stable` over an abstract slice of length `n`. */
function goStable(d: LessSwap, n: number): void {
  let blockSize = 20;
  let a = 0;
  let b = blockSize;
  while (b <= n) {
    insertionSort(d, a, b);
    a = b;
    b += blockSize;
  }
  insertionSort(d, a, n);
  while (blockSize < n) {
    a = 0;
    b = 2 * blockSize;
    while (b <= n) {
      symMerge(d, a, a + blockSize, b);
      a = b;
      b += 2 * blockSize;
    }
    const m = a + blockSize;
    if (m < n) symMerge(d, a, m, n);
    blockSize *= 2;
  }
}

/**
 * The Go original's `Rank` order: `items` permuted by `sort.SliceStable` with the stale
 * comparator `scores[i] < scores[j]` (scores by original position). With a comparator that
 * read the moved elements' scores this would be a correct ascending stable sort; with the stale
 * one it is not.
 *
 * @example goStaleOrder(["fresh", "4h", "1h"], [1.25, 0.254, 0.5]) // ["4h", "fresh", "1h"]
 */
export function goStaleOrder<T>(items: readonly T[], scores: readonly number[]): T[] {
  const slice = [...items];
  goStable(
    {
      less: (i, j) => scores[i]! < scores[j]!,
      swap: (i, j) => {
        const t = slice[i]!;
        slice[i] = slice[j]!;
        slice[j] = t;
      },
    },
    slice.length,
  );
  return slice;
}

/**
 * Go's `sort.SliceStable` with a correct comparator (reads the moved elements' keys): used by the
 * tests to show the transcription sorts correctly when the comparator is not stale.
 */
export function goStableSort<T>(items: readonly T[], key: (item: T) => number): T[] {
  const slice = [...items];
  goStable(
    {
      less: (i, j) => key(slice[i]!) < key(slice[j]!),
      swap: (i, j) => {
        const t = slice[i]!;
        slice[i] = slice[j]!;
        slice[j] = t;
      },
    },
    slice.length,
  );
  return slice;
}
