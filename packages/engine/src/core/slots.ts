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

  /** Every record with its sequence number, in sequence order, deleted slots left out. */
  *entries(): Generator<[number, T]> {
    for (const [c, chunk] of this.chunks.entries()) {
      for (let i = 0; i < chunk.length; i++) {
        const value = chunk[i];
        if (value !== undefined) yield [c * CHUNK + i, value];
      }
    }
  }

  *values(): Generator<T> {
    for (const chunk of this.chunks) for (const value of chunk) if (value !== undefined) yield value;
  }
}

const CHUNK_BITS = 14;
/** Records per chunk: a chunk grows as an array does, up to 128 KB of pointers, and is never copied after. */
export const CHUNK = 1 << CHUNK_BITS;
