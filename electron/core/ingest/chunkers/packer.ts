// Greedy packing of units into chunks under a token budget that includes the heading-path prefix.
//
// Counting the whole candidate chunk for every unit added would be quadratic in units per chunk,
// so the packer estimates (sum of unit counts, +1 per join for the separator between them) and
// counts exactly only when the estimate is near the limit, and once more when it closes a chunk
// whose count is not already known. Tokens rarely merge across a join, so the estimate is close.
import { countTokens } from '../../text/tokenizer';
import { hardCut, type Unit } from './segment';
import { contextualTokens, prefixTokens, trimRange, type Range } from './text';

export interface PathUnit extends Unit {
  path: string[];
}

export interface Packed {
  range: Range;
  path: string[];
  tokenCount: number;
}

function commonPath(a: string[], b: string[]): string[] {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n === a.length ? a : a.slice(0, n);
}

export class Packer {
  private units: PathUnit[] = [];
  private path: string[] = [];
  private estimate = 0;
  /** Whether `estimate` is the exact body count of the open chunk. */
  private exact = true;

  constructor(
    private readonly text: string,
    private readonly maxTokens: number,
    private readonly emit: (chunk: Packed) => void,
    /** Chunks spanning more characters than this are closed without counting: they cannot fit. */
    private readonly maxChars: number,
  ) {}

  prefixCount(path: string[]): number {
    return prefixTokens(path);
  }

  private contextualCount(path: string[], range: Range, bodyTokens?: number): number {
    return contextualTokens(path, this.text.slice(range.start, range.end), bodyTokens);
  }

  add(unit: PathUnit): void {
    const first = this.units[0];
    if (!first) {
      this.open(unit);
      return;
    }
    const path = commonPath(this.path, unit.path);
    const room = this.maxTokens - this.prefixCount(path);
    if (unit.end - first.start > this.maxChars) {
      this.close();
      this.add(unit);
      return;
    }
    if (this.estimate + unit.tokens + 1 <= room) {
      this.accept(unit, path, this.estimate + unit.tokens + 1, false);
      return;
    }
    // An exact estimate is a near lower bound too: a join rarely saves more than one token.
    const hopeless = this.exact && this.estimate + unit.tokens - 1 > room;
    const exact = hopeless ? Infinity : countTokens(this.text.slice(first.start, unit.end));
    if (exact <= room) {
      this.accept(unit, path, exact, true);
    } else {
      this.close();
      this.add(unit);
    }
  }

  private open(unit: PathUnit): void {
    this.units = [unit];
    this.path = unit.path;
    this.estimate = unit.tokens;
    this.exact = true;
  }

  private accept(unit: PathUnit, path: string[], estimate: number, exact: boolean): void {
    this.units.push(unit);
    this.path = path;
    this.estimate = estimate;
    this.exact = exact;
  }

  /** Closes the open chunk, giving back trailing units if the exact count is over the limit. */
  close(): void {
    const units = this.units;
    if (units.length === 0) return;
    this.units = [];
    let n = units.length;
    let path = this.path;
    let tokens = this.contextualCount(path, span(units, n), this.exact ? this.estimate : undefined);
    while (tokens > this.maxTokens && n > 1) {
      n--;
      path = units.slice(0, n).reduce((p, u) => commonPath(p, u.path), units[0]!.path);
      tokens = this.contextualCount(path, span(units, n));
    }
    if (tokens > this.maxTokens && n === 1) {
      this.recut(units[0]!, tokens);
    } else {
      this.emit({ range: span(units, n), path, tokenCount: tokens });
    }
    for (const unit of units.slice(n)) this.add(unit);
  }

  /**
   * A lone unit over the limit: its body fit the budget alone but not with the prefix (a long
   * path with a tiny maxTokens, or a body starting with whitespace). Cut it smaller and repack.
   * When the path leaves room for less than one token, the unit is emitted over the limit: the
   * one documented exception to the budget.
   */
  private recut(unit: PathUnit, tokens: number): void {
    const budget = unit.tokens - (tokens - this.maxTokens);
    if (budget < 1 || unit.end - unit.start <= 1) {
      this.emit({ range: unit, path: unit.path, tokenCount: tokens });
      return;
    }
    for (const piece of hardCut(this.text, unit.start, unit.end, budget)) {
      const trimmed = trimRange(this.text, piece.start, piece.end);
      if (!trimmed) continue;
      const same = trimmed.start === piece.start && trimmed.end === piece.end;
      const tokens = same ? piece.tokens : countTokens(this.text.slice(trimmed.start, trimmed.end));
      this.add({ ...trimmed, tokens, path: unit.path });
    }
  }
}

function span(units: PathUnit[], n: number): Range {
  return { start: units[0]!.start, end: units[n - 1]!.end };
}
