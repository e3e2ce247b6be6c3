// Reading CSV (RFC 4180): fields separated by commas, records by CRLF or LF; a field in double quotes may hold commas,
// line breaks and quotes (written twice). Read one record at a time from a position, so a job can stop after a chunk
// of rows and go on later from where it stopped.

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;

/** Most fields a record keeps: the cells of a row, the columns of the header. A wider record is read past, not kept. */
export const CSV_MAX_FIELDS = 1_000;

/** One record of a CSV text. */
export interface CsvRecord {
  /** Its first {@link CSV_MAX_FIELDS} fields. */
  readonly fields: string[];
  /** How many fields it has in the file: more than `fields` holds when it is wider than {@link CSV_MAX_FIELDS}. */
  readonly width: number;
  /** Its number in the file, the first record (the header) being 1; blank lines count, as a spreadsheet shows them. */
  readonly row: number;
  /** True when a quoted field was still open at the end of the text: the rest of the file went into it. */
  readonly unterminated: boolean;
  /** True when every field is empty or spaces: a blank line, or a row of empty cells as spreadsheets export them. */
  readonly blank: boolean;
}

/** Reads the records of a CSV text in order, from any position a previous reader reached. */
export class CsvReader {
  /**
   * @param text the whole CSV text (a byte-order mark already removed).
   * @param position where the next record starts.
   * @param rows how many records were read before `position`.
   */
  constructor(private readonly text: string, public position = 0, public rows = 0) {}

  /** Whether every record was read. */
  get done(): boolean {
    return this.position >= this.text.length;
  }

  /**
   * The next record, or undefined at the end of the text. A blank line is a record of one empty field. Linear in the
   * record's length: a quoted field is one slice, its doubled quotes replaced at once.
   */
  next(): CsvRecord | undefined {
    const { text } = this;
    if (this.position >= text.length) return undefined;
    const fields: string[] = [];
    let width = 0;
    let blank = true;
    let at = this.position;
    let unterminated = false;
    for (;;) {
      let value: string;
      if (text.charCodeAt(at) === QUOTE) {
        // A quoted field: up to the quote that is not doubled. Text after the closing quote (not RFC 4180) is kept.
        const start = at + 1;
        let close = text.indexOf('"', start);
        let doubled = 0;
        while (close !== -1 && text.charCodeAt(close + 1) === QUOTE) {
          doubled++;
          close = text.indexOf('"', close + 2);
        }
        const inner = close === -1 ? text.slice(start) : text.slice(start, close);
        const quoted = doubled === 0 ? inner : undoubleQuotes(inner, doubled);
        if (close === -1) unterminated = true;
        at = close === -1 ? text.length : close + 1;
        const end = fieldEnd(text, at);
        value = end > at ? quoted + text.slice(at, end) : quoted;
        at = end;
      } else {
        const end = fieldEnd(text, at);
        value = text.slice(at, end);
        at = end;
      }
      width++;
      if (fields.length < CSV_MAX_FIELDS) fields.push(value);
      if (blank && NOT_SPACE.test(value)) blank = false;
      const code = text.charCodeAt(at);
      if (code === COMMA) {
        at++;
        continue;
      }
      // End of the record: CRLF, LF, a lone CR, or the end of the text.
      if (code === CR) at += text.charCodeAt(at + 1) === LF ? 2 : 1;
      else if (code === LF) at++;
      break;
    }
    this.position = at;
    this.rows++;
    return { fields, width, row: this.rows, unterminated, blank };
  }
}

/** Above this many doubled quotes in a field, they are undone by copying characters: `replaceAll` costs per match. */
const MANY_DOUBLED_QUOTES = 1_024;
/** UTF-16 code units as this machine stores them in a Uint16Array. */
const UTF16 = new TextDecoder(new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 'utf-16le' : 'utf-16be');

/**
 * `text` (the inside of a quoted field) with each `""` made one `"`; linear however many there are. Dropping quotes
 * never splits a surrogate pair, so the code units decode back to the same characters.
 */
function undoubleQuotes(text: string, doubled: number): string {
  if (doubled <= MANY_DOUBLED_QUOTES) return text.replaceAll('""', '"');
  const units = new Uint16Array(text.length - doubled);
  let length = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    units[length++] = code;
    if (code === QUOTE) at++;
  }
  return UTF16.decode(units.subarray(0, length));
}

/** A character `String.prototype.trim` would keep (the same white space and line terminators as `\s`). */
const NOT_SPACE = /\S/;

/** Where an unquoted field starting at `from` ends: the next comma, line break, or the end of the text. */
function fieldEnd(text: string, from: number): number {
  let at = from;
  const length = text.length;
  while (at < length) {
    const code = text.charCodeAt(at);
    if (code === COMMA || code === LF || code === CR) return at;
    at++;
  }
  return at;
}

/** Whether a record holds no row: a blank line, a line of spaces, or cells that are all empty or spaces. */
export const isBlank = (record: CsvRecord): boolean => record.blank;

/**
 * The text of CSV bytes: UTF-8, a leading byte-order mark dropped; undefined when the bytes are not valid UTF-8.
 */
export function decodeCsv(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
