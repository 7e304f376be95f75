// Which output files the browser fetches for a page, from esbuild's metafile: an output plus, transitively,
// everything it pulls in statically (chunks, its CSS bundle, files it references), but not what it
// loads later with import().
import { relative, sep } from 'node:path';
import type { Metafile } from 'esbuild';

export type Outputs = Metafile['outputs'];

/** A metafile path: relative to esbuild's working directory `root`, always with `/`. */
export const metaPath = (root: string, abs: string): string => relative(root, abs).split(sep).join('/');

/** The metafile's inputs (modules) or outputs (files): each names what it imports, an output its CSS bundle too. */
type ImportGraph = Record<string, { imports: readonly { path: string; kind: string; external?: boolean }[]; cssBundle?: string }>;

/** `start` and every node of `graph` reachable from it without a dynamic import, in discovery order. */
export function staticClosure(graph: ImportGraph, start: string): string[] {
  const seen = new Set<string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    const out = graph[file];
    if (seen.has(file) || !out) continue;
    seen.add(file);
    if (out.cssBundle) queue.push(out.cssBundle);
    for (const imp of out.imports) if (imp.kind !== 'dynamic-import' && !imp.external) queue.push(imp.path);
  }
  return [...seen];
}

/** The output a module is the entry of (its own lazy chunk), else the outputs holding its code. */
export function outputsOfModule(outputs: Outputs, module: string): string[] {
  const entries = Object.keys(outputs).filter((f) => outputs[f]!.entryPoint === module);
  if (entries.length > 0) return entries;
  return Object.keys(outputs).filter((f) => module in outputs[f]!.inputs);
}

export interface PageFiles {
  /** output files, each once */
  files: string[];
  /** modules asked for that are in no output (not written yet) */
  missing: string[];
}

/** The static closures of the entry module and of each extra (lazily loaded) module, without duplicates. */
export function pageFiles(outputs: Outputs, entry: string, modules: readonly string[]): PageFiles {
  const files = new Set<string>();
  const missing: string[] = [];
  for (const m of [entry, ...modules]) {
    const outs = outputsOfModule(outputs, m);
    if (outs.length === 0) missing.push(m);
    for (const o of outs) for (const f of staticClosure(outputs, o)) files.add(f);
  }
  return { files: [...files], missing };
}
