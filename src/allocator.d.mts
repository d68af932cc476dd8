// Types of src/allocator.mjs (plain JavaScript: src/start-entry.mjs runs it under plain node).
export function jemallocCandidates(arch: string): string[];
export function chooseAllocator(input: {
  env: Record<string, string | undefined>;
  platform: string;
  arch: string;
  exists: (file: string) => boolean;
}): { allocator: 'jemalloc' | 'system'; set: Record<string, string>; warning?: string };
