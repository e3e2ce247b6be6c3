/**
 * A sorted set of sequence numbers, kept in chunks (like a B-tree with one level), so that appending is O(1), inserting
 * or removing anywhere is O(log N + chunk), and finding a position by value or counting the values below one is
 * O(log N). Collections use one for their insertion order and one per index key: a list reads only its page.
 */
const CHUNK = 512;

/** A position in a {@link SeqList}: chunk and offset. */
interface Cursor {
  chunk: number;
  offset: number;
}

export class SeqList {
  private chunks: number[][] = [];
  /** How many values the chunks before each chunk hold; rebuilt on the first count after a change. */
  private before: number[] | undefined;
  private count = 0;

  get size(): number {
    return this.count;
  }

  get first(): number | undefined {
    return this.chunks[0]?.[0];
  }

  get last(): number | undefined {
    const chunk = this.chunks[this.chunks.length - 1];
    return chunk?.[chunk.length - 1];
  }

  add(value: number): void {
    const last = this.chunks.length - 1;
    if (last < 0 || value > this.last!) {
      // Appending, the common case: sequence numbers only grow.
      if (last < 0 || this.chunks[last]!.length >= CHUNK) this.chunks.push([value]);
      else this.chunks[last]!.push(value);
    } else {
      const chunkIndex = this.chunkOf(value);
      const chunk = this.chunks[chunkIndex]!;
      const offset = lowerBound(chunk, value);
      if (chunk[offset] === value) return;
      chunk.splice(offset, 0, value);
      if (chunk.length > 2 * CHUNK) this.chunks.splice(chunkIndex + 1, 0, chunk.splice(CHUNK));
    }
    this.count++;
    this.before = undefined;
  }

  delete(value: number): boolean {
    const chunkIndex = this.chunkOf(value);
    const chunk = this.chunks[chunkIndex];
    if (!chunk) return false;
    const offset = lowerBound(chunk, value);
    if (chunk[offset] !== value) return false;
    chunk.splice(offset, 1);
    if (chunk.length === 0) this.chunks.splice(chunkIndex, 1);
    this.count--;
    this.before = undefined;
    return true;
  }

  has(value: number): boolean {
    const chunk = this.chunks[this.chunkOf(value)];
    return chunk !== undefined && chunk[lowerBound(chunk, value)] === value;
  }

  /** How many values are smaller than `value`. */
  rank(value: number): number {
    const chunkIndex = this.chunkOf(value);
    if (chunkIndex >= this.chunks.length) return this.count;
    return this.prefix()[chunkIndex]! + lowerBound(this.chunks[chunkIndex]!, value);
  }

  /** The value at `rank` (0 is the smallest); `rank` must be below {@link SeqList.size}. */
  at(rank: number): number {
    const before = this.prefix();
    // The last chunk that starts at or before `rank`.
    let low = 0;
    let high = before.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if (before[mid]! <= rank) low = mid;
      else high = mid - 1;
    }
    return this.chunks[low]![rank - before[low]!]!;
  }

  /** How many values lie in `[from, to]` (inclusive). */
  countBetween(from: number, to: number): number {
    return to < from ? 0 : this.rank(to + 1) - this.rank(from);
  }

  /**
   * The values of `[from, to]` (inclusive), ascending or descending. The walk reads only what the caller takes, so a
   * page costs O(log N + page).
   */
  *between(from: number, to: number, descending: boolean): Generator<number> {
    if (to < from || this.count === 0) return;
    if (descending) {
      const start = this.positionOf(to + 1);
      // Step back from the first value above `to`.
      let chunk = start.chunk;
      let offset = start.offset - 1;
      for (;;) {
        if (offset < 0) {
          chunk--;
          if (chunk < 0) return;
          offset = this.chunks[chunk]!.length - 1;
        }
        const value = this.chunks[chunk]![offset]!;
        if (value < from) return;
        yield value;
        offset--;
      }
    } else {
      const start = this.positionOf(from);
      let chunk = start.chunk;
      let offset = start.offset;
      for (;;) {
        if (chunk >= this.chunks.length) return;
        if (offset >= this.chunks[chunk]!.length) {
          chunk++;
          offset = 0;
          continue;
        }
        const value = this.chunks[chunk]![offset]!;
        if (value > to) return;
        yield value;
        offset++;
      }
    }
  }

  /** The position of the first value ≥ `value`. */
  private positionOf(value: number): Cursor {
    const chunk = this.chunkOf(value);
    if (chunk >= this.chunks.length) return { chunk: this.chunks.length, offset: 0 };
    return { chunk, offset: lowerBound(this.chunks[chunk]!, value) };
  }

  /** The first chunk whose largest value is ≥ `value` (the chunk count when there is none). */
  private chunkOf(value: number): number {
    const chunks = this.chunks;
    let low = 0;
    let high = chunks.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const chunk = chunks[mid]!;
      if (chunk[chunk.length - 1]! < value) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private prefix(): number[] {
    if (!this.before) {
      const before = new Array<number>(this.chunks.length);
      let sum = 0;
      for (let i = 0; i < this.chunks.length; i++) {
        before[i] = sum;
        sum += this.chunks[i]!.length;
      }
      this.before = before;
    }
    return this.before;
  }
}

/** The first index of the sorted `values` whose value is ≥ `value`. */
export function lowerBound(values: readonly number[], value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (values[mid]! < value) low = mid + 1;
    else high = mid;
  }
  return low;
}
