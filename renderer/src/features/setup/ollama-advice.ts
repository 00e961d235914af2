import type { SetupStatus } from '../../../../shared/setup';

/** What to do when Ollama does not answer: a sentence or two, a command to copy, a page to open. */
export interface OllamaAdvice {
  sentences: string[];
  command: { text: string; label: string } | null;
  link: { href: string; text: string } | null;
}

const DOWNLOAD = 'https://ollama.com/download';

/** The steps for this operating system, as a person who has never used a terminal can follow them. */
export function ollamaAdvice(platform: SetupStatus['platform']): OllamaAdvice {
  switch (platform) {
    case 'linux':
      return {
        sentences: ['Install Ollama by pasting this command into a terminal; it also starts Ollama.', 'Already installed? Start it with `ollama serve`.'],
        command: { text: 'curl -fsSL https://ollama.com/install.sh | sh', label: 'install Ollama' },
        link: null,
      };
    case 'darwin':
      return {
        sentences: ['Download Ollama for Mac and open it; it keeps running in the menu bar.', 'Already installed? Open the Ollama app.'],
        command: null,
        link: { href: `${DOWNLOAD}/mac`, text: 'Download Ollama for Mac' },
      };
    case 'win32':
      return {
        sentences: ['Download Ollama for Windows and run the installer; it starts Ollama for you.', 'Already installed? Open Ollama from the Start menu.'],
        command: null,
        link: { href: `${DOWNLOAD}/windows`, text: 'Download Ollama for Windows' },
      };
    default:
      return {
        sentences: ['Install Ollama from its download page, then start it with `ollama serve`.'],
        command: { text: 'ollama serve', label: 'start Ollama' },
        link: { href: DOWNLOAD, text: 'Ollama’s download page' },
      };
  }
}
