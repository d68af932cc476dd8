import { randomUUID } from 'node:crypto';
import type { CharacterState } from '../../ecs/core/character-state.ts';
import type { ItemInfo } from '../../ecs/core/content.ts';
import { newCharacterState } from '../../ecs/core/new-character.ts';
import type { CharacterSummary, PersistencePort } from '../../persistence/port.ts';
import { NameTakenError } from '../../persistence/port.ts';
import type { CharacterTemplate } from '../../world/schemas/project.ts';
import { type AuthContext, badRequest, forbidden, notFound } from '../http/types.ts';
import { generateCharacterName, nameProblem } from './names.ts';

/**
 * An account's characters: ownership (an account reaches only its own characters), the most recently
 * played one, and creation from a template's starter kit. Shared by the HTTP routes and WebSocket login.
 */

export const MAX_CHARACTERS_PER_ACCOUNT = 10;

/** The content a new character is built from. */
export interface CharacterContent {
  /** Never empty; the first is the default starter kit. */
  readonly templates: readonly CharacterTemplate[];
  readonly spawn: { readonly x: number; readonly z: number };
  /** Whether an item stacks: a template's non-stackable `quantity: 3` fills three slots. */
  readonly items: ReadonlyMap<string, ItemInfo>;
}

export type CharacterPort = Pick<
  PersistencePort,
  | 'listCharacters'
  | 'loadCharacter'
  | 'createCharacter'
  | 'deleteCharacter'
  | 'renameCharacter'
  | 'touchLogin'
>;

/** Most recently played first; never-played characters count from their creation. */
export function byRecency(a: CharacterSummary, b: CharacterSummary): number {
  const at = (c: CharacterSummary) => (c.lastLoginAt ?? c.createdAt).getTime();
  return at(b) - at(a) || b.createdAt.getTime() - a.createdAt.getTime() || a.id.localeCompare(b.id);
}

export class AccountCharacters {
  constructor(
    private readonly port: CharacterPort,
    readonly content: CharacterContent,
  ) {}

  async list(accountId: string): Promise<CharacterSummary[]> {
    return (await this.port.listCharacters(accountId)).sort(byRecency);
  }

  async mostRecent(accountId: string): Promise<CharacterSummary | null> {
    return (await this.list(accountId))[0] ?? null;
  }

  /** The account's character, or what is wrong: `missing` (no such id) or `foreign` (another account's). */
  async find(
    accountId: string,
    characterId: string,
  ): Promise<{ ok: true; character: CharacterSummary } | { ok: false; reason: 'missing' | 'foreign' }> {
    const own = (await this.port.listCharacters(accountId)).find((c) => c.id === characterId);
    if (own !== undefined) return { ok: true, character: own };
    const other = await this.port.loadCharacter(characterId);
    return { ok: false, reason: other === null ? 'missing' : 'foreign' };
  }

  /** HTTP form of find: 404 for an unknown id, 403 for another account's character. */
  async require(auth: AuthContext, characterId: string): Promise<CharacterSummary> {
    const found = await this.find(auth.accountId, characterId);
    if (found.ok) return found.character;
    if (found.reason === 'foreign') throw forbidden('This character belongs to another account');
    throw notFound(`No character "${characterId}"`);
  }

  template(templateId: string | undefined): CharacterTemplate {
    if (templateId === undefined) return this.content.templates[0] as CharacterTemplate;
    const t = this.content.templates.find((x) => x.id === templateId);
    if (t === undefined) throw badRequest(`Unknown templateId "${templateId}"`);
    return t;
  }

  /**
   * Creates a character with a template's starter kit. A given name must follow the name rules and be
   * free (400 otherwise); without one a free generated name is used.
   */
  async create(accountId: string, opts: { name?: string; templateId?: string }): Promise<CharacterState> {
    const template = this.template(opts.templateId);
    if (opts.name !== undefined) {
      const problem = nameProblem(opts.name);
      if (problem !== null) throw badRequest(problem);
    }
    const existing = await this.port.listCharacters(accountId);
    if (existing.length >= MAX_CHARACTERS_PER_ACCOUNT) {
      throw badRequest(`An account may have at most ${MAX_CHARACTERS_PER_ACCOUNT} characters`);
    }
    for (let attempt = 0; ; attempt++) {
      const name = opts.name ?? generateCharacterName();
      try {
        return await this.port.createCharacter(
          newCharacterState(randomUUID(), accountId, name, template, this.content),
        );
      } catch (err) {
        if (!(err instanceof NameTakenError)) throw err;
        if (opts.name !== undefined) throw badRequest(`The name "${opts.name}" is taken`);
        if (attempt >= 20) throw err;
      }
    }
  }

  /**
   * The character a WebSocket login enters with (contract §1.2): `characterId` must be one of the
   * account's; else the most recently played; else a new one named `name` (or a generated name).
   */
  async selectForLogin(
    accountId: string,
    opts: { characterId?: string | undefined; name?: string | undefined },
  ): Promise<{ ok: true; characterId: string } | { ok: false; reason: 'missing' | 'foreign' }> {
    if (opts.characterId !== undefined) {
      const found = await this.find(accountId, opts.characterId);
      return found.ok ? { ok: true, characterId: found.character.id } : found;
    }
    const recent = await this.mostRecent(accountId);
    if (recent !== null) return { ok: true, characterId: recent.id };
    const created = await this.create(accountId, opts.name !== undefined ? { name: opts.name } : {});
    return { ok: true, characterId: created.id };
  }

  /**
   * The first character of a new anonymous account (default template), named `name` when given (it
   * must follow the name rules: 400 otherwise) or a generated name. Not written: the login batch is.
   */
  newForAnonymous(accountId: string, name?: string): CharacterState {
    if (name !== undefined) {
      const problem = nameProblem(name);
      if (problem !== null) throw badRequest(problem);
    }
    return newCharacterState(
      randomUUID(),
      accountId,
      name ?? generateCharacterName(),
      this.template(undefined),
      this.content,
    );
  }

  async rename(characterId: string, name: string): Promise<void> {
    const problem = nameProblem(name);
    if (problem !== null) throw badRequest(problem);
    try {
      await this.port.renameCharacter(characterId, name);
    } catch (err) {
      if (err instanceof NameTakenError) throw badRequest(`The name "${name}" is taken`);
      throw err;
    }
  }
}

/** The public form of a character summary in HTTP responses. */
export function characterView(c: CharacterSummary, online: boolean) {
  return {
    id: c.id,
    name: c.name,
    combatLevel: c.combatLevel,
    createdAt: c.createdAt.toISOString(),
    lastLoginAt: c.lastLoginAt === null ? null : c.lastLoginAt.toISOString(),
    online,
  };
}
