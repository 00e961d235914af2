import { Fragment, useMemo, type ReactNode } from 'react';
import { parseMarkdown, type Block, type CiteNode, type Inline } from './markdown';

interface MarkdownProps {
  text: string;
  /** How a `[chunk-id]` marker is shown; plain bracketed text by default. */
  renderCite?: (cite: CiteNode) => ReactNode;
}

/**
 * Safe Markdown: the parsed tree becomes React elements and text nodes only. Nothing is ever set
 * as HTML; links are shown as text with their address (never clickable, never fetched) and images
 * as "[image: alt]" (never loaded).
 */
export function Markdown({ text, renderCite }: MarkdownProps) {
  const parsed = useMemo(() => parseMarkdown(text), [text]);
  const cite = renderCite ?? ((c: CiteNode) => <span className="md-cite-raw">[{c.chunkId}]</span>);
  return <div className="markdown">{parsed.blocks.map((b, i) => <BlockView key={i} block={b} cite={cite} />)}</div>;
}

function BlockView({ block, cite }: { block: Block; cite: (c: CiteNode) => ReactNode }) {
  switch (block.t) {
    case 'p':
      return <p>{inlines(block.c, cite)}</p>;
    case 'h':
      return (
        <p className={`md-heading md-heading-${Math.min(block.level, 3)}`}>
          <strong>{inlines(block.c, cite)}</strong>
        </p>
      );
    case 'code':
      return (
        <pre className="md-code" data-lang={block.lang || undefined}>
          <code>{block.v}</code>
        </pre>
      );
    case 'list': {
      const items = block.items.map((it, i) => <li key={i}>{inlines(it, cite)}</li>);
      return block.ordered ? <ol start={block.start}>{items}</ol> : <ul>{items}</ul>;
    }
    case 'quote':
      return <blockquote>{inlines(block.c, cite)}</blockquote>;
    case 'hr':
      return <hr />;
  }
}

function inlines(nodes: Inline[], cite: (c: CiteNode) => ReactNode): ReactNode[] {
  return nodes.map((n, i) => <Fragment key={i}>{inlineView(n, cite)}</Fragment>);
}

function inlineView(n: Inline, cite: (c: CiteNode) => ReactNode): ReactNode {
  switch (n.t) {
    case 'text':
      return n.v;
    case 'code':
      return <code className="md-inline-code">{n.v}</code>;
    case 'em':
      return <em>{inlines(n.c, cite)}</em>;
    case 'strong':
      return <strong>{inlines(n.c, cite)}</strong>;
    case 'link':
      return (
        <span className="md-link" title="Links are not opened from answers">
          {n.text && n.text !== n.url ? `${n.text} (${n.url})` : n.url}
        </span>
      );
    case 'image':
      return <span className="md-image">[image: {n.alt || 'no description'}]</span>;
    case 'cite':
      return cite(n);
  }
}
