// Types of scripts/plugin-lists.mjs, for the tests that import it.
export function registry(root?: string): string[];
export const BLOCK_FILES: Record<string, string[]>;
export function withBlocks(text: string, names: string[], plugins: string[], file?: string): string;
export function withBin(text: string, plugins: string[]): string;
export function generated(root?: string): Array<[path: string, now: string, made: string]>;
