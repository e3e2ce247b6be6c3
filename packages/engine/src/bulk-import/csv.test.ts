import { describe, expect, it } from 'vitest';
import { CsvReader, decodeCsv } from './csv.js';

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
    expect(open[1]).toEqual({ fields: ['never closed,x\ny,z'], row: 2, unterminated: true });
    expect(all('')).toEqual([]);
    expect(all('"",x\n')[0]!.fields).toEqual(['', 'x']);
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
