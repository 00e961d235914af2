import mammoth from 'mammoth';
import { QuireError } from '../../../../shared/errors';
import { htmlToText } from './html-text';
import type { ReaderModule } from './types';

export const docxReader = {
  name: 'docx',
  async read(bytes) {
    const { text, title } = htmlToText(await docxToHtml(bytes), { promoteHeadings: true });
    // A DOCX has no lines of its own: chunks count lines of the extracted text (see html-text.ts).
    return { text, title, firstLine: 1 };
  },
} satisfies ReaderModule;

/** Word's "Title" paragraph style is the document's title: an h1, which html-text takes as the title. */
const STYLE_MAP = ["p[style-name='Title'] => h1:fresh"];

/**
 * The document as HTML, by mammoth, with images dropped (their bytes never read) and the "↑"
 * links mammoth adds after each footnote removed. A file that is not a readable Word document
 * fails with CORRUPT_FILE, saying why where it can.
 */
async function docxToHtml(bytes: Uint8Array): Promise<string> {
  if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) {
    // An OLE compound file: Word 97–2003 (.doc) renamed, or a password-protected .docx (encrypted inside one).
    throw new QuireError('CORRUPT_FILE', 'This is not a .docx file but an older Word document or a password-protected one; save it as an unprotected .docx to index it.');
  }
  if (!(bytes[0] === 0x50 && bytes[1] === 0x4b)) {
    throw new QuireError('CORRUPT_FILE', 'The file is not a .docx document (it is not a zip archive); it may be damaged or misnamed.');
  }
  let html: string;
  try {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    html = (await mammoth.convertToHtml({ buffer }, { styleMap: STYLE_MAP, convertImage: mammoth.images.imgElement(async () => ({ src: '' })) })).value;
  } catch (e) {
    const reason = e instanceof Error ? e.message.replace(/ If it is, see https?:\S+/, '') : String(e);
    throw new QuireError('CORRUPT_FILE', `The .docx file is damaged or incomplete: ${reason}`);
  }
  return html.replace(/<a href="#[\w-]*(?:footnote|endnote)-ref-[\w-]*">↑<\/a>/g, '');
}
