import type { GameState } from '../game.ts';

/**
 * The view's projection: top-down, north (+z) up and east (+x) right, as the world's areas describe
 * themselves ("the quarry north of the ford"). `tile` pixels a tile, changed with the mouse wheel.
 */

export const zoom = { tile: 22, min: 12, max: 44 };

export interface Camera {
  /** Tile at the centre of the view (fractional while walking). */
  fx: number;
  fz: number;
  width: number;
  height: number;
  tile: number;
}

export function camera(state: GameState, canvas: HTMLCanvasElement): Camera {
  const { x, z } = state.focus();
  return { fx: x, fz: z, width: canvas.width, height: canvas.height, tile: zoom.tile };
}

export function toScreen(cam: Camera, x: number, z: number): { sx: number; sy: number } {
  return { sx: (x - cam.fx) * cam.tile + cam.width / 2, sy: (cam.fz - z) * cam.tile + cam.height / 2 };
}

export function toTile(cam: Camera, sx: number, sy: number): { x: number; z: number } {
  return {
    x: Math.round((sx - cam.width / 2) / cam.tile + cam.fx),
    z: Math.round(cam.fz - (sy - cam.height / 2) / cam.tile),
  };
}
