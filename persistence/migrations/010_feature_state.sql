-- The per-character state of features that keep it as one JSON value (a feature's persist face, e.g.
-- movement's run energy): one row per character and slice, read back through the face's schema.
CREATE TABLE "featureState" (
  "characterId" text NOT NULL REFERENCES characters(id) ON DELETE CASCADE,
  slice text NOT NULL,
  value jsonb NOT NULL,
  PRIMARY KEY ("characterId", slice)
);
