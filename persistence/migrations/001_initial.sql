-- Every record kind of the specification. Runs on PostgreSQL 15 and PGlite (PostgreSQL 18).
-- Column names of the character record are the specification's, quoted to keep their case.
-- Constraints make impossible states (slot 28, quantity 0, negative coins, a duplicate name) unwritable.

CREATE TABLE users (
  id text PRIMARY KEY,
  "idpSubject" text UNIQUE,
  "socialId" text UNIQUE,
  anonymous boolean NOT NULL DEFAULT false,
  name text,
  banned boolean NOT NULL DEFAULT false,
  "createdAt" timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE characters (
  id text PRIMARY KEY,
  "accountId" text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
  "combatLevel" integer NOT NULL DEFAULT 3 CHECK ("combatLevel" BETWEEN 1 AND 200),
  "attackLevel" integer NOT NULL DEFAULT 1 CHECK ("attackLevel" BETWEEN 1 AND 99),
  "attackXp" integer NOT NULL DEFAULT 0 CHECK ("attackXp" BETWEEN 0 AND 200000000),
  "strengthLevel" integer NOT NULL DEFAULT 1 CHECK ("strengthLevel" BETWEEN 1 AND 99),
  "strengthXp" integer NOT NULL DEFAULT 0 CHECK ("strengthXp" BETWEEN 0 AND 200000000),
  "defenseLevel" integer NOT NULL DEFAULT 1 CHECK ("defenseLevel" BETWEEN 1 AND 99),
  "defenseXp" integer NOT NULL DEFAULT 0 CHECK ("defenseXp" BETWEEN 0 AND 200000000),
  "constitutionLevel" integer NOT NULL DEFAULT 10 CHECK ("constitutionLevel" BETWEEN 1 AND 99),
  "constitutionXp" integer NOT NULL DEFAULT 1154 CHECK ("constitutionXp" BETWEEN 0 AND 200000000),
  "rangedLevel" integer NOT NULL DEFAULT 1 CHECK ("rangedLevel" BETWEEN 1 AND 99),
  "rangedXp" integer NOT NULL DEFAULT 0 CHECK ("rangedXp" BETWEEN 0 AND 200000000),
  "magicLevel" integer NOT NULL DEFAULT 1 CHECK ("magicLevel" BETWEEN 1 AND 99),
  "magicXp" integer NOT NULL DEFAULT 0 CHECK ("magicXp" BETWEEN 0 AND 200000000),
  "prayerLevel" integer NOT NULL DEFAULT 1 CHECK ("prayerLevel" BETWEEN 1 AND 99),
  "prayerXp" integer NOT NULL DEFAULT 0 CHECK ("prayerXp" BETWEEN 0 AND 200000000),
  "woodcuttingLevel" integer NOT NULL DEFAULT 1 CHECK ("woodcuttingLevel" BETWEEN 1 AND 99),
  "woodcuttingXp" integer NOT NULL DEFAULT 0 CHECK ("woodcuttingXp" BETWEEN 0 AND 200000000),
  "miningLevel" integer NOT NULL DEFAULT 1 CHECK ("miningLevel" BETWEEN 1 AND 99),
  "miningXp" integer NOT NULL DEFAULT 0 CHECK ("miningXp" BETWEEN 0 AND 200000000),
  "fishingLevel" integer NOT NULL DEFAULT 1 CHECK ("fishingLevel" BETWEEN 1 AND 99),
  "fishingXp" integer NOT NULL DEFAULT 0 CHECK ("fishingXp" BETWEEN 0 AND 200000000),
  "cookingLevel" integer NOT NULL DEFAULT 1 CHECK ("cookingLevel" BETWEEN 1 AND 99),
  "cookingXp" integer NOT NULL DEFAULT 0 CHECK ("cookingXp" BETWEEN 0 AND 200000000),
  "firemakingLevel" integer NOT NULL DEFAULT 1 CHECK ("firemakingLevel" BETWEEN 1 AND 99),
  "firemakingXp" integer NOT NULL DEFAULT 0 CHECK ("firemakingXp" BETWEEN 0 AND 200000000),
  "smithingLevel" integer NOT NULL DEFAULT 1 CHECK ("smithingLevel" BETWEEN 1 AND 99),
  "smithingXp" integer NOT NULL DEFAULT 0 CHECK ("smithingXp" BETWEEN 0 AND 200000000),
  "agilityLevel" integer NOT NULL DEFAULT 1 CHECK ("agilityLevel" BETWEEN 1 AND 99),
  "agilityXp" integer NOT NULL DEFAULT 0 CHECK ("agilityXp" BETWEEN 0 AND 200000000),
  "craftingLevel" integer NOT NULL DEFAULT 1 CHECK ("craftingLevel" BETWEEN 1 AND 99),
  "craftingXp" integer NOT NULL DEFAULT 0 CHECK ("craftingXp" BETWEEN 0 AND 200000000),
  "fletchingLevel" integer NOT NULL DEFAULT 1 CHECK ("fletchingLevel" BETWEEN 1 AND 99),
  "fletchingXp" integer NOT NULL DEFAULT 0 CHECK ("fletchingXp" BETWEEN 0 AND 200000000),
  "runecraftingLevel" integer NOT NULL DEFAULT 1 CHECK ("runecraftingLevel" BETWEEN 1 AND 99),
  "runecraftingXp" integer NOT NULL DEFAULT 0 CHECK ("runecraftingXp" BETWEEN 0 AND 200000000),
  health integer NOT NULL DEFAULT 100 CHECK (health >= 0),
  coins integer NOT NULL DEFAULT 0 CHECK (coins >= 0),
  "positionX" real NOT NULL DEFAULT 0,
  "positionY" real NOT NULL DEFAULT 10,
  "positionZ" real NOT NULL DEFAULT 0,
  "createdAt" timestamptz NOT NULL DEFAULT now(),
  "lastLoginAt" timestamptz,
  "savedAt" timestamptz NOT NULL DEFAULT now()
) WITH (fillfactor = 70); -- room on each page for HOT updates: saves rewrite every row
-- One name per world, case-insensitive.
CREATE UNIQUE INDEX characters_name_lower ON characters (lower(name));
CREATE INDEX characters_account ON characters ("accountId");

CREATE TABLE inventory (
  "characterId" text NOT NULL REFERENCES characters(id) ON DELETE CASCADE,
  slot smallint NOT NULL CHECK (slot BETWEEN 0 AND 27),
  "itemId" text NOT NULL CHECK (length("itemId") > 0),
  quantity integer NOT NULL CHECK (quantity > 0),
  PRIMARY KEY ("characterId", slot)
) WITH (fillfactor = 70);

CREATE TABLE equipment (
  "characterId" text NOT NULL REFERENCES characters(id) ON DELETE CASCADE,
  "slotType" text NOT NULL CHECK ("slotType" IN
    ('weapon', 'shield', 'helmet', 'body', 'legs', 'gloves', 'boots', 'cape', 'amulet', 'ring', 'arrows')),
  "itemId" text NOT NULL CHECK (length("itemId") > 0),
  quantity integer NOT NULL DEFAULT 1 CHECK (quantity > 0),
  PRIMARY KEY ("characterId", "slotType")
);

-- Every item stacks in the bank: one row per item id; position orders the display.
CREATE TABLE bank (
  "characterId" text NOT NULL REFERENCES characters(id) ON DELETE CASCADE,
  "itemId" text NOT NULL CHECK (length("itemId") > 0),
  quantity integer NOT NULL CHECK (quantity > 0),
  position integer NOT NULL CHECK (position >= 0),
  PRIMARY KEY ("characterId", "itemId")
);

-- A snapshot of the item definitions the world was loaded with.
CREATE TABLE items (
  id text PRIMARY KEY,
  name text NOT NULL,
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  "updatedAt" timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE "worldChunks" (
  "chunkX" integer NOT NULL,
  "chunkZ" integer NOT NULL,
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  "updatedAt" timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY ("chunkX", "chunkZ")
);

CREATE TABLE "playerSessions" (
  id text PRIMARY KEY,
  "characterId" text NOT NULL REFERENCES characters(id) ON DELETE CASCADE,
  "accountId" text NOT NULL,
  "loginAt" timestamptz NOT NULL DEFAULT now(),
  "logoutAt" timestamptz,
  CHECK ("logoutAt" IS NULL OR "logoutAt" >= "loginAt")
);
CREATE INDEX player_sessions_character ON "playerSessions" ("characterId");

-- Death locks: the items a dead character dropped, written before they leave the inventory.
CREATE TABLE "playerDeaths" (
  id text PRIMARY KEY,
  "characterId" text NOT NULL REFERENCES characters(id) ON DELETE CASCADE,
  "positionX" real NOT NULL,
  "positionY" real NOT NULL,
  "positionZ" real NOT NULL,
  items jsonb NOT NULL,
  "createdAt" timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE "npcKills" (
  "characterId" text NOT NULL REFERENCES characters(id) ON DELETE CASCADE,
  "npcId" text NOT NULL,
  count integer NOT NULL CHECK (count > 0),
  PRIMARY KEY ("characterId", "npcId")
);

-- Bidirectional: one row per pair, stored in order so (a, b) and (b, a) cannot both exist.
CREATE TABLE friendships (
  "characterA" text NOT NULL REFERENCES characters(id) ON DELETE CASCADE,
  "characterB" text NOT NULL REFERENCES characters(id) ON DELETE CASCADE,
  "createdAt" timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY ("characterA", "characterB"),
  CHECK ("characterA" < "characterB")
);

CREATE TABLE friend_requests (
  "fromId" text NOT NULL REFERENCES characters(id) ON DELETE CASCADE,
  "toId" text NOT NULL REFERENCES characters(id) ON DELETE CASCADE,
  "createdAt" timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY ("fromId", "toId"),
  CHECK ("fromId" <> "toId")
);

CREATE TABLE ignore_lists (
  "accountId" text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  "ignoredCharacterId" text NOT NULL REFERENCES characters(id) ON DELETE CASCADE,
  "createdAt" timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY ("accountId", "ignoredCharacterId")
);

-- No foreign keys: the audit outlives deleted characters.
CREATE TABLE trade_audit (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  "tradeId" text NOT NULL,
  "initiatorId" text NOT NULL,
  "recipientId" text NOT NULL,
  "initiatorOffer" jsonb NOT NULL,
  "recipientOffer" jsonb NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('completed', 'cancelled', 'failed')),
  reason text,
  "createdAt" timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX trade_audit_trade ON trade_audit ("tradeId");

-- Idempotency keys of committed item transactions: a retried id is a no-op success.
CREATE TABLE item_transactions (
  id text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN
    ('trade', 'bank_deposit', 'bank_withdraw', 'shop_buy', 'shop_sell', 'death', 'admin', 'equip')),
  "createdAt" timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE agent_mappings (
  "agentId" text PRIMARY KEY,
  "accountId" text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  "characterId" text NOT NULL REFERENCES characters(id) ON DELETE CASCADE,
  "createdAt" timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE agent_goals (
  "characterId" text PRIMARY KEY REFERENCES characters(id) ON DELETE CASCADE,
  goal jsonb,
  paused boolean NOT NULL DEFAULT false,
  "updatedAt" timestamptz NOT NULL DEFAULT now()
);
