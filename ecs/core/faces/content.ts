import type { z } from 'zod';
import type { ContentParts } from '../content.ts';

/**
 * The content face of a feature (its `content.ts`): the manifest files only this feature reads, with
 * their zod schemas and one protocol-style line each for docs/manifests.md; the ids they define; the
 * tiles they make unwalkable; their cross-reference checks; and the part of SimContent they build.
 * world/ runs every feature's face from FEATURES (world/content-faces.ts); a file many features read
 * (items, npcs.json, world-areas.json...) stays a core manifest in world/schemas/.
 */

/**
 * Id spaces: a name for each kind of content id that other content refers to. The core defines items,
 * NPCs and areas; a face adds its own by augmenting this interface (`interface IdSpaces { store: true }`).
 */
export interface IdSpaces {
  item: true;
  npc: true;
  area: true;
}
export type IdSpace = keyof IdSpaces;

/** A rectangle of tiles, bounds inclusive. */
export interface TileRect {
  readonly minX: number;
  readonly maxX: number;
  readonly minZ: number;
  readonly maxZ: number;
}

/** The tiles a footprint covers, centred on the placed object's tile. */
export function footprintRect(x: number, z: number, fp: { width: number; depth: number }): TileRect {
  const minX = x - Math.floor((fp.width - 1) / 2);
  const minZ = z - Math.floor((fp.depth - 1) / 2);
  return { minX, maxX: minX + fp.width - 1, minZ, maxZ: minZ + fp.depth - 1 };
}

/** A thing world-areas.json places (a station, a resource node), and where it is listed there. */
export interface Placement {
  /** The station type or resource id. */
  readonly id: string;
  readonly x: number;
  readonly z: number;
  /** `world-areas.json: area "emberfold" (starterTowns.emberfold) stations[0]` */
  readonly where: string;
}

/** What a face's checks and builds may ask of the rest of the content. */
export interface ContentContext {
  /** Whether an id of this space exists (defined by a core manifest or a face's `defines`). */
  has(space: IdSpace, id: string): boolean;
  /** Whether any loaded manifest defines this space (a face whose files are absent defines nothing). */
  defines(space: IdSpace): boolean;
  /** Every item id (a tool class is any item whose id ends in `_<class>`). */
  itemIds(): Iterable<string>;
  /** An item reference: unknown is a problem (a warning when `soft`), `file: where (itemId "id"): unknown item`. */
  item(file: string, where: string, id: string, soft?: boolean): void;
  /** A problem stops loading; say file, entry and field. */
  problem(message: string): void;
  /** A dangling part the server tolerates by ignoring it (docs/content.md lists them). */
  warn(message: string): void;
  /** Ids listed twice in one list: `file: kind "id": duplicate id`. */
  unique(file: string, kind: string, ids: Iterable<string>): void;
  /** What world-areas.json places: stations (by type) and resource nodes (by resource id). */
  readonly placements: { readonly stations: readonly Placement[]; readonly resources: readonly Placement[] };
  /** A model's footprint in tiles (model-bounds.json; 1x1 when the model is unknown). */
  footprint(model: string | null | undefined): { readonly width: number; readonly depth: number };
  /** The tile is inside the world's bounds. */
  inMap(x: number, z: number): boolean;
  /** The tile is walkable once every face's `blocks` and the buildings are laid (check and build only). */
  walkable(x: number, z: number): boolean;
}

/** A face's manifests as read: a file that is absent is undefined. */
export type Parsed<F extends Record<string, z.ZodType>> = { readonly [P in keyof F]?: z.output<F[P]> };

export interface ContentFace<
  F extends Record<string, z.ZodType> = Record<string, z.ZodType>,
  K extends keyof ContentParts = keyof ContentParts,
> {
  /** Files (relative to the manifests directory) this feature alone reads, each with its schema. */
  readonly files: F;
  /** Files whose absence stops loading (`required manifest is missing`); the others default to empty. */
  readonly required?: readonly (keyof F & string)[];
  /** One line per file for docs/manifests.md. */
  readonly docs: { readonly [P in keyof F]: string };
  /** The ids these files define, by space (duplicates within a list are the face's check). */
  defines?(d: Parsed<F>): { readonly [S in IdSpace]?: Iterable<string> };
  /** Tiles this content makes unwalkable (a station's footprint, a rock face): laid before any check. */
  blocks?(d: Parsed<F>, ctx: ContentContext): Iterable<TileRect>;
  /** Cross-reference checks: report through ctx.problem, ctx.item, ctx.unique, ctx.warn. */
  check?(d: Parsed<F>, ctx: ContentContext): void;
  /** The parts of SimContent this face builds (every ContentParts key is built by exactly one face). */
  build(d: Parsed<F>, ctx: ContentContext): { readonly [P in K]: ContentParts[P] };
}

// biome-ignore lint/suspicious/noExplicitAny: the loader runs faces of any manifest files
type AnyParsed = any;

/** Any feature's content face, as the loader and the feature list hold it. */
export interface AnyContentFace {
  readonly files: Readonly<Record<string, z.ZodType>>;
  readonly required?: readonly string[];
  readonly docs: Readonly<Record<string, string>>;
  defines?(d: AnyParsed): { readonly [S in IdSpace]?: Iterable<string> };
  blocks?(d: AnyParsed, ctx: ContentContext): Iterable<TileRect>;
  check?(d: AnyParsed, ctx: ContentContext): void;
  build(d: AnyParsed, ctx: ContentContext): Partial<ContentParts>;
}

/** A feature's content face; `const` keeps its file names for the loader's and the docs' tables. */
export function defineContent<const F extends Record<string, z.ZodType>, K extends keyof ContentParts>(
  face: ContentFace<F, K>,
): ContentFace<F, K> {
  return face;
}
