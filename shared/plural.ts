/**
 * A count with its noun in the right form ("1 chunk", "2 chunks"), chosen by Intl.PluralRules
 * rather than `n === 1`, so every count is said the same way and a later translation only adds
 * forms. English for now: the CLI stays English, the interface's catalogue comes later.
 */
const rules = new Intl.PluralRules('en');
const numbers = new Intl.NumberFormat('en');

export function plural(n: number, one: string, other = `${one}s`): string {
  return `${numbers.format(n)} ${rules.select(n) === 'one' ? one : other}`;
}
