/**
 * Turns whatever a person typed into an FTS5 MATCH expression that cannot be a syntax error:
 * every term is a double-quoted string (so AND, NEAR, *, -, ^, : and column names are just
 * words), terms are OR-ed so bm25 ranks passages that share more of them higher, and text the
 * person put in double quotes stays a phrase. Returns null when nothing searchable is left.
 */
const STOPWORDS = new Set(
  ('a an and are as at be but by can do does did for from had has have how i if in into is it its me my no not of on or ' +
    'our so that the their them then there these they this to was we were what when where which who why will with you your')
    .split(' '),
);

const TERM = /[\p{L}\p{N}\p{M}_]+/gu;

function termsOf(text: string): string[] {
  return (text.normalize('NFKC').match(TERM) ?? []).map((t) => t.toLowerCase());
}

function quote(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

export function toMatchExpression(input: string): string | null {
  const phrases: string[][] = [];
  const loose: string[] = [];
  // Split on double quotes: odd segments were inside a pair of quotes.
  input.split('"').forEach((segment, i, all) => {
    const terms = termsOf(segment);
    const closed = i % 2 === 1 && i < all.length - 1;
    if (closed && terms.length > 1) phrases.push(terms);
    else loose.push(...terms);
  });
  const content = loose.filter((t) => !STOPWORDS.has(t));
  const words = content.length > 0 || phrases.length > 0 ? content : loose;
  const parts = [...phrases.map((p) => quote(p.join(' '))), ...[...new Set(words)].map(quote)];
  if (parts.length === 0) return null;
  return parts.join(' OR ');
}
