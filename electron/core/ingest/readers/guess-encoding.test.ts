import { describe, expect, it } from 'vitest';
import { guessEncoding } from './decode';
import { parseFile } from '../parse/parse-file';
import { parseChunkerSpec } from '../chunkers/index';

const latin1 = (s: string) => Uint8Array.from(Buffer.from(s, 'latin1'));
/** windows-1251 puts А–я at 0xC0–0xFF. */
const cp1251 = (s: string) => Uint8Array.from([...s].map((c) => (c >= 'А' && c <= 'я' ? c.charCodeAt(0) - 0x410 + 0xc0 : c.charCodeAt(0))));
const hex = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));

describe('guessing the encoding of a text file that is not UTF-8', () => {
  it('reads Spanish and Portuguese notes saved as windows-1252 ("ANSI")', () => {
    const es = guessEncoding(latin1('# Receta\n\nLa canci\xf3n de la ni\xf1a est\xe1 en el caj\xf3n. \xbfQu\xe9 tal?\n'));
    expect(es).toEqual({ encoding: 'windows-1252', text: '# Receta\n\nLa canción de la niña está en el cajón. ¿Qué tal?\n' });
    const pt = guessEncoding(latin1('# Anota\xe7\xf5es\n\nA reuni\xe3o n\xe3o come\xe7ou \xe0s tr\xeas.\n'));
    expect(pt).toMatchObject({ encoding: 'windows-1252', text: '# Anotações\n\nA reunião não começou às três.\n' });
  });

  it("reads windows-1252's typographic characters, not the C1 controls Node decodes them as", () => {
    const g = guessEncoding(Uint8Array.from([...latin1('It'), 0x92, ...latin1('s a '), 0x93, ...latin1('quote'), 0x94, ...latin1(' \x96 10 '), 0x80, ...latin1(' caf\xe9\n')]));
    expect(g).toEqual({ encoding: 'windows-1252', text: 'It’s a “quote” – 10 € café\n' });
  });

  it('reads a note with a single accented word (too little for statistics) as windows-1252', () => {
    expect(guessEncoding(latin1('Shopping: milk, bread, caf\xe9.\n'))).toMatchObject({ encoding: 'windows-1252', text: 'Shopping: milk, bread, café.\n' });
  });

  it('recognises other scripts when their bytes say so clearly', () => {
    expect(guessEncoding(cp1251('# Заметки\n\nПривет, как дела? Встреча в пятницу. Нужно купить молоко и хлеб.\n'))).toMatchObject({ encoding: 'windows-1251' });
    const ja = guessEncoding(hex('232089ef8b63838183820a0a89ef8b6382cd8be0976a93fa82cc8cdf8ce38e4f8e9e82a982e782c582b781428e9197bf82f08f8094f582b582c482ad82be82b382a281420a'));
    expect(ja).toEqual({ encoding: 'shift_jis', text: '# 会議メモ\n\n会議は金曜日の午後三時からです。資料を準備してください。\n' });
    const el = guessEncoding(hex('2320d3e7ece5e9fef3e5e9f20a0ac720f3f5eddcedf4e7f3e720e5dfede1e920f4e7ed20d0e1f1e1f3eae5f5de20f3f4e9f220f4f1e5e9f220f4ef20e1f0fce3e5f5ece12e0a'));
    expect(el).toMatchObject({ encoding: 'iso-8859-7', text: expect.stringContaining('Η συνάντηση είναι την Παρασκευή') });
  });

  it('reads a long file from a sample of its start, never cutting a two-byte character in two', () => {
    const line = hex('89ef8b6382cd8be0976a93fa82cc8cdf8ce38e4f8e9e82a982e782c582b781420a'); // 会議は金曜日の午後三時からです。
    const long = Uint8Array.from(Buffer.concat(Array.from({ length: 4000 }, () => line))); // 132 KB, past the sample
    const g = guessEncoding(long);
    expect(g.encoding).toBe('shift_jis');
    expect(g.encoding && g.text.split('\n').filter((l) => l === '会議は金曜日の午後三時からです。')).toHaveLength(4000);
  });

  it('refuses a short note in another script rather than index it as mojibake', () => {
    const g = guessEncoding(cp1251('Встреча в пятницу\n'));
    expect(g.encoding).toBeNull();
  });

  it('keeps Western words that hold signs: French œ, Catalan l·l, ordinals, ´ typed as an apostrophe', () => {
    const text = 'Le c\u0153ur de la col\u00b7lecci\u00f3: 1\u00aa edici\u00f3n, don\u00b4t worry, caf\u00e9.\n';
    const bytes = Uint8Array.from([...text].map((c) => (c === '\u0153' ? 0x9c : c.charCodeAt(0))));
    expect(guessEncoding(bytes)).toEqual({ encoding: 'windows-1252', text });
  });

  it('refuses what windows-1252 would turn into signs: another script in an English note, UTF-8 pasted into windows-1252', () => {
    // "Łódź" in windows-1250 inside English: read as windows-1252 it is "£ódŸ".
    const lodz = Uint8Array.from([...latin1('Travel notes. Flight lands Tuesday; hotel near the station in '), 0xa3, 0xf3, 0x64, 0x9f, ...latin1('.\n')]);
    expect(guessEncoding(lodz).encoding).toBeNull();
    // "Иван" in windows-1251 beside English.
    expect(guessEncoding(Uint8Array.from([...latin1('Meeting notes with '), ...cp1251('Иван'), ...latin1(' about the plan for the release next week.\n')])).encoding).toBeNull();
    // A windows-1252 note with UTF-8 pasted in: "Café" and "it’s" in UTF-8, one windows-1252 é.
    const mixed = Uint8Array.from([...Buffer.from('# Café\n\nit’s here — ', 'utf8'), ...latin1('caf\xe9 au lait, cr\xe8me, br\xfbl\xe9e, \xe0 la carte, na\xefve, d\xe9j\xe0 vu.\n')]);
    expect(guessEncoding(mixed).encoding).toBeNull();
  });

  it('refuses when ISO-8859-2 and windows-1250 read a Polish note differently', () => {
    // "piątek" with ą as windows-1250 writes it (0xB9), which ISO-8859-2 reads as š.
    const g = guessEncoding(Uint8Array.from([...latin1('Spotkanie w pi'), 0xb9, ...latin1('tek o dziesi'), 0xb9, ...latin1('tej, prosz'), 0xea, ...latin1(' by'), 0xe6, ...latin1('.\n')]));
    expect(g.encoding).toBeNull();
  });

  it('refuses a file that starts with the UTF-8 byte-order mark: it says it is UTF-8, and is damaged', () => {
    expect(guessEncoding(Uint8Array.from([0xef, 0xbb, 0xbf, ...latin1('# Caf\xe9\n\nLa cr\xe8me.\n')]))).toEqual({ encoding: null, why: expect.stringContaining('byte-order mark') });
  });

  it('refuses a UTF-8 file with a stray byte: it is damaged, not in another encoding', () => {
    const g = guessEncoding(Uint8Array.from([...Buffer.from('# Café\n\nLa crème ', 'utf8'), 0xff, 0x0a]));
    expect(g).toEqual({ encoding: null, why: expect.stringContaining('UTF-8 in places') });
  });
});

describe('importing such a file', () => {
  const chunker = parseChunkerSpec('heading:256');

  it('reads it in the guessed encoding and says which', async () => {
    const parsed = await parseFile({ relPath: 'viejas/receta.md', bytes: latin1('# Canci\xf3n\n\nLa canci\xf3n de la ni\xf1a.\n'), chunker });
    expect(parsed.guessedEncoding).toBe('windows-1252');
    expect(parsed.title).toBe('Canción');
    expect(parsed.chunks.map((c) => c.text).join('\n')).toContain('La canción de la niña.');
  });

  it('leaves a UTF-8 file as it was, naming no encoding', async () => {
    const parsed = await parseFile({ relPath: 'a.md', bytes: Uint8Array.from(Buffer.from('# Canción\n\nLa niña.\n', 'utf8')), chunker });
    expect(parsed.guessedEncoding).toBeUndefined();
    expect(parsed.title).toBe('Canción');
  });

  it('refuses one it cannot tell, with the offset and the reason', async () => {
    const bytes = Uint8Array.from([...Buffer.from('# Café\n\n', 'utf8'), 0xff, 0x0a]);
    await expect(parseFile({ relPath: 'damaged.md', bytes, chunker })).rejects.toMatchObject({
      code: 'UNDECODABLE_TEXT',
      message: expect.stringMatching(/not valid UTF-8 \(first bad byte at offset 9\), and it is UTF-8 in places.*re-save it as UTF-8\.$/),
    });
  });
});
