-- Slice quests (persistence/slices/quests.ts): each character's quest progress and quest points.
CREATE TABLE "characterQuests" (
  "characterId" text PRIMARY KEY REFERENCES characters(id) ON DELETE CASCADE,
  "questPoints" integer NOT NULL DEFAULT 0 CHECK ("questPoints" >= 0),
  -- {questId: {status: 'in_progress'|'completed', stage, progress}}
  quests jsonb NOT NULL DEFAULT '{}'::jsonb
);
