/**
 * The body of GET /api/map's `layout`, as clients read it. Types only, importing nothing, so that the web
 * client can use them without pulling the server's content code into its build.
 */

export interface MapArea {
  id: string;
  name: string;
  minX: number;
  maxX: number;
  minZ: number;
  maxZ: number;
  /** biomes.json id (`town`, `woodland` ...) and its `terrain` (`plains`, `forest`, `mountains`, `desert` ...). */
  biome: string;
  terrain: string | null;
  safeZone: boolean;
  pvpEnabled: boolean;
  difficulty: number;
}

export interface MapBuilding {
  id: string;
  name: string;
  /** South-west corner tile and size in tiles. */
  x: number;
  z: number;
  width: number;
  depth: number;
  door: { x: number; z: number } | null;
}

export interface MapLayout {
  areas: MapArea[];
  buildings: MapBuilding[];
  /** A pool of water around each fishing spot: centre tile and radius in tiles (covers a moving spot's range). */
  water: { x: number; z: number; radius: number }[];
  /** Path tiles as runs along a row: `[z, fromX, toX]`, inclusive. */
  paths: [number, number, number][];
}
