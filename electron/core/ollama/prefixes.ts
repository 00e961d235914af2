/**
 * Embedding models are trained with task prefixes; leaving them out quietly costs recall.
 * Matched on the model's base name (before the tag).
 */
export interface TaskPrefixes {
  document(text: string, title: string): string;
  query(text: string): string;
}

const NONE: TaskPrefixes = { document: (t) => t, query: (q) => q };

const FAMILIES: ReadonlyArray<[RegExp, TaskPrefixes]> = [
  [/^nomic-embed-text/, { document: (t) => `search_document: ${t}`, query: (q) => `search_query: ${q}` }],
  [
    /^embeddinggemma/,
    {
      document: (t, title) => `title: ${title.trim() === '' ? 'none' : title} | text: ${t}`,
      query: (q) => `task: search result | query: ${q}`,
    },
  ],
  [/^(mxbai-embed-large|snowflake-arctic-embed)/, { document: (t) => t, query: (q) => `Represent this sentence for searching relevant passages: ${q}` }],
];

export function taskPrefixesFor(model: string): TaskPrefixes {
  const base = (model.split('/').at(-1) ?? model).split(':')[0] ?? model;
  return FAMILIES.find(([re]) => re.test(base))?.[1] ?? NONE;
}
