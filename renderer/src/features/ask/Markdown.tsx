import { useMemo, useRef, type ComponentProps, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { remarkCites, type CiteNode } from './remark-cites';

interface MarkdownProps {
  text: string;
  /** How a `[chunk-id]` marker is shown; plain bracketed text by default. */
  renderCite?: (cite: CiteNode) => ReactNode;
}

const PLUGINS = [remarkGfm, remarkCites];

/**
 * CommonMark + GFM (tables, task lists, strikethrough) through react-markdown. Safe by default:
 * without rehype-raw, raw HTML is turned into text by react-markdown itself, never into elements;
 * its URL filter drops `javascript:` and other unsafe schemes. On top of that, images are never
 * loaded (their alt text is shown) and links open outside the app (a new tab in a browser; in
 * the desktop app, the window-open handler hands them to the system browser).
 */
export function Markdown({ text, renderCite }: MarkdownProps) {
  // The components keep their identity across renders (a new one would remount every chip, and
  // the source panel would lose the chip it returns focus to); the latest renderCite is read at render.
  const cite = useRef(renderCite ?? rawCite);
  cite.current = renderCite ?? rawCite;
  const components = useMemo<Components>(() => {
    return {
      a: ({ href, children }) => <ExternalLink href={href}>{children}</ExternalLink>,
      img: ({ alt }) => <span className="md-image">[image: {alt || 'no description'}]</span>,
      span: (props) => citeOrSpan(props, cite.current),
      table: ({ children }) => (
        <div className="table-wrap">
          <table className="table md-table">{children}</table>
        </div>
      ),
    };
  }, []);
  return (
    <div className="markdown">
      <ReactMarkdown remarkPlugins={PLUGINS} components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
}

const rawCite = (c: CiteNode) => <span className="md-cite-raw">[{c.chunkId}]</span>;

type SpanProps = ComponentProps<'span'> & { 'data-cite'?: string; 'data-n'?: number; 'data-occurrence'?: number; 'data-index'?: number };

/** Spans made by remarkCites become the caller's citation element; any other span stays a span. */
function citeOrSpan(props: SpanProps & { node?: unknown }, cite: (c: CiteNode) => ReactNode): ReactNode {
  const { node: _node, ...rest } = props;
  const id = rest['data-cite'];
  if (id === undefined) return <span {...rest} />;
  return cite({ chunkId: id, n: Number(rest['data-n']), occurrence: Number(rest['data-occurrence']), index: Number(rest['data-index']) });
}

/** Only web and mail addresses become links; anything else is shown as its text. */
function ExternalLink({ href, children }: { href: string | undefined; children: ReactNode }) {
  if (!href || !/^(?:https?:|mailto:)/i.test(href)) return <span className="md-link">{children}</span>;
  return (
    <a className="md-link" href={href} target="_blank" rel="noopener noreferrer" title={`${href} (opens outside Quire)`}>
      {children}
    </a>
  );
}
