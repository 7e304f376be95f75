// A message a form shows until the next attempt (a refused login, a failed upload), kept as how to
// word it rather than as words: it is worded again at each render, so switching the language while
// it shows re-words it instead of leaving it in the language it was first shown in.
import { useState } from 'preact/hooks';
import type { TranslationFunctions } from './i18n-types.ts';
import { LL } from './translate.ts';

/** How to word a message from the dictionary of the language shown (read `L`, not a dictionary taken earlier). */
export type Wording = (L: TranslationFunctions) => string;

/** The message's text in the language shown ('' when none) and the setter (`null` clears it). */
export function useWorded(): [text: string, show: (word: Wording | null) => void] {
  const [word, setWord] = useState<Wording | null>(null);
  return [word ? word(LL.value) : '', (w) => setWord(() => w)];
}
