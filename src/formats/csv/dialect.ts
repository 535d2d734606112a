import Papa from 'papaparse';
import { maxOf } from '../../model/plain.js';

/** How a CSV file is written: encoding, line ends, delimiter, quote. */
export interface CsvDialect {
  encoding: 'utf-8' | 'utf-8-bom';
  /** False when some bytes were not valid UTF-8 (they were read as Latin-1). */
  validUtf8: boolean;
  lineEnding: 'LF' | 'CRLF' | 'CR' | 'mixed' | 'none';
  delimiter: string;
  /** `"` unless single quotes split the rows more consistently. */
  quoteChar: '"' | "'";
  /** How the delimiter was chosen. */
  delimiterReason: string;
  /** Other delimiters that split the rows as consistently (the choice was a guess). */
  delimiterRivals: string[];
}

export const DELIMITERS = [',', ';', '\t', '|'] as const;

export type EncodingProblem = 'utf16' | 'binary' | undefined;

/** Tells UTF-16 (with or without BOM) and binary content apart from text. */
export function encodingProblem(bytes: Uint8Array): EncodingProblem {
  if (bytes.byteLength >= 2) {
    if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
      return 'utf16';
  }
  const n = Math.min(bytes.byteLength, 64 * 1024);
  let nulEven = 0;
  let nulOdd = 0;
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i] as number;
    if (b === 0) {
      if (i % 2 === 0) nulEven += 1;
      else nulOdd += 1;
    } else if (b < 0x09 || (b > 0x0d && b < 0x20 && b !== 0x1b)) control += 1;
  }
  const half = n / 2;
  // Text in UTF-16 has a NUL beside nearly every ASCII character, all on one side.
  if (
    n >= 4 &&
    (nulOdd > half * 0.3 || nulEven > half * 0.3) &&
    Math.min(nulEven, nulOdd) < 0.05 * half
  )
    return 'utf16';
  if (nulEven + nulOdd > 0 || control > n * 0.01) return 'binary';
  return undefined;
}

/** Decodes bytes as UTF-8 (dropping a BOM); falls back to Latin-1 when they are not valid UTF-8. */
export function decodeText(bytes: Uint8Array): { text: string; bom: boolean; validUtf8: boolean } {
  const bom = bytes.byteLength >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(body), bom, validUtf8: true };
  } catch {
    return { text: new TextDecoder('latin1').decode(body), bom, validUtf8: false };
  }
}

/** Counts line endings in the first 64 KiB of text. */
export function detectLineEnding(text: string): CsvDialect['lineEnding'] {
  const n = Math.min(text.length, 64 * 1024);
  let crlf = 0;
  let lf = 0;
  let cr = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) {
        crlf += 1;
        i += 1;
      } else cr += 1;
    } else if (c === 10) lf += 1;
  }
  const kinds = [crlf > 0, lf > 0, cr > 0].filter(Boolean).length;
  if (kinds === 0) return 'none';
  if (kinds > 1) return 'mixed';
  return crlf > 0 ? 'CRLF' : lf > 0 ? 'LF' : 'CR';
}

/** The newline papaparse should split on for a line-ending kind. */
export function newlineOf(ending: CsvDialect['lineEnding']): '\n' | '\r\n' | '\r' {
  return ending === 'CRLF' ? '\r\n' : ending === 'CR' ? '\r' : '\n';
}

interface DelimiterScore {
  delimiter: string;
  quoteChar: '"' | "'";
  fields: number;
  consistency: number;
  /** Share of all rows (preamble included) with the mode's number of fields. */
  overall: number;
  /** The first row (the header, when there is one) has the mode's number of fields. */
  firstFits: boolean;
}

function score(
  sample: string,
  newline: string,
  delimiter: string,
  quoteChar: '"' | "'",
): DelimiterScore {
  const body = bodyWidths(sample, newline, delimiter, quoteChar);
  const counts = new Map<number, number>();
  for (const w of body) counts.set(w, (counts.get(w) ?? 0) + 1);
  let fields = 1;
  let best = 0;
  for (const [len, c] of counts) {
    if (c > best || (c === best && len > fields)) {
      fields = len;
      best = c;
    }
  }
  // Leading rows with other counts are a preamble: judge consistency from the first row of the mode on.
  const start = body.indexOf(fields);
  const tail = start < 0 ? [] : body.slice(start);
  const same = tail.filter((w) => w === fields).length;
  const all = body.filter((w) => w === fields).length;
  return {
    delimiter,
    quoteChar,
    fields,
    consistency: tail.length === 0 ? 0 : same / tail.length,
    overall: body.length === 0 ? 0 : all / body.length,
    firstFits: body[0] === fields,
  };
}

/** Rows of the sample a delimiter is judged on: the first 200, less blank and `#` ones. */
const SCORED_ROWS = 200;

/**
 * The number of fields of each of the sample's first SCORED_ROWS rows, blank rows and
 * comments (`#`) left out. A sample without the quote character, for one of DELIMITERS, is
 * split as papaparse's fast mode splits it (on the newline, then on the delimiter), its
 * fields counted, not made: a small file's inspection spent a tenth of its time in making
 * them (bench/many-files).
 */
export function bodyWidths(
  sample: string,
  newline: string,
  delimiter: string,
  quoteChar: '"' | "'",
): number[] {
  // Another delimiter (given) goes through papaparse, which refuses some (a line end).
  const known = (DELIMITERS as readonly string[]).includes(delimiter);
  if (!known || sample.includes(quoteChar)) {
    const parsed = Papa.parse<string[]>(sample, {
      delimiter,
      newline: newline as '\n',
      quoteChar,
      preview: SCORED_ROWS,
    });
    return parsed.data
      .filter((r) => !(r.length === 1 && (r[0] ?? '').trim() === ''))
      .filter((r) => !(r[0] ?? '').startsWith('#'))
      .map((r) => r.length);
  }
  const out: number[] = [];
  let from = 0;
  for (let row = 0; row < SCORED_ROWS && from <= sample.length; row++) {
    const nl = sample.indexOf(newline, from);
    const end = nl < 0 ? sample.length : nl;
    const line = sample.slice(from, end);
    from = nl < 0 ? sample.length + 1 : nl + newline.length;
    const first = line.indexOf(delimiter);
    let fields = 1;
    for (let i = first; i >= 0; i = line.indexOf(delimiter, i + 1)) fields += 1;
    if (fields === 1 && line.trim() === '') continue;
    // A comment's first field starts with `#`: none of DELIMITERS is `#`.
    if (line.startsWith('#')) continue;
    out.push(fields);
  }
  return out;
}

/**
 * Chooses the delimiter among `, ; \t |` (or among those given) and the quote character:
 * the pair that splits the sample's rows into the same number (> 1) of fields most
 * consistently; among equally consistent ones, the one giving more fields. `"` is the quote
 * unless `'` does strictly better. Lines starting with `#` (comments) are left out.
 */
export function detectDelimiter(
  sample: string,
  newline: string,
  candidates: readonly string[] = DELIMITERS,
): { delimiter: string; quoteChar: '"' | "'"; reason: string; rivals: string[] } {
  const scores: DelimiterScore[] = [];
  const singleQuotes = sample.includes("'");
  for (const delimiter of candidates) {
    // A delimiter the sample lacks leaves every row one field: never usable below, so not
    // parsed for (a parse of the sample a candidate and quote was most of a small file's
    // inspection: bench/many-files).
    if (!sample.includes(delimiter)) continue;
    const dq = score(sample, newline, delimiter, '"');
    const sq = singleQuotes ? score(sample, newline, delimiter, "'") : undefined;
    const better =
      sq !== undefined &&
      sq.fields > 1 &&
      sq.consistency >= dq.consistency &&
      sq.overall > dq.overall;
    scores.push(better ? sq : dq);
  }
  const usable = scores.filter((s) => s.fields > 1 && s.consistency > 0.5);
  if (usable.length === 0) {
    return {
      delimiter: candidates[0] ?? ',',
      quoteChar: '"',
      reason: 'no delimiter splits the rows into more than one field: one column',
      rivals: [],
    };
  }
  // Consistency from the table's start first; then whether the first row (the header)
  // splits as the rows do (a header that splits on `,` while its cells hold `;` says `,`;
  // `time;temp` above `…;20,1` says `;`); then the share of all rows; then more fields.
  const top = maxOf(usable.map((s) => s.consistency));
  const consistent = usable.filter((s) => s.consistency >= top - 0.02);
  const headed = consistent.some((s) => s.firstFits)
    ? consistent.filter((s) => s.firstFits)
    : consistent;
  const topOverall = maxOf(headed.map((s) => s.overall));
  const near = headed.filter((s) => s.overall >= topOverall - 0.02);
  near.sort((a, b) => b.fields - a.fields);
  const chosen = near[0] as DelimiterScore;
  const name = (d: string) => (d === '\t' ? 'tab' : `'${d}'`);
  const quote = chosen.quoteChar === "'" ? `, quoted with '` : '';
  return {
    delimiter: chosen.delimiter,
    quoteChar: chosen.quoteChar,
    reason: `${name(chosen.delimiter)} splits ${(chosen.consistency * 100).toFixed(0)}% of the sampled rows into ${chosen.fields} fields${quote}`,
    rivals: near.slice(1).map((s) => s.delimiter),
  };
}
