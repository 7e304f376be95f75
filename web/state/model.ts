// The configuration model (schemas, defaults, rules) is a chunk of its own: the shell and /info
// do without it, pages with forms import it, and the store loads it in the background once the
// console shows, for validation and defaults.
import { signal } from '@preact/signals';

type Model = typeof import('./model-parts.ts');
export const model = signal<Model | null>(null);
let loading: Promise<Model> | undefined;

export function ensureModel(): Promise<Model> {
  loading ??= import('./model-parts.ts').then((m) => (model.value = m));
  return loading;
}
