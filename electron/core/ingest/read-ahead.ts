import { readRegularFile } from './read-file';

/**
 * Reads the next few files that will need reading while the current one is chunked and written,
 * so the disk and the CPU work at the same time. Which files need reading is the caller's call
 * (unchanged files must never be read), and at most `window` reads are in flight.
 */
export class ReadAhead {
  private readonly pending = new Map<number, Promise<Buffer>>();

  constructor(
    private readonly paths: readonly string[],
    private readonly needsRead: (index: number) => boolean,
    private readonly maxBytes: number,
    private readonly window = 8,
  ) {}

  /** The bytes of file `index`, reading it now if it was not read ahead. */
  read(index: number): Promise<Buffer> {
    const p = this.pending.get(index) ?? readRegularFile(this.paths[index]!, { maxBytes: this.maxBytes });
    this.pending.delete(index);
    for (let j = index + 1; j < this.paths.length && this.pending.size < this.window && j <= index + this.window * 4; j++) {
      if (this.pending.has(j) || !this.needsRead(j)) continue;
      const ahead = readRegularFile(this.paths[j]!, { maxBytes: this.maxBytes });
      ahead.catch(() => {}); // its error is reported when the file's turn comes
      this.pending.set(j, ahead);
    }
    return p;
  }
}
