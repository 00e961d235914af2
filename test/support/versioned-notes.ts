/** A note whose every section names its version, so a reader can tell two versions apart. */
export function versionedNote(i: number, version: number): string {
  const sections = 3 + ((i + version) % 4); // the number of chunks changes between versions too
  const parts = [`# Note ${i}`];
  for (let s = 0; s < sections; s++) parts.push(`## Part ${s}\n\nrevision${version} of note ${i}, part ${s}. ${'Filler words keep the chunk long enough. '.repeat(4)}`);
  return `${parts.join('\n\n')}\n`;
}
