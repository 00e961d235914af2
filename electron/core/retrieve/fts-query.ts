/**
 * Turns whatever a person typed into an FTS5 MATCH expression that cannot be a syntax error:
 * every term is a double-quoted string (so AND, NEAR, *, -, ^, : and column names are just
 * words), terms are OR-ed so bm25 ranks passages that share more of them higher, and text the
 * person put in double quotes stays a phrase. Returns null when nothing searchable is left.
 */
// Words a question is built from rather than about: question words, auxiliaries, pronouns,
// fillers. Kept only when nothing else is left. A stemmed index would still match them in every
// passage, so each one left in the query spends bm25's attention on nothing.
const STOPWORDS = new Set(
  ('a about all also am an and any are as at be been being but by can cannot could did do does doing done for from get gets got had has have how i if in into is it its just me my no not of on or our ought so some than that the their them then there these they this those to too very was we were what whats when where which while who whom whose why will with would you your yours ' +
    // What is left of a contraction once its ending is dropped (don't → don), or typed without the
    // apostrophe (whats, youre). Not single letters or "id": vitamin D, process id.
    'don doesn didn isn aren wasn weren won wouldn shouldn couldn haven hasn hadn mustn needn shan im ive youre theyre thats')
    .split(' '),
);

const TERM = /[\p{L}\p{N}\p{M}_]+/gu;
// An apostrophe (straight or curly) and a contraction's ending: dropped with it, so "what's" is "what".
const CONTRACTION = /(?<=[\p{L}])['’](?:s|t|d|ll|re|ve|m)(?![\p{L}\p{N}])/giu;

/** Words of loose text, contraction endings dropped. */
function termsOf(text: string): string[] {
  return wordsOf(text.normalize('NFKC').replace(CONTRACTION, ''));
}

/** Words as the index splits them: inside a quoted phrase "don't" must stay "don t" to match. */
function wordsOf(text: string): string[] {
  return (text.normalize('NFKC').match(TERM) ?? []).map((t) => t.toLowerCase());
}

/** The words of a query that search matches on: content words, each once, in order. */
export function queryTerms(input: string): string[] {
  const all = termsOf(input);
  const content = all.filter((t) => !STOPWORDS.has(t));
  return [...new Set(content.length > 0 ? content : all)];
}

function quote(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

export function toMatchExpression(input: string): string | null {
  const phrases: string[][] = [];
  const loose: string[] = [];
  // Split on double quotes: odd segments were inside a pair of quotes.
  input.split('"').forEach((segment, i, all) => {
    const closed = i % 2 === 1 && i < all.length - 1;
    const phrase = closed ? wordsOf(segment) : [];
    if (phrase.length > 1) phrases.push(phrase);
    else loose.push(...termsOf(segment));
  });
  const content = loose.filter((t) => !STOPWORDS.has(t));
  const words = content.length > 0 || phrases.length > 0 ? content : loose;
  const parts = [...phrases.map((p) => quote(p.join(' '))), ...[...new Set(words)].map(quote)];
  if (parts.length === 0) return null;
  return parts.join(' OR ');
}
