/**
 * A collection's records by sequence number, in chunks of {@link CHUNK} records. A plain array copies all of itself
 * when it outgrows its capacity: at a million records one insert paid tens of milliseconds for it, and several
 * collections of the same size (customers, their accounts, their events) outgrew theirs on the same request.
 */
export class Slots<T> {
  /** Sequence numbers start at 1: slot 0 is never a record's. */
  private readonly chunks: (T | undefined)[][] = [[undefined]];
  private count = 1;

  /** One past the highest sequence number given out. */
  get length(): number {
    return this.count;
  }

  at(seq: number): T | undefined {
    return this.chunks[seq >>> CHUNK_BITS]?.[seq & (CHUNK - 1)];
  }

  /** Replaces the record of a sequence number already given out (`undefined` for a deleted one). */
  set(seq: number, value: T | undefined): void {
    this.chunks[seq >>> CHUNK_BITS]![seq & (CHUNK - 1)] = value;
  }

  /** Stores `value` under the next sequence number, and returns that number. */
  push(value: T | undefined): number {
    const seq = this.count++;
    const chunk = this.chunks[seq >>> CHUNK_BITS];
    if (chunk) chunk.push(value);
    else this.chunks.push([value]);
    return seq;
  }

  /**
   * Calls `visit` with every record and its sequence number, in sequence order, deleted slots left out. A plain loop,
   * not a generator: a restore rebuilds every index with it, first in code that has not been optimized yet, where a
   * generator's every step costs several times a loop's.
   */
  forEach(visit: (value: T, seq: number) => void): void {
    this.scan((value, seq) => {
      visit(value, seq);
      return false;
    });
  }

  /** The sequence number of the first record `matches`, if any. */
  findSeq(matches: (value: T) => boolean): number | undefined {
    return this.scan(matches);
  }

  /** Visits the records in sequence order until `stop` says so; returns the sequence number it stopped at. */
  private scan(stop: (value: T, seq: number) => boolean): number | undefined {
    for (let c = 0; c < this.chunks.length; c++) {
      const chunk = this.chunks[c]!;
      for (let i = 0; i < chunk.length; i++) {
        const value = chunk[i];
        if (value !== undefined && stop(value, c * CHUNK + i)) return c * CHUNK + i;
      }
    }
    return undefined;
  }

  *values(): Generator<T> {
    for (const chunk of this.chunks) for (const value of chunk) if (value !== undefined) yield value;
  }
}

const CHUNK_BITS = 14;
/** Records per chunk: a chunk grows as an array does, up to 128 KB of pointers, and is never copied after. */
export const CHUNK = 1 << CHUNK_BITS;
