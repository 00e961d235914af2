import { useMemo } from 'react';
import { bestLines } from './highlight';

interface SourceLinesProps {
  text: string;
  /** Line number of the first line. */
  first: number;
  /** The cited chunk is marked; its neighbours are greyed context. */
  role: 'cited' | 'context';
  sentence?: string | null;
}

/** A passage as numbered lines; in the cited chunk, the lines carrying the cited sentence are highlighted. */
export function SourceLines({ text, first, role, sentence = null }: SourceLinesProps) {
  const lines = useMemo(() => text.split(/\r?\n/), [text]);
  const marked = useMemo(() => {
    if (role !== 'cited') return new Set<number>();
    const best = bestLines(lines, sentence);
    return new Set(best.length > 0 ? best : lines.map((_, i) => i));
  }, [lines, role, sentence]);
  return (
    <ol className={`source-lines source-lines--${role}`} start={first} aria-label={role === 'cited' ? 'Cited passage' : 'Neighbouring passage'}>
      {lines.map((line, i) => (
        <li
          key={i}
          value={first + i}
          className={marked.has(i) ? 'source-line source-line--hit' : 'source-line'}
          data-testid={marked.has(i) ? 'source-highlight' : undefined}
        >
          <span className="source-line__no" aria-hidden="true">
            {first + i}
          </span>
          <span className="source-line__text">{line || '\u00a0'}</span>
        </li>
      ))}
    </ol>
  );
}
