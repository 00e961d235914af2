/**
 * Download progress on stderr: on a terminal one line redrawn in place (percent and megabytes);
 * in a log (CI, a pipe) a plain line at each quarter, so the log stays a few lines long.
 */
import type { DownloadProgress } from './electron-fetch';

type Out = { write(text: string): unknown; isTTY?: boolean };

const MB = 1024 * 1024;

function amount(p: DownloadProgress): string {
  const done = (p.transferred / MB).toFixed(0);
  return p.total ? `${done} of ${(p.total / MB).toFixed(0)} MB` : `${done} MB`;
}

export function progressReporter(label: string, out: Out): { update(p: DownloadProgress): void; end(): void } {
  let shown = -1;
  let drawn = false;
  return {
    update(p) {
      const percent = Math.floor(p.percent * 100);
      if (out.isTTY) {
        if (percent === shown) return;
        out.write(`\r${label}: ${percent}% (${amount(p)})`);
        drawn = true;
      } else {
        const quarter = Math.floor(percent / 25) * 25;
        if (quarter <= shown) return;
        out.write(`${label}: ${quarter}% (${amount(p)})\n`);
        shown = quarter;
        return;
      }
      shown = percent;
    },
    end() {
      if (drawn) out.write('\n');
      drawn = false;
    },
  };
}
