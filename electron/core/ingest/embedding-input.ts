import type { DocumentInput } from '../ollama/embedder';
import { headingAsRead, searchableText } from '../text/searchable';
import type { Chunk } from './chunkers/index';

/**
 * What an embedding model reads for a chunk: its heading path and text as a reader sees them, the
 * words keyword search indexes. A link's address, a reference label and a chapter's closing
 * reference definitions are hidden on the page, yet the model would read each address as words of
 * the passage (`configure-liveness-readiness-startup-probes`), and they take its tokens: 9.9% of
 * what fastify's docs sent to the embedder, over 20% of it in 182 of their 891 chunks; 2.4% of the
 * Rust book's (counted once over the indexes npm run bench:retrieval builds). The chunk keeps its Markdown as written, so
 * citations, the prompt and the source panel are unchanged; only the vector's input is.
 *
 * A chunk's size (tokenCount) is still counted on contextualText, which this never exceeds: it only
 * removes text, and blank lines left where definitions were are folded.
 */
export function embeddingInput(chunk: Pick<Chunk, 'headingPath' | 'text'>): DocumentInput {
  const title = headingAsRead(chunk.headingPath);
  const text = searchableText(chunk.text).replace(/\n{3,}/g, '\n\n');
  return { text: `${title}\n\n${text}`, title };
}
