// How the rst reader shows a directive (`.. name:: arguments`, its `:option:` lines and its
// indented body), as a Sphinx page shows it, line for line: the marker never reaches the index or a
// prompt, and what the page prints in its place does.

/** `.. name:: arguments`: group 1 its indentation, 2 its name (with a domain: `py:function`), 3 the arguments. */
export const DIRECTIVE = /^(\s*)\.\.\s+([\w+-]+(?::[\w+-]+)*)::(?:\s(.*))?$/;

export type DirectiveShape =
  /** The directive line reads as this text (an admonition's or a version note's label); the body stays. */
  | { kind: 'label'; text: string }
  /** The arguments are a signature (`.. option:: -j N`, `.. py:function:: open(path)`): an entry's heading, or code; the body stays. */
  | { kind: 'signature'; text: string }
  /** The arguments are a title (`.. topic:: Caching`) shown as text; the body stays. */
  | { kind: 'title'; text: string }
  /** The line (and options) go blank; the body stays (`.. only:: html`, `.. program:: cmake`). */
  | { kind: 'hidden' }
  /** The line, options and body go blank: navigation or markup no page shows as text (`toctree`, `contents`, `raw`). */
  | { kind: 'dropped' };

const ADMONITIONS: Readonly<Record<string, string>> = {
  note: 'Note', warning: 'Warning', tip: 'Tip', hint: 'Hint', important: 'Important', caution: 'Caution',
  danger: 'Danger', attention: 'Attention', error: 'Error', seealso: 'See also', todo: 'Todo',
};

/** Sphinx's wording of its version notes. */
const VERSION_NOTES: Readonly<Record<string, string>> = {
  versionadded: 'New in version', versionchanged: 'Changed in version', deprecated: 'Deprecated since version', versionremoved: 'Removed in version',
};

/** Directives whose body is not text a page shows: navigation, tables of contents, raw output, index entries. */
const DROPPED = new Set(['toctree', 'contents', 'index', 'meta', 'raw', 'tabularcolumns', 'include', 'literalinclude', 'image', 'autosummary', 'sectnum', 'header', 'footer', 'target-notes']);

/** Directives whose line shows nothing (settings, context, wrappers) but whose body, if any, is content. */
const HIDDEN = new Set([
  'only', 'ifconfig', 'program', 'currentmodule', 'module', 'highlight', 'default-role', 'default-domain', 'sectionauthor',
  'codeauthor', 'moduleauthor', 'container', 'compound', 'hlist', 'glossary', 'class', 'role', 'title', 'figure',
  'automodule', 'autoclass', 'autofunction', 'automethod', 'autodata', 'autoattribute', 'autoexception', 'math', 'epigraph', 'highlights', 'pull-quote',
]);

/** One word with a slash, ending in a file extension. */
const FILE_PATH = /^[^\s/]*\/\S*\.\w+$/;

/** Directives whose argument is a title, not code. */
const TITLED = new Set(['admonition', 'topic', 'rubric', 'sidebar', 'table', 'csv-table', 'list-table', 'centered', 'card', 'tab', 'dropdown']);

/**
 * The shape of a directive by its name (its domain, `py:` or `cmake:`, aside) and arguments. An
 * unknown directive with arguments is taken for an object description (Sphinx's `function`,
 * `option`, `envvar`, and every domain's own: CMake's `variable`, `genex`), whose arguments are the
 * signature a page sets as its entry's term; one without arguments shows nothing of its own line.
 * Note: `class` alone is docutils' class-setting directive; `py:class` is a signature.
 */
export function directiveShape(name: string, rawArgs: string): DirectiveShape {
  const args = rawArgs.trim();
  const bare = name.includes(':') ? name.slice(name.lastIndexOf(':') + 1) : name;
  const hasDomain = bare !== name;
  const label = ADMONITIONS[bare];
  if (label !== undefined && !hasDomain) return { kind: 'label', text: args ? `${label}: ${args}` : `${label}:` };
  const version = VERSION_NOTES[bare];
  if (version !== undefined && !hasDomain) {
    const [number = '', ...rest] = args.split(/\s+/);
    return { kind: 'label', text: `${version} ${number}${rest.length > 0 ? `: ${rest.join(' ')}` : number ? '.' : ''}`.replace(/ +$/, '') };
  }
  if (!hasDomain && DROPPED.has(bare)) return { kind: 'dropped' };
  if (!hasDomain && HIDDEN.has(bare)) return { kind: 'hidden' };
  if (!args) return { kind: 'hidden' };
  if (!hasDomain && TITLED.has(bare)) return { kind: 'title', text: args };
  // A file's path (`.. cmake-module:: ../../Modules/FindPython.cmake`, `.. kernel-doc:: lib/x.c`):
  // the page shows what that file holds, which is not here, never the path.
  if (FILE_PATH.test(args)) return { kind: 'hidden' };
  return { kind: 'signature', text: args };
}
