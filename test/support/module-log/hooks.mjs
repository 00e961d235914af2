// Module hooks (see register.mjs): each resolved module's URL appended to the log file.
import fs from 'node:fs';

let file;

export function initialize(data) {
  file = data.file;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  fs.appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}
