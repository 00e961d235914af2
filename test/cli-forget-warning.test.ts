import { describe, expect, it } from 'vitest';
import { forgetCommand } from '../electron/cli/commands/forget';
import type { CliContext } from '../electron/cli/context';

describe('quire forget, when the keyword statistics could not be rebuilt after it', () => {
  it('says the folder is forgotten, then the warning, and exits 0', async () => {
    const warning = { code: 'WRITE_FAILED', message: "Keyword search's statistics could not be rebuilt after this forget: the disk is full [SQLITE_FULL]." };
    const printed: Array<{ value: unknown; text: string }> = [];
    const ctx = {
      engine: { forgetFolder: async () => ({ root: '/home/me/notes', documents: 3, evalIndexes: 0, warnings: [warning] }) },
      out: { result: (value: unknown, human: () => string) => printed.push({ value, text: human() }) },
    } as unknown as CliContext;
    expect(await forgetCommand(ctx, '/home/me/notes')).toBe(0);
    expect(printed).toHaveLength(1);
    expect(printed[0]!.text.split('\n')).toEqual([`Forgot /home/me/notes: 3 documents and everything derived from them removed from the index.`, `Warning: ${warning.message}`]);
    expect(printed[0]!.value).toMatchObject({ warnings: [warning] });
  });
});
