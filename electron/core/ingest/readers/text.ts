import { decodeText } from './decode';
import type { Reader } from './types';

export const textReader = {
  name: 'text',
  version: 1,
  read(bytes) {
    return { text: decodeText(bytes), title: null, firstLine: 1 };
  },
} satisfies Reader;
