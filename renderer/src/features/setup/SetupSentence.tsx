import { CopyCommand } from '../../common/CopyCommand';
import { sentenceParts } from './sentence-parts';

interface SetupSentenceProps {
  text: string;
  /** The install steps: their commands become code with a Copy button, the download page a link. */
  rich?: boolean;
}

/** One of the shared setup sentences (shared/setup-sentences.ts), as `quire setup` says it too. */
export function SetupSentence({ text, rich = false }: SetupSentenceProps) {
  if (!rich) return <>{text}</>;
  return (
    <>
      {sentenceParts(text).map((part, i) =>
        part.kind === 'command' ? (
          <CopyCommand key={i} command={part.text} />
        ) : part.kind === 'link' ? (
          <a key={i} href={part.href} target="_blank" rel="noopener noreferrer" title={`${part.href} (opens in your browser)`}>
            {part.text}
          </a>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </>
  );
}
