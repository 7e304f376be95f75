// One question at a time to the technician ('settings not saved', reset), answered in a dialog.
import { signal } from '@preact/signals';

export interface Question {
  title: string;
  text: string;
  yes: string;
  no: string;
  resolve(answer: boolean): void;
}

export const question = signal<Question | null>(null);

export function ask(q: Omit<Question, 'resolve'>): Promise<boolean> {
  question.value?.resolve(false);
  return new Promise((resolve) => {
    question.value = {
      ...q,
      resolve: (a) => {
        question.value = null;
        resolve(a);
      },
    };
  });
}
