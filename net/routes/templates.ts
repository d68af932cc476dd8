import type { CharacterTemplate } from '../../world/schemas/project.ts';
import { param } from '../auth/http-input.ts';
import { notFound, type RouteDef } from '../http/types.ts';
import { wireEquipment } from '../protocol/shared.ts';

/**
 * /api/template/*: character templates (starter kits) from content. GET list, GET one by id. Bearer
 * (the prefix is protected by contract §3.2); templates are the same for every account.
 */

export function templateView(t: CharacterTemplate) {
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    inventory: t.inventory.map((s) => ({ itemId: s.itemId, quantity: s.quantity })),
    equipment: wireEquipment(t.equipment),
    coins: t.coins,
  };
}

export function templateRoutes(deps: { templates: readonly CharacterTemplate[] }): RouteDef[] {
  return [
    {
      method: 'GET',
      path: '/api/template/list',
      auth: 'bearer',
      handler: () => ({ body: { templates: deps.templates.map(templateView) } }),
    },
    {
      method: 'GET',
      path: '/api/template/:templateId',
      auth: 'bearer',
      handler: (req) => {
        const id = param(req, 'templateId');
        const t = deps.templates.find((x) => x.id === id);
        if (t === undefined) throw notFound(`No template "${id}"`);
        return { body: { template: templateView(t) } };
      },
    },
  ];
}
