/**
 * How to name each of several files so that none reads like another: its path inside its folder,
 * unless another file listed with it has that same path (`key-rotation.md` in two imported
 * folders), then with as many of its folder's own segments before it as tell them apart
 * (`work/key-rotation.md`, `home/key-rotation.md`). Paths are '/'-separated; roots may use either.
 */
export function distinctPaths(files: ReadonlyArray<{ root: string; path: string }>): string[] {
  const full = files.map((f) => [...f.root.split(/[\\/]+/).filter(Boolean), ...f.path.split('/').filter(Boolean)]);
  return files.map((f, i) => {
    const mine = full[i]!;
    const own = f.path.split('/').filter(Boolean).length;
    // Files at another root with the same path inside it; the same file listed twice is no clash.
    const rivals = full.filter((other, j) => j !== i && files[j]!.root !== f.root && files[j]!.path === f.path);
    if (rivals.length === 0) return f.path;
    for (let n = own + 1; n <= mine.length; n++) {
      const suffix = mine.slice(-n).join('/');
      if (rivals.every((r) => r.slice(-n).join('/') !== suffix)) return suffix;
    }
    return mine.join('/');
  });
}
