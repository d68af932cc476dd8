import path from 'node:path';
import { MANIFEST_SCHEMAS, SPEC_ITEM_FILES } from './schemas/index.ts';

/**
 * A manifest path relative to the manifests directory is safe when it is a plain relative `.json` path:
 * no `..` or `.` segments, no hidden segments (`.etags.json`), no backslashes, no absolute or drive paths.
 */
export function isSafeManifestPath(rel: string): boolean {
  return isSafeRelativePath(rel, '.json');
}

/** The same rule for any extension (models mirrored by the asset sync use `.glb`). */
export function isSafeRelativePath(rel: string, ext: string): boolean {
  if (rel.length === 0 || rel.length > 300 || !rel.toLowerCase().endsWith(ext)) return false;
  if (rel.includes('\\') || rel.includes('\0') || path.isAbsolute(rel) || /^[A-Za-z]:/.test(rel))
    return false;
  return rel
    .split('/')
    .every((seg) => seg.length > 0 && !seg.startsWith('.') && /^[A-Za-z0-9._-]+$/.test(seg));
}

/**
 * The files the asset host is asked for when it offers no `manifests/index.json`: every manifest kind
 * the server knows, both item layouts (the spec's five item files plus the reference's extra ones).
 */
export const KNOWN_MANIFEST_FILES: readonly string[] = [
  ...Object.keys(MANIFEST_SCHEMAS),
  'items.json',
  ...SPEC_ITEM_FILES,
  'items/armor.json',
  'items/ammunition.json',
  'items/runes.json',
];
