import type { CharacterState, ItemStack } from '../ecs/core/character-state.ts';

/**
 * The copies the save scheduler keeps of what the simulation hands over: a snapshot must not change when
 * the live state does, and must hold everything a save writes. Item stacks, skills and equipment are
 * copied by hand (structuredClone costs ~10x more, and thousands are handed over a tick). The feature
 * slices (`state.slices`) are copied whole, whatever their shape: a feature that adds a slice, or a field
 * to one, needs no change here (tests/unit/save-snapshot.test.ts checks every registered slice).
 */

type Fields = { [K in keyof Required<CharacterState>]: CharacterState[K] };

export function copyCharacter(s: CharacterState): CharacterState {
  const skills = {} as CharacterState['skills'];
  for (const k in s.skills) {
    const v = s.skills[k as keyof CharacterState['skills']];
    skills[k as keyof CharacterState['skills']] = { level: v.level, xp: v.xp };
  }
  const equipment: CharacterState['equipment'] = {};
  for (const k in s.equipment) {
    const v = s.equipment[k as keyof CharacterState['equipment']];
    if (v) equipment[k as keyof CharacterState['equipment']] = { itemId: v.itemId, quantity: v.quantity };
  }
  // Every field named (optional ones too): one added to CharacterState does not compile until copied.
  const copy: Fields = {
    id: s.id,
    accountId: s.accountId,
    name: s.name,
    position: { x: s.position.x, y: s.position.y, z: s.position.z },
    health: s.health,
    coins: s.coins,
    skills,
    inventory: s.inventory.map((v) => (v ? { itemId: v.itemId, quantity: v.quantity } : null)),
    equipment,
    bank: s.bank.map((v) => ({ itemId: v.itemId, quantity: v.quantity })),
    slices: s.slices === undefined ? undefined : copyData(s.slices),
  };
  if (copy.slices === undefined) delete copy.slices;
  return copy;
}

/** `into` (a copy nobody else holds) made equal to copyCharacter(s), reusing its objects where it can. */
export function copyCharacterInto(into: CharacterState, s: CharacterState): void {
  into.accountId = s.accountId;
  into.name = s.name;
  into.position.x = s.position.x;
  into.position.y = s.position.y;
  into.position.z = s.position.z;
  into.health = s.health;
  into.coins = s.coins;
  for (const k in s.skills) {
    const v = s.skills[k as keyof CharacterState['skills']];
    const t = into.skills[k as keyof CharacterState['skills']];
    if (t === undefined) into.skills[k as keyof CharacterState['skills']] = { level: v.level, xp: v.xp };
    else {
      t.level = v.level;
      t.xp = v.xp;
    }
  }
  for (const k in into.equipment)
    if (!s.equipment[k as keyof CharacterState['equipment']])
      delete into.equipment[k as keyof CharacterState['equipment']];
  for (const k in s.equipment) {
    const v = s.equipment[k as keyof CharacterState['equipment']];
    if (!v) continue;
    const t = into.equipment[k as keyof CharacterState['equipment']];
    if (t === undefined)
      into.equipment[k as keyof CharacterState['equipment']] = { itemId: v.itemId, quantity: v.quantity };
    else {
      t.itemId = v.itemId;
      t.quantity = v.quantity;
    }
  }
  copyStacksInto(into.inventory, s.inventory);
  copyStacksInto(into.bank, s.bank);
  // Features change their slices in place (quest progress): copied into the snapshot's own objects,
  // never a reference to the live ones.
  if (s.slices === undefined) delete into.slices;
  else into.slices = copyDataInto(into.slices, s.slices);
}

/** `into` made equal to a copy of `from`, slot for slot, reusing its stack objects. */
function copyStacksInto<T extends ItemStack | null>(into: T[], from: readonly T[]): void {
  into.length = from.length;
  for (let i = 0; i < from.length; i++) {
    const v = from[i];
    const t = into[i];
    if (!v) into[i] = null as T;
    else if (!t) into[i] = { itemId: v.itemId, quantity: v.quantity } as T;
    else {
      t.itemId = v.itemId;
      t.quantity = v.quantity;
    }
  }
}

/**
 * A deep copy of slice data, whatever its shape. Slices are data a save writes (rows, JSON): plain
 * objects and arrays are copied by hand (small, and copied for every dirty player each tick); anything
 * with another prototype (a Date, a Map) goes through structuredClone.
 */
export function copyData<T>(v: T): T {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return v.map(copyData) as T;
  if (!isPlainObject(v)) return structuredClone(v);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) setKey(out, k, copyData((v as Record<string, unknown>)[k]));
  return out as T;
}

/**
 * copyData(from), built in `into` (data only the snapshot holds) where the shapes match: a moving
 * player's waiting snapshot is refreshed every tick, and its slices need not be garbage each time.
 */
export function copyDataInto<T>(into: unknown, from: T): T {
  if (typeof from !== 'object' || from === null) return from;
  if (Array.isArray(from)) {
    if (!Array.isArray(into)) return copyData(from);
    into.length = from.length;
    for (let i = 0; i < from.length; i++) into[i] = copyDataInto(into[i], from[i]);
    return into as T;
  }
  if (!isPlainObject(from)) return structuredClone(from);
  if (typeof into !== 'object' || into === null || Array.isArray(into) || !isPlainObject(into))
    return copyData(from);
  const target = into as Record<string, unknown>;
  const source = from as Record<string, unknown>;
  // for-in, not Object.keys: no key array per object (every moving player's slices, every tick).
  for (const k in target) if (Object.hasOwn(target, k) && !Object.hasOwn(source, k)) delete target[k];
  for (const k in source) {
    if (!Object.hasOwn(source, k)) continue;
    const v = source[k];
    if (typeof v !== 'object' || v === null) {
      if (k === '__proto__') setKey(target, k, v);
      else target[k] = v;
      continue;
    }
    const own = Object.hasOwn(target, k) ? target[k] : undefined;
    setKey(target, k, copyDataInto(own, v));
  }
  return target as T;
}

/** `o[k] = v`, also for a key named `__proto__` (data, never the prototype). */
function setKey(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__')
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

function isPlainObject(v: object): boolean {
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
