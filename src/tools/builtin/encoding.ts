// How a text file is stored (UTF-8 or UTF-16, a byte order mark, line ends), so that Edit and Write
// change only what they were asked to change. Decoding a Latin-1 file as UTF-8 and writing the
// string back turns every byte that is not UTF-8 into U+FFFD: a silent loss of data. Edit instead
// replaces bytes (the UTF-8 encoding of old_string by that of new_string) and leaves every other
// byte as it was; where that cannot be lossless, it refuses and says why.
import { isUtf8 } from 'node:buffer';

export type TextEncoding = 'utf8' | 'utf16le' | 'utf16be';

export interface TextForm {
  encoding: TextEncoding;
  /** The file starts with a byte order mark. */
  bom: boolean;
  /** For UTF-8: every byte is part of valid UTF-8 (false: Latin-1, Windows-1252, binary…). */
  valid: boolean;
  /** Every line ends with \r\n (and there is at least one). */
  crlf: boolean;
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The UTF-16 encoding a byte order mark announces, if the bytes start with one. */
export function utf16Bom(head: Uint8Array): 'utf16le' | 'utf16be' | undefined {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf16be';
  return undefined;
}

/** Swaps each pair of bytes (UTF-16BE ↔ LE); Node decodes only the little-endian form. */
function swapped(bytes: Uint8Array): Buffer {
  const out = Buffer.from(bytes);
  out.swap16();
  return out;
}

/** The text of a UTF-16 file with a byte order mark, the mark left out. */
export function decodeUtf16(bytes: Buffer): string {
  const enc = utf16Bom(bytes);
  const body = bytes.subarray(2, 2 + ((bytes.length - 2) & ~1));
  return enc === 'utf16be' ? swapped(body).toString('utf16le') : body.toString('utf16le');
}

function hasOnlyCrlf(text: string): boolean {
  let lf = 0;
  for (let k = text.indexOf('\n'); k >= 0; k = text.indexOf('\n', k + 1)) {
    if (text[k - 1] !== '\r') return false;
    lf++;
  }
  return lf > 0;
}

export function describeText(bytes: Buffer): TextForm {
  const u16 = utf16Bom(bytes);
  if (u16) return { encoding: u16, bom: true, valid: true, crlf: hasOnlyCrlf(decodeUtf16(bytes)) };
  const bom = bytes.subarray(0, 3).equals(UTF8_BOM);
  return { encoding: 'utf8', bom, valid: isUtf8(bytes), crlf: hasOnlyCrlf(bytes.toString('latin1')) };
}

/** The text for showing (invalid UTF-8 bytes appear as U+FFFD there, and only there). */
export function decodeText(bytes: Buffer, form: TextForm): string {
  if (form.encoding !== 'utf8') return decodeUtf16(bytes);
  return (form.bom ? bytes.subarray(3) : bytes).toString('utf8');
}

/** `text` stored the way `form` says (the mark put back); UTF-8 text is written as is. */
export function encodeText(text: string, form: TextForm): Buffer {
  if (form.encoding === 'utf8') {
    const body = Buffer.from(text, 'utf8');
    return form.bom && !text.startsWith('\uFEFF') ? Buffer.concat([UTF8_BOM, body]) : body;
  }
  const le = Buffer.from(`\uFEFF${text.replace(/^\uFEFF/, '')}`, 'utf16le');
  return form.encoding === 'utf16be' ? swapped(le) : le;
}

// eslint-disable-next-line no-control-regex
export const hasNonAscii = (s: string): boolean => /[^\x00-\x7f]/.test(s);

/** Start offsets of every non-overlapping occurrence of `needle` in `hay`, from `from` on. */
export function findAllBytes(hay: Buffer, needle: Buffer, from = 0): number[] {
  const at: number[] = [];
  if (needle.length === 0) return at;
  for (let k = hay.indexOf(needle, from); k >= 0; k = hay.indexOf(needle, k + needle.length)) at.push(k);
  return at;
}

/** `hay` with `needle` replaced by `by` at the given offsets (in order, not overlapping). */
export function spliceBytes(hay: Buffer, at: readonly number[], needleLength: number, by: Buffer): Buffer {
  const parts: Buffer[] = [];
  let from = 0;
  for (const k of at) {
    parts.push(hay.subarray(from, k), by);
    from = k + needleLength;
  }
  parts.push(hay.subarray(from));
  return Buffer.concat(parts);
}

/** A file's lines ended the Windows way and a text written with \n only: the text the file's way. */
export function withLineEnds(text: string, form: TextForm): string {
  return form.crlf && text.includes('\n') && !text.includes('\r') ? text.replace(/\n/g, '\r\n') : text;
}
