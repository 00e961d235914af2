/**
 * The question sets and the folders they ask about (paths from the repo root). The held-out sets
 * were written apart from the others and are not looked at while tuning retrieval: they say whether
 * a change generalises. Two ask new questions about the tuned folders; `undici-docs-held-out` and
 * `pino-docs-held-out` ask about folders of technical documentation never used for tuning at all
 * (undici's API docs and guides; pino's docs, a dependency of the pinned fastify devDependency),
 * which `npm ci` installs at the versions package-lock.json pins. The pino set was written from the
 * documents alone, without running any retrieval on its questions. `fastify-docs` is the opposite:
 * a tuning folder of technical documentation (fastify's Reference and Guides, installed as a pinned
 * devDependency only for its docs/ folder), there to be diagnosed and tuned on so that the held-out
 * documentation sets stay unseen. The other corpora are public document sets kept beside the repo,
 * not shipped.
 */
export const SET_FILES: Record<string, { questions: string; docs: string; min: number }> = {
  'rust-book': { questions: 'test/bench/questions/rust-book.json', docs: '../shared/corpora/rust-book/src', min: 100 },
  tldr: { questions: 'test/bench/questions/tldr.json', docs: '../shared/corpora/tldr/pages', min: 100 },
  'rust-book-held-out': { questions: 'test/bench/questions/held-out/rust-book.json', docs: '../shared/corpora/rust-book/src', min: 40 },
  'tldr-held-out': { questions: 'test/bench/questions/held-out/tldr.json', docs: '../shared/corpora/tldr/pages', min: 40 },
  'fastify-docs': { questions: 'test/bench/questions/fastify-docs.json', docs: 'node_modules/fastify/docs', min: 100 },
  'undici-docs-held-out': { questions: 'test/bench/questions/held-out/undici-docs.json', docs: 'node_modules/undici/docs/docs', min: 48 },
  'pino-docs-held-out': { questions: 'test/bench/questions/held-out/pino-docs.json', docs: 'node_modules/pino/docs', min: 60 },
  'es-pt': { questions: 'test/bench/questions/es-pt.json', docs: 'test/fixtures/notes-es-pt', min: 25 },
};
