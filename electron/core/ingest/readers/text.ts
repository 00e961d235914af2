import { decodeText } from './decode';
import type { ReaderModule } from './types';

export const textReader = {
  name: 'text',
  read(bytes) {
    return { text: decodeText(bytes), title: null, firstLine: 1 };
  },
} satisfies ReaderModule;
