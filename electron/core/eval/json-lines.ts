/**
 * Where things are in a question set's JSON text, for messages a person can act on: JSON.parse
 * names a character offset at best ("at position 908"; Node 20 names none for an unexpected
 * token), and a hand-written file of questions is read by line. A scanner of JSON's grammar
 * (RFC 8259), not a parser: values are not built, JSON.parse still makes them.
 */

export interface JsonSyntaxError {
  /** 1-based. */
  line: number;
  column: number;
  /** What the text should have had there, in words. */
  expected: string;
}

export type JsonScan = { ok: true; entryLines: number[] } | { ok: false; error: JsonSyntaxError };

class Stop extends Error {
  constructor(
    readonly at: number,
    readonly expected: string,
  ) {
    super(expected);
  }
}

/**
 * Scans `text` as JSON. Valid: the line each question entry starts on (the elements of a
 * top-level array, or of a top-level object's "questions" array). Not: the line and column of the
 * first character that cannot continue it, and what was expected there.
 */
export function scanJson(text: string): JsonScan {
  let i = 0;
  const entries: number[] = [];
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const string = () => {
    if (text[i] !== '"') throw new Stop(i, 'a string in double quotes');
    i++;
    for (;;) {
      if (i >= text.length) throw new Stop(i, 'the string to be closed with "');
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c < 0x20) throw new Stop(i, 'a closing " before the end of the line (write a line break in a string as \\n)');
      if (c === 0x5c) {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) throw new Stop(i, 'four hex digits after \\u');
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i]!)) {
          throw new Stop(i - 1, 'a valid escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX)');
        }
      }
      i++;
    }
    i++;
  };
  const value = (depth: number, entryList = false): void => {
    space();
    const c = text[i];
    if (c === '{') {
      i++;
      space();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        space();
        if (text[i] !== '"') throw new Stop(i, text[i] === '}' ? 'another property after the comma (a comma may not end an object)' : 'a property name in double quotes');
        const keyStart = i;
        string();
        const key = text.slice(keyStart + 1, i - 1);
        space();
        if (text[i] !== ':') throw new Stop(i, "':' after the property name");
        i++;
        value(depth + 1, depth === 0 && key === 'questions');
        space();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        throw new Stop(i, "',' or '}' after a property's value");
      }
    }
    if (c === '[') {
      i++;
      space();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        space();
        if (text[i] === ']') throw new Stop(i, 'another value after the comma (a comma may not end a list)');
        if (entryList || depth === 0) entries.push(i);
        value(depth + 1);
        space();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        throw new Stop(i, "',' or ']' after a list item");
      }
    }
    if (c === '"') return string();
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (literal) {
      i += literal[0].length;
      return;
    }
    throw new Stop(i, 'a value: a string in double quotes, a number, true, false, null, an object or a list');
  };

  try {
    value(0);
    space();
    if (i < text.length) throw new Stop(i, 'nothing after the end of the JSON');
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    // Whatever the grammar wanted there, a file that stops short is told so.
    const expected = e.at >= text.length ? 'more text (the file ends before the JSON does)' : e.expected;
    return { ok: false, error: { ...lineAndColumn(text, e.at), expected } };
  }
  return { ok: true, entryLines: entries.map((at) => lineAndColumn(text, at).line) };
}

function lineAndColumn(text: string, at: number): { line: number; column: number } {
  const before = text.slice(0, at);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: at - lineStart + 1 };
}
