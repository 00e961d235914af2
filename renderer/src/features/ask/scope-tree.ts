/** A folder inside an imported folder that holds documents (directly or deeper), with its own such folders. */
export interface FolderNode {
  /** Relative to the imported folder's root, as scopes hold it: `work/projects`. */
  path: string;
  /** Its last part: `projects`. */
  name: string;
  children: FolderNode[];
}

/**
 * Every folder holding at least one document, at any depth, as a tree sorted by name at each level.
 * Built from the documents' relative paths: a folder is listed because something under it was imported.
 */
export function folderTree(relPaths: Iterable<string>): FolderNode[] {
  const top: FolderNode[] = [];
  const byPath = new Map<string, FolderNode>();
  for (const rel of relPaths) {
    const parts = rel.split('/');
    let siblings = top;
    for (let i = 1; i < parts.length; i++) {
      const path = parts.slice(0, i).join('/');
      let node = byPath.get(path);
      if (!node) {
        node = { path, name: parts[i - 1]!, children: [] };
        byPath.set(path, node);
        siblings.push(node);
      }
      siblings = node.children;
    }
  }
  const sort = (nodes: FolderNode[]) => {
    nodes.sort((a, b) => a.name.localeCompare(b.name));
    for (const n of nodes) sort(n.children);
  };
  sort(top);
  return top;
}

/** Every folder path of a tree, parents before their children. */
export function folderPaths(nodes: readonly FolderNode[]): string[] {
  const out: string[] = [];
  const walk = (list: readonly FolderNode[]) => {
    for (const n of list) {
      out.push(n.path);
      walk(n.children);
    }
  };
  walk(nodes);
  return out;
}

/**
 * The picker's summary, short enough for one line: every part while they fit in `max` characters
 * (`lead`), otherwise the first part and how many more (`notes/work/projects` and 2). The count is
 * shown apart from the lead, so a long first part can be cut short without cutting the count.
 */
export function shortScopeLabel(labels: readonly string[], max = 48): { lead: string; more: number } {
  if (labels.length === 0) return { lead: 'All folders', more: 0 };
  const all = labels.join(', ');
  if (labels.length === 1 || all.length <= max) return { lead: all, more: 0 };
  return { lead: labels[0]!, more: labels.length - 1 };
}
