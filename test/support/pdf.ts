import { createHash } from 'node:crypto';

/**
 * Tiny PDFs written by hand for tests, so no binary fixture is checked in and every page's text is
 * known: PDF 1.4 objects, a Helvetica (standard 14, not embedded) text layer per page, and an xref
 * table with the true byte offsets. Options make the awkward ones: an outline, a user password
 * (the standard security handler, revision 2: 40-bit RC4), pages without text.
 */
export interface PdfLine {
  text: string;
  /** Font size in points (default 11). */
  size?: number;
}

export interface PdfSpec {
  /** One entry per page; an empty page has no text layer at all. */
  pages: Array<Array<string | PdfLine>>;
  /** /Info /Title. */
  title?: string;
  /** Bookmarks: a title pointing at a 1-based page. */
  outline?: Array<{ title: string; page: number }>;
  /** Encrypts with this user password (owner password the same), so it cannot be opened without it. */
  userPassword?: string;
}

export function makePdf(spec: PdfSpec): Uint8Array {
  const objects: Array<(key: ObjectKey) => string> = [];
  const add = (body: (key: ObjectKey) => string): number => objects.push(body);
  const catalog = add(() => '');
  const pagesObj = add(() => '');
  const font = add(() => '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const pageIds: number[] = [];
  for (const lines of spec.pages) {
    const page = add(() => '');
    pageIds.push(page);
    const content = lines.length > 0 ? add((key) => stream(key, contentStream(lines))) : null;
    objects[page - 1] = () =>
      `<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >>${content ? ` /Contents ${content} 0 R` : ''} >>`;
  }
  objects[pagesObj - 1] = () => `<< /Type /Pages /Kids [${pageIds.map((p) => `${p} 0 R`).join(' ')}] /Count ${pageIds.length} >>`;
  let outlines = '';
  if (spec.outline && spec.outline.length > 0) {
    const root = add(() => '');
    const items = spec.outline.map(() => add(() => ''));
    spec.outline.forEach((o, i) => {
      const links = [i > 0 ? ` /Prev ${items[i - 1]} 0 R` : '', i < items.length - 1 ? ` /Next ${items[i + 1]} 0 R` : ''].join('');
      objects[items[i]! - 1] = (key) => `<< /Title ${pdfString(key, o.title)} /Parent ${root} 0 R${links} /Dest [${pageIds[o.page - 1]} 0 R /XYZ 0 792 0] >>`;
    });
    objects[root - 1] = () => `<< /Type /Outlines /First ${items[0]} 0 R /Last ${items.at(-1)} 0 R /Count ${items.length} >>`;
    outlines = ` /Outlines ${root} 0 R /PageMode /UseOutlines`;
  }
  objects[catalog - 1] = () => `<< /Type /Catalog /Pages ${pagesObj} 0 R${outlines} >>`;
  const info = spec.title !== undefined ? add((key) => `<< /Title ${pdfString(key, spec.title!)} >>`) : null;

  const fileId = createHash('md5').update(JSON.stringify(spec)).digest();
  const security = spec.userPassword !== undefined ? standardSecurity(spec.userPassword, fileId) : null;
  const encryptObj = security ? add(() => security.dictionary) : null;

  // Latin-1 throughout: every byte of the file is one char of this string.
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    const num = i + 1;
    offsets.push(out.length);
    // The /Encrypt dictionary itself is never encrypted.
    const key: ObjectKey = security && num !== encryptObj ? { encrypt: (s) => rc4(objectKey(security.key, num), s) } : PLAIN;
    out += `${num} 0 obj\n${body(key)}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  const id = `<${fileId.toString('hex')}>`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R${info ? ` /Info ${info} 0 R` : ''}${encryptObj ? ` /Encrypt ${encryptObj} 0 R` : ''} /ID [${id} ${id}] >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A PDF cut off part-way, as an interrupted download leaves it. */
export function truncatedPdf(spec: PdfSpec, keep = 0.6): Uint8Array {
  const whole = makePdf(spec);
  return whole.subarray(0, Math.floor(whole.length * keep));
}

interface ObjectKey {
  encrypt: ((latin1: string) => string) | null;
}
const PLAIN: ObjectKey = { encrypt: null };

function contentStream(lines: Array<string | PdfLine>): string {
  let y = 740;
  const ops: string[] = [];
  for (const line of lines) {
    const { text, size = 11 } = typeof line === 'string' ? { text: line } : line;
    ops.push(`BT /F1 ${size} Tf 72 ${y} Td (${escapeText(text)}) Tj ET`);
    y -= Math.round(size * 1.4);
  }
  return ops.join('\n');
}

function stream(key: ObjectKey, data: string): string {
  const body = key.encrypt ? key.encrypt(data) : data;
  return `<< /Length ${body.length} >>\nstream\n${body}\nendstream`;
}

function pdfString(key: ObjectKey, s: string): string {
  const latin1 = Buffer.from(s, 'latin1').toString('latin1');
  return key.encrypt ? `<${Buffer.from(key.encrypt(latin1), 'latin1').toString('hex')}>` : `(${escapeText(latin1)})`;
}

function escapeText(s: string): string {
  return s.replace(/[\\()]/g, (c) => `\\${c}`);
}

// ---- the standard security handler, revision 2 (PDF 1.7 §7.6.3, algorithms 2, 3 and 4) ----

const PADDING = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');

function padded(password: string): Buffer {
  return Buffer.concat([Buffer.from(password, 'latin1'), PADDING]).subarray(0, 32);
}

function standardSecurity(password: string, fileId: Buffer): { key: Buffer; dictionary: string } {
  const P = -44; // print and copy refused; any value works for the test
  const owner = rc4Bytes(createHash('md5').update(padded(password)).digest().subarray(0, 5), padded(password));
  const p = Buffer.alloc(4);
  p.writeInt32LE(P);
  const key = createHash('md5').update(padded(password)).update(owner).update(p).update(fileId).digest().subarray(0, 5);
  const user = rc4Bytes(key, PADDING);
  return { key, dictionary: `<< /Filter /Standard /V 1 /R 2 /Length 40 /O <${owner.toString('hex')}> /U <${user.toString('hex')}> /P ${P} >>` };
}

function objectKey(key: Buffer, num: number): Buffer {
  const suffix = Buffer.from([num & 0xff, (num >> 8) & 0xff, (num >> 16) & 0xff, 0, 0]);
  return createHash('md5').update(key).update(suffix).digest().subarray(0, Math.min(key.length + 5, 16));
}

function rc4(key: Buffer, latin1: string): string {
  return rc4Bytes(key, Buffer.from(latin1, 'latin1')).toString('latin1');
}

/** RC4 by hand: OpenSSL 3 offers it only through its legacy provider. */
function rc4Bytes(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[n] = data[n]! ^ s[(s[i]! + s[j]!) & 0xff]!;
  }
  return out;
}
