-- Slice homeTeleport (persistence/slices/home-teleport.ts): when each character's next home teleport may start.
CREATE TABLE "homeTeleport" (
  "characterId" text PRIMARY KEY REFERENCES characters(id) ON DELETE CASCADE,
  "readyAt" timestamptz NOT NULL
);
