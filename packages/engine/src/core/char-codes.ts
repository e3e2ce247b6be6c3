/**
 * The string of the first `length` character codes in `codes`, a list its caller keeps and writes again for each
 * string: one flat string at once, where adding characters one by one would make a string per step. For strings made
 * on every create and kept for ever (ids, account numbers).
 */
export function stringOfCodes(codes: number[], length: number): string {
  const capacity = Math.max(codes.length, length);
  codes.length = length;
  const text = String.fromCharCode.apply(null, codes);
  codes.length = capacity;
  return text;
}
