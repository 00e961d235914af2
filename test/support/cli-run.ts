import { main } from '../../electron/cli/run';

export interface CliOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `quire …` in-process (the CLI's own entry, no child process), capturing what it prints. */
export async function runCli(args: string[], env: Record<string, string>, tty: { stdout?: boolean; stderr?: boolean } = {}): Promise<CliOutput> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: { write: (text: string) => (stdout += text), ...(tty.stdout !== undefined ? { isTTY: tty.stdout } : {}) },
    stderr: { write: (text: string) => (stderr += text), ...(tty.stderr !== undefined ? { isTTY: tty.stderr } : {}) },
    env,
  });
  return { code, stdout, stderr };
}
