import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toErrorShape } from '../../shared/errors';
import { importableFolder } from './engine';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-importable-'));
const file = path.join(root, 'notes', 'plan.md');
fs.mkdirSync(path.dirname(file));
fs.writeFileSync(file, '# Plan\n');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function refusal(given: string) {
  try {
    importableFolder(given);
  } catch (e) {
    return toErrorShape(e);
  }
  throw new Error(`${given} was taken`);
}

describe('importableFolder', () => {
  it('takes a folder, written out in full', () => {
    expect(importableFolder(path.join(root, 'notes', '..', 'notes'))).toBe(path.join(root, 'notes'));
  });

  it('a file is refused as a file, naming the folder it is in (it does exist on this computer)', () => {
    expect(refusal(file)).toEqual({ code: 'NOT_A_FOLDER', message: `${file} is a file. Quire imports folders: give the folder it is in (${path.join(root, 'notes')}).` });
  });

  it('a path that does not exist is refused as absent', () => {
    const absent = path.join(root, 'absent');
    expect(refusal(absent)).toEqual({ code: 'NOT_A_FOLDER', message: `${absent} is not a folder on this computer.` });
  });
});
