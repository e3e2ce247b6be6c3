// Reading CSV (RFC 4180): fields separated by commas, records by CRLF or LF; a field in double quotes may hold commas,
// line breaks and quotes (written twice). Read one record at a time from a position, so a job can stop after a chunk
// of rows and go on later from where it stopped.

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;

/** One record of a CSV text. */
export interface CsvRecord {
  readonly fields: string[];
  /** Its number in the file, the first record (the header) being 1; blank lines count, as a spreadsheet shows them. */
  readonly row: number;
  /** True when a quoted field was still open at the end of the text: the rest of the file went into it. */
  readonly unterminated: boolean;
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

  /** The next record, or undefined at the end of the text. A blank line is a record of one empty field. */
  next(): CsvRecord | undefined {
    const { text } = this;
    if (this.position >= text.length) return undefined;
    const fields: string[] = [];
    let at = this.position;
    let unterminated = false;
    for (;;) {
      let value: string;
      if (text.charCodeAt(at) === QUOTE) {
        // A quoted field: up to the quote that is not doubled. Text after the closing quote (not RFC 4180) is kept.
        let parts = '';
        let from = at + 1;
        for (;;) {
          const close = text.indexOf('"', from);
          if (close === -1) {
            parts += text.slice(from);
            at = text.length;
            unterminated = true;
            break;
          }
          parts += text.slice(from, close);
          if (text.charCodeAt(close + 1) === QUOTE) {
            parts += '"';
            from = close + 2;
            continue;
          }
          at = close + 1;
          break;
        }
        const end = fieldEnd(text, at);
        value = end > at ? parts + text.slice(at, end) : parts;
        at = end;
      } else {
        const end = fieldEnd(text, at);
        value = text.slice(at, end);
        at = end;
      }
      fields.push(value);
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
    return { fields, row: this.rows, unterminated };
  }
}

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

/** Whether a record is a blank line (one empty field), which holds no row. */
export const isBlank = (record: CsvRecord): boolean => record.fields.length === 1 && record.fields[0] === '';

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
