import { chipLabel, type ChipInfo } from './citations';

interface CitationChipProps {
  info: ChipInfo;
  onOpen: (info: ChipInfo, chip: HTMLButtonElement) => void;
}

/** A numbered, coloured source marker inside an answer; opens the source panel. */
export function CitationChip({ info, onOpen }: CitationChipProps) {
  return (
    <button
      type="button"
      className={`chip chip--${info.check}`}
      data-testid="citation-chip"
      data-chunk-id={info.chunkId}
      data-check={info.check}
      aria-label={chipLabel(info)}
      title={chipLabel(info)}
      onClick={(e) => onOpen(info, e.currentTarget)}
    >
      {info.n}
    </button>
  );
}
