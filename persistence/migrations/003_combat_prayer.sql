-- Slice prayer (persistence/slices/prayer.ts): each character's prayer points left.
-- (Kill counts of the npcKills slice live in "npcKills" of 001.)
CREATE TABLE "prayerPoints" (
  "characterId" text PRIMARY KEY REFERENCES characters(id) ON DELETE CASCADE,
  points integer NOT NULL CHECK (points BETWEEN 0 AND 99)
);
