import { describe, expect, it } from 'vitest';
import { CSV_MAX_FIELDS, CsvReader, decodeCsv, isBlank } from './csv.js';

const all = (text: string) => {
  const reader = new CsvReader(text);
  const records = [];
  for (let record = reader.next(); record !== undefined; record = reader.next()) records.push(record);
  return records;
};

describe('CSV reading (RFC 4180)', () => {
  it('reads quoted fields with commas, line breaks and doubled quotes, over CRLF, LF and CR', () => {
    const records = all('a,b,c\r\n"x, y","say ""hi""","two\nlines"\n1,,3\r4,5,6');
    expect(records.map((r) => r.fields)).toEqual([['a', 'b', 'c'], ['x, y', 'say "hi"', 'two\nlines'], ['1', '', '3'], ['4', '5', '6']]);
    expect(records.map((r) => r.row)).toEqual([1, 2, 3, 4]);
    expect(records.every((r) => !r.unterminated)).toBe(true);
  });

  it('counts blank lines as rows, ends without a trailing record, and flags a quote left open', () => {
    expect(all('a\n\nb\n').map((r) => [r.row, r.fields])).toEqual([[1, ['a']], [2, ['']], [3, ['b']]]);
    const open = all('a,b\n"never closed,x\ny,z');
    expect(open[1]).toEqual({ fields: ['never closed,x\ny,z'], width: 1, row: 2, unterminated: true, blank: false });
    expect(all('')).toEqual([]);
    expect(all('"",x\n')[0]!.fields).toEqual(['', 'x']);
  });

  it('takes a record of empty or space-only cells as blank, and still counts its row', () => {
    const records = all('a,b\n,,,,,,,\n   \n" ", \t\n\n1,\n');
    expect(records.map((r) => [r.row, isBlank(r)])).toEqual([[1, false], [2, true], [3, true], [4, true], [5, true], [6, false]]);
  });

  it('keeps at most CSV_MAX_FIELDS fields of a record and tells its real width', () => {
    const wide = all(`${','.repeat(CSV_MAX_FIELDS + 9)}x\nnext`);
    expect([wide[0]!.fields.length, wide[0]!.width, wide[0]!.blank]).toEqual([CSV_MAX_FIELDS, CSV_MAX_FIELDS + 10, false]);
    expect(wide[1]).toMatchObject({ fields: ['next'], row: 2 });
    expect(all(','.repeat(CSV_MAX_FIELDS * 2))[0]).toMatchObject({ width: CSV_MAX_FIELDS * 2 + 1, blank: true });
  });

  // How fast these read is a benchmark's business (pnpm bench), never a timed unit test: this checks what they read.
  it('reads a field of doubled quotes and a line of commas filling a whole file', () => {
    const pairs = 8_000_000; // 16 MB, the most a file may be
    const [quoted] = all(`"${'""'.repeat(pairs)}",x\n`);
    const [commas] = all(','.repeat(2 * pairs));
    expect([quoted!.fields[0]!.length, quoted!.fields[0]!.replaceAll('"', ''), quoted!.fields[1]]).toEqual([pairs, '', 'x']);
    expect([commas!.fields.length, commas!.width]).toEqual([CSV_MAX_FIELDS, 2 * pairs + 1]);
    // Few doubled quotes, an unclosed field ending in one: each is one quote.
    expect(all('"a""b""c","""",x')[0]!.fields).toEqual(['a"b"c', '"', 'x']);
    expect(all('"ab""')[0]).toMatchObject({ fields: ['ab"'], unterminated: true });
  });

  it('goes on from where a previous reader stopped', () => {
    const first = new CsvReader('h\n1\n2\n3\n');
    first.next();
    first.next();
    const resumed = new CsvReader('h\n1\n2\n3\n', first.position, first.rows);
    expect([resumed.next(), resumed.next(), resumed.next()].map((r) => r && [r.row, r.fields[0]])).toEqual([[3, '2'], [4, '3'], undefined]);
    expect(resumed.done).toBe(true);
  });

  it('decodes UTF-8 without its byte-order mark, and refuses other bytes', () => {
    expect(decodeCsv(new Uint8Array([0xef, 0xbb, 0xbf, 0x41, 0xc3, 0xa9]))).toBe('Aé');
    expect(decodeCsv(new Uint8Array([0x41, 0xe9, 0x42]))).toBeUndefined();
  });
});
