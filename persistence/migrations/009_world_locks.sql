-- Several worlds on one database (docs/scaling.md): the world that holds each character, until when.
-- The holder renews its rows; a row past "expiresAt" is free for any world to take. Saves and item
-- transactions of a world that runs with locks write only characters whose row it holds.
CREATE TABLE "characterLocks" (
  "characterId" text PRIMARY KEY,
  "worldId" integer NOT NULL,
  "expiresAt" timestamptz NOT NULL
);
CREATE INDEX "characterLocks_world" ON "characterLocks" ("worldId");
