import type { Placement } from '../ecs/core/faces/content.ts';
import type { ManifestData } from './schemas/index.ts';

/**
 * What world-areas.json places that a feature defines: stations (by type) and resource nodes (by id,
 * fishing spots included), each with its tile and where it is listed, for the features' content faces
 * (what they block, what they check) and for the spawns of the simulation's content.
 */

export interface AreaPlacements {
  readonly stations: readonly Placement[];
  /** Resource nodes, then each area's fishing spots; `kind` is the placement's type (`fishing` for spots). */
  readonly resources: readonly (Placement & { readonly kind: string })[];
}

const tile = (v: number) => Math.floor(v);

export function areaPlacements(areas: ManifestData<'world-areas.json'>): AreaPlacements {
  const stations: Placement[] = [];
  const resources: (Placement & { kind: string })[] = [];
  for (const [group, byKey] of Object.entries(areas)) {
    for (const [key, a] of Object.entries(byKey)) {
      const at = `world-areas.json: area "${a.id}" (${group}.${key})`;
      a.stations.forEach((s, i) => {
        stations.push({
          id: s.type,
          x: tile(s.position.x),
          z: tile(s.position.z),
          where: `${at} stations[${i}]`,
        });
      });
      a.resources.forEach((r, i) => {
        resources.push({
          id: r.resourceId,
          kind: r.type,
          x: tile(r.position.x),
          z: tile(r.position.z),
          where: `${at} resources[${i}]`,
        });
      });
      const fishing = a.fishing;
      if (fishing?.enabled && fishing.spotTypes.length > 0) {
        const count = fishing.positions?.length ?? fishing.spotCount;
        const b = a.bounds;
        for (let i = 0; i < count; i++) {
          const id = fishing.spotTypes[i % fishing.spotTypes.length] as string;
          const p = fishing.positions?.[i];
          // Without explicit positions, spots are spread evenly along the area's south edge.
          const x = p ? p.x : b.minX + ((i + 1) * (b.maxX - b.minX)) / (count + 1);
          const z = p ? p.z : b.minZ;
          resources.push({ id, kind: 'fishing', x: tile(x), z: tile(z), where: `${at} fishing spot ${i}` });
        }
      }
    }
  }
  return { stations, resources };
}
